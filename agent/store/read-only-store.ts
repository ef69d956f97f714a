import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { journalFiles, readJournal } from "./journal.js";
import { openDatabase } from "./schema.js";
import { applyRecord } from "./store-records.js";

/** Where a HERMES_HOME keeps its session store (see SessionStore). */
export function sessionStoreDir(home: string): string {
  return join(home, "sessions");
}

/** True when `home` has a session store: a database file or journals. */
export async function hasSessionStore(home: string): Promise<boolean> {
  const dir = sessionStoreDir(home);
  return existsSync(join(dir, "sessions.sqlite")) || (await journalFiles(join(dir, "journal"))).length > 0;
}

/**
 * Another HERMES_HOME's sessions (another profile's), read without touching its files: the database file is
 * copied into memory and every journal is replayed past its recorded offset, as that profile's own server would.
 * Nothing is written, renamed or locked, so a profile in use by a running server is safe to read. A damaged
 * database file is an error here (its owner moves it aside and salvages it when it next opens it).
 * The caller closes the returned database.
 */
export async function openSessionStoreReadOnly(home: string): Promise<Database> {
  const dir = sessionStoreDir(home);
  const file = join(dir, "sessions.sqlite");
  let bytes: Uint8Array | undefined;
  try {
    bytes = readFileSync(file);
  } catch {
    bytes = undefined;
  }
  let db: Database;
  try {
    db = await openDatabase(bytes);
  } catch (error) {
    throw new Error(
      `the session database ${file} could not be read (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  try {
    const journalDir = join(dir, "journal");
    for (const name of await journalFiles(journalDir)) {
      const offset = Number(
        db.exec("SELECT offset FROM journal_applied WHERE journal = ?", [name])[0]?.values[0]?.[0] ?? 0,
      );
      const tail = await readJournal(join(journalDir, name), offset);
      for (const record of tail.records) applyRecord(db, record);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
