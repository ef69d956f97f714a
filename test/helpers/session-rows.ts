import type { Database } from "sql.js";

/** Rows written straight into a session store database, for search tests. */

export interface Msg {
  role?: string;
  content: string | null;
  toolName?: string;
  toolCalls?: unknown;
  active?: 0 | 1;
}
export interface SessionOptions {
  title?: string | null;
  parent?: string;
  source?: string;
  at?: number;
}

/** Inserts a session and its messages (seq 0..n, one minute apart from `at`); returns the message ids. */
export function addSession(db: Database, id: string, messages: Msg[], options: SessionOptions = {}): number[] {
  const at = options.at ?? 1_700_000_000;
  db.run(
    "INSERT INTO sessions(id, source, cwd, title, created_at, updated_at, parent_session_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [
      id,
      options.source ?? "acp",
      `/work/${id}`,
      options.title === undefined ? `Title of ${id}` : options.title,
      at,
      at + 60 * messages.length,
      options.parent ?? null,
    ],
  );
  return messages.map((m, seq) => {
    db.run(
      "INSERT INTO messages(session_id, seq, role, content, tool_name, tool_calls, timestamp, active) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      [
        id,
        seq,
        m.role ?? "user",
        m.content,
        m.toolName ?? null,
        m.toolCalls === undefined ? null : JSON.stringify(m.toolCalls),
        at + 60 * seq,
        m.active ?? 1,
      ],
    );
    return Number(db.exec("SELECT last_insert_rowid()")[0]!.values[0]![0]);
  });
}

export const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 17} filler`).join(" ");
