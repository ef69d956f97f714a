import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { loadDatabaseFile, saveDatabaseFile } from "./db-file.js";
import { journalFiles, readJournal } from "./journal.js";
import { withFileLock } from "./memory-file-lock.js";
import { applyRecord } from "./store-records.js";

/*
 * The journal-to-database steps of the session store (session-store.ts), shared by the store itself and by the
 * compaction worker (compaction-worker.ts), which folds the journals into sessions.sqlite in its own thread.
 */

/** How far into `journal` the database has applied, in bytes. */
export function appliedOffset(db: Database, journal: string, fallback: number): number {
  return Number(
    db.exec("SELECT offset FROM journal_applied WHERE journal = ?", [journal])[0]?.values[0]?.[0] ?? fallback,
  );
}

export function setAppliedOffset(db: Database, journal: string, offset: number): void {
  db.run(
    "INSERT INTO journal_applied(journal, offset) VALUES (?, ?) ON CONFLICT(journal) DO UPDATE SET offset = excluded.offset",
    [journal, offset],
  );
}

/** Applies every journal in `journalDir` past its recorded offset, each journal's tail in one transaction. */
export async function replayJournals(db: Database, journalDir: string): Promise<void> {
  for (const name of await journalFiles(journalDir)) {
    const offset = appliedOffset(db, name, 0);
    const tail = await readJournal(join(journalDir, name), offset);
    if (tail.end === offset) continue;
    db.run("BEGIN");
    try {
      for (const record of tail.records) applyRecord(db, record);
      setAppliedOffset(db, name, tail.end);
      db.run("COMMIT");
    } catch (error) {
      db.run("ROLLBACK");
      throw error;
    }
  }
}

/**
 * Journals of servers that have exited, once every line is in `db` (just saved), are no longer needed. Journals whose
 * name starts with `ownPrefix` (this server's) are kept.
 */
export async function removeFinishedJournals(db: Database, journalDir: string, ownPrefix: string): Promise<void> {
  for (const name of await journalFiles(journalDir)) {
    const pid = Number(name.split("-")[0]);
    if (name.startsWith(ownPrefix) || !Number.isInteger(pid) || isProcessAlive(pid)) continue;
    if (appliedOffset(db, name, -1) !== fileSize(join(journalDir, name))) continue;
    rmSync(join(journalDir, name), { force: true });
    db.run("DELETE FROM journal_applied WHERE journal = ?", [name]);
  }
}

/** How the session store takes part in a compaction it runs itself, with its database loaded (session-store.ts). */
export interface CompactionHooks {
  /** Brings the reloaded database up to date; replaying the journals by default. */
  readonly catchUp?: (db: Database) => Promise<void>;
  /** Takes the database over once it is saved (it is then not closed here). */
  readonly keep?: (db: Database) => void;
}

/**
 * Folds every journal into `<dir>/sessions.sqlite` under the lock all servers on this HERMES_HOME share: reload the
 * file (another server may have compacted), replay all journals past their recorded offsets (this server's current
 * one up to its last complete line; the rest is replayed from there next time), export, rename, then delete
 * `finishedJournal` (this server's previous journal, all of it now in the file) and the journals of servers that have
 * exited. Returns the problems met (a corrupt file, moved aside and salvaged).
 */
export function compactStoreFiles(
  dir: string,
  finishedJournal: string,
  ownPrefix: string,
  hooks: CompactionHooks = {},
): Promise<string[]> {
  const path = join(dir, "sessions.sqlite");
  const journalDir = join(dir, "journal");
  return withFileLock(path, async () => {
    const loaded = await loadDatabaseFile(path);
    let kept = false;
    try {
      await (hooks.catchUp ?? ((db: Database) => replayJournals(db, journalDir)))(loaded.db);
      saveDatabaseFile(loaded.db, path);
      rmSync(join(journalDir, finishedJournal), { force: true });
      loaded.db.run("DELETE FROM journal_applied WHERE journal = ?", [finishedJournal]);
      if (hooks.keep) {
        hooks.keep(loaded.db);
        kept = true;
      }
      await removeFinishedJournals(loaded.db, journalDir, ownPrefix);
      return loaded.problem ? [loaded.problem] : [];
    } finally {
      if (!kept) loaded.db.close();
    }
  });
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return -2;
  }
}
