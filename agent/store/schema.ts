import type { Database } from "sql.js";
import { loadSqlJs } from "./sql-runtime.js";

export const SCHEMA_VERSION = 1;

/**
 * The session store's schema (HERMES_HOME/sessions/sessions.sqlite). Messages keep the OpenAI-format history of each
 * session; `seq` orders them and makes journal replay idempotent. `messages_fts` is an FTS4 index over the message
 * text (sql.js has no FTS5): unicode61 with diacritics folded, prefix indexes for 2- and 3-letter prefixes, kept in
 * step by triggers as the SQLite documentation prescribes for external-content FTS4 tables.
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL DEFAULT 'acp',
  cwd TEXT NOT NULL,
  title TEXT,
  model TEXT,
  provider TEXT,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  parent_session_id TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  state_json TEXT
);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions(updated_at DESC);
CREATE INDEX IF NOT EXISTS sessions_cwd ON sessions(cwd, updated_at DESC);
CREATE INDEX IF NOT EXISTS sessions_parent ON sessions(parent_session_id);
CREATE INDEX IF NOT EXISTS sessions_title ON sessions(title);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT,
  tool_calls TEXT,
  tool_call_id TEXT,
  tool_name TEXT,
  reasoning TEXT,
  timestamp REAL NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  UNIQUE (session_id, seq)
);
CREATE INDEX IF NOT EXISTS messages_session ON messages(session_id, active, seq);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_fts USING fts4(
  content, tool_name, content="messages", tokenize=unicode61 "remove_diacritics=2", prefix="2,3"
);
CREATE TRIGGER IF NOT EXISTS messages_fts_bu BEFORE UPDATE ON messages BEGIN DELETE FROM messages_fts WHERE docid = old.id; END;
CREATE TRIGGER IF NOT EXISTS messages_fts_bd BEFORE DELETE ON messages BEGIN DELETE FROM messages_fts WHERE docid = old.id; END;
CREATE TRIGGER IF NOT EXISTS messages_fts_au AFTER UPDATE ON messages BEGIN INSERT INTO messages_fts(docid, content, tool_name) VALUES (new.id, new.content, new.tool_name); END;
CREATE TRIGGER IF NOT EXISTS messages_fts_ai AFTER INSERT ON messages BEGIN INSERT INTO messages_fts(docid, content, tool_name) VALUES (new.id, new.content, new.tool_name); END;
CREATE TABLE IF NOT EXISTS journal_applied (journal TEXT PRIMARY KEY, offset INTEGER NOT NULL);
`;

/** A database with the schema: empty, or from the bytes of a database file. */
export async function openDatabase(bytes?: Uint8Array): Promise<Database> {
  const SQL = await loadSqlJs();
  const db = bytes ? new SQL.Database(bytes) : new SQL.Database();
  db.exec(SCHEMA_SQL);
  db.exec(`INSERT OR IGNORE INTO state_meta(key, value) VALUES ('schema_version', '${SCHEMA_VERSION}')`);
  return db;
}
