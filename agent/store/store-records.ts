import type { Database } from "sql.js";

/** A message as stored: the engine's history entry plus its position in the session. */
export interface StoredMessage {
  readonly seq: number;
  readonly role: "user" | "assistant" | "tool";
  readonly content: string;
  readonly toolCalls?: ReadonlyArray<{ id: string; name: string; arguments: string }>;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly reasoning?: string;
  readonly timestamp: number;
}

export interface SessionMeta {
  readonly id: string;
  readonly cwd: string;
  readonly title?: string;
  readonly model?: string;
  readonly provider?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly parentSessionId?: string;
}

/**
 * One journal line. Every record is idempotent (replaying it twice leaves the same state), because after a crash
 * a journal may be replayed over a database that already holds part of it.
 */
export type StoreRecord =
  | { readonly t: "session"; readonly session: SessionMeta }
  | {
      readonly t: "messages";
      readonly sessionId: string;
      readonly messages: readonly StoredMessage[];
      readonly updatedAt: number;
    }
  /** The whole active history replaced (after compression): earlier messages stay, inactive, for search. */
  | {
      readonly t: "replace";
      readonly sessionId: string;
      readonly messages: readonly StoredMessage[];
      readonly updatedAt: number;
    }
  | {
      readonly t: "meta";
      readonly sessionId: string;
      readonly title?: string;
      readonly state?: unknown;
      readonly updatedAt: number;
    }
  | { readonly t: "delete"; readonly sessionId: string };

export function applyRecord(db: Database, record: StoreRecord): void {
  switch (record.t) {
    case "session": {
      const s = record.session;
      db.run(
        `INSERT INTO sessions(id, cwd, title, model, provider, created_at, updated_at, parent_session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET cwd = excluded.cwd, model = excluded.model, provider = excluded.provider`,
        [
          s.id,
          s.cwd,
          s.title ?? null,
          s.model ?? null,
          s.provider ?? null,
          s.createdAt,
          s.updatedAt,
          s.parentSessionId ?? null,
        ],
      );
      return;
    }
    case "replace":
      db.run("UPDATE messages SET active = 0 WHERE session_id = ? AND active = 1", [record.sessionId]);
      insertMessages(db, record.sessionId, record.messages, record.updatedAt);
      return;
    case "messages":
      insertMessages(db, record.sessionId, record.messages, record.updatedAt);
      return;
    case "delete":
      db.run("DELETE FROM messages WHERE session_id = ?", [record.sessionId]);
      db.run("DELETE FROM sessions WHERE id = ?", [record.sessionId]);
      return;
    case "meta":
      if (record.title !== undefined)
        db.run("UPDATE sessions SET title = ? WHERE id = ?", [record.title, record.sessionId]);
      if (record.state !== undefined)
        db.run("UPDATE sessions SET state_json = ? WHERE id = ?", [JSON.stringify(record.state), record.sessionId]);
      db.run("UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?", [record.updatedAt, record.sessionId]);
      return;
  }
}

function insertMessages(db: Database, sessionId: string, messages: readonly StoredMessage[], updatedAt: number): void {
  const insert = db.prepare(
    `INSERT INTO messages(session_id, seq, role, content, tool_calls, tool_call_id, tool_name, reasoning, timestamp, active)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
     ON CONFLICT(session_id, seq) DO UPDATE SET role = excluded.role, content = excluded.content, tool_calls = excluded.tool_calls,
       tool_call_id = excluded.tool_call_id, tool_name = excluded.tool_name, reasoning = excluded.reasoning, active = 1`,
  );
  try {
    for (const m of messages) {
      insert.run([
        sessionId,
        m.seq,
        m.role,
        m.content,
        m.toolCalls ? JSON.stringify(m.toolCalls) : null,
        m.toolCallId ?? null,
        m.toolName ?? null,
        m.reasoning ?? null,
        m.timestamp,
      ]);
    }
  } finally {
    insert.free();
  }
  db.run(
    "UPDATE sessions SET message_count = (SELECT count(*) FROM messages WHERE session_id = ? AND active = 1), updated_at = max(updated_at, ?) WHERE id = ?",
    [sessionId, updatedAt, sessionId],
  );
}
