import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import type { Database } from "sql.js";
import { openDatabase } from "./schema.js";

export interface LoadedDatabase {
  readonly db: Database;
  /** Set when the file was corrupt: what happened, for the user. */
  readonly problem?: string;
  /** mtime and size of the file that was loaded, to notice when another process compacts it. */
  readonly stamp: string;
}

export function fileStamp(path: string): string {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return "missing";
  }
}

/**
 * Opens the database file, or an empty database when there is none. A corrupt file is never silently replaced:
 * it is moved aside (`.corrupt-<time>`), whatever rows can still be read from it are copied into a fresh database,
 * and the caller gets a problem to report. (Journal records are replayed on top by the store.)
 */
export async function loadDatabaseFile(path: string): Promise<LoadedDatabase> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch {
    return { db: await openDatabase(), stamp: "missing" };
  }
  const stamp = fileStamp(path);
  try {
    const db = await openDatabase(bytes);
    const check = db.exec("PRAGMA quick_check")[0]?.values[0]?.[0];
    if (check !== "ok") throw new Error(`integrity check: ${String(check)}`);
    return { db, stamp };
  } catch (error) {
    const aside = `${path}.corrupt-${Date.now()}`;
    renameSync(path, aside);
    const { db, recovered } = await salvage(bytes);
    return {
      db,
      stamp: "missing",
      problem: `The session database ${path} was corrupt (${(error as Error).message}). It was moved to ${aside}; ${recovered} and the journals were replayed.`,
    };
  }
}

/** Copies every row that can still be read from a damaged database into a fresh one. */
async function salvage(bytes: Uint8Array): Promise<{ db: Database; recovered: string }> {
  const fresh = await openDatabase();
  let sessions = 0;
  let messages = 0;
  try {
    const SQL = await import("./sql-runtime.js").then((m) => m.loadSqlJs());
    const damaged = new SQL.Database(bytes);
    sessions = copyRows(
      damaged,
      fresh,
      "sessions",
      "id, source, cwd, title, model, provider, created_at, updated_at, parent_session_id, message_count, state_json",
    );
    messages = copyRows(
      damaged,
      fresh,
      "messages",
      "session_id, seq, role, content, tool_calls, tool_call_id, tool_name, reasoning, timestamp, active",
    );
    damaged.close();
  } catch {
    // nothing readable: the journals are all that is left
  }
  return { db: fresh, recovered: `${sessions} sessions and ${messages} messages were recovered from it` };
}

function copyRows(from: Database, to: Database, table: string, columns: string): number {
  let copied = 0;
  try {
    const rows = from.exec(`SELECT ${columns} FROM ${table}`)[0]?.values ?? [];
    const marks = columns
      .split(",")
      .map(() => "?")
      .join(", ");
    for (const row of rows) {
      try {
        to.run(`INSERT OR IGNORE INTO ${table}(${columns}) VALUES (${marks})`, row);
        copied++;
      } catch {
        // skip a row that does not fit
      }
    }
  } catch {
    // the table itself is unreadable
  }
  return copied;
}

/** Writes the database through a temporary file and a rename: readers see the old file or the new one. */
export function saveDatabaseFile(db: Database, path: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, db.export());
  renameSync(tmp, path);
}
