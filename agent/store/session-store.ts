import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { fileStamp, loadDatabaseFile, saveDatabaseFile } from "./db-file.js";
import { JournalWriter, journalFiles, readJournal } from "./journal.js";
import { withFileLock } from "./memory-file-lock.js";
import { applyRecord, type SessionMeta, type StoredMessage, type StoreRecord } from "./store-records.js";

export interface SessionSummary {
  readonly id: string;
  readonly cwd: string;
  readonly title: string | null;
  readonly updatedAt: number;
  readonly messageCount: number;
  readonly state: unknown;
}

/**
 * Sessions that survive: the whole store lives in memory (sql.js), every change is appended to this process's
 * journal first, and the journals are compacted into `sessions.sqlite` (atomic export and rename, under a lock)
 * when the server is idle. A SIGKILL loses nothing that was flushed; two servers on one HERMES_HOME each write
 * their own journal and see each other's sessions by replaying the other journals.
 */
export class SessionStore {
  private writer: JournalWriter;
  private generation = 0;
  private readonly serverId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  private compacting: Promise<void> | undefined;
  /** Problems met while opening (a corrupt database file), for the user. */
  readonly problems: string[] = [];

  private constructor(
    private readonly dir: string,
    private db: Database,
    private stamp: string,
  ) {
    this.writer = new JournalWriter(this.journalFile());
  }

  static async open(home: string): Promise<SessionStore> {
    const dir = join(home, "sessions");
    mkdirSync(join(dir, "journal"), { recursive: true });
    const loaded = await loadDatabaseFile(join(dir, "sessions.sqlite"));
    const store = new SessionStore(dir, loaded.db, loaded.stamp);
    if (loaded.problem) store.problems.push(loaded.problem);
    await store.replayJournals(store.db);
    return store;
  }

  get database(): Database {
    return this.db;
  }

  createSession(meta: SessionMeta): void {
    this.record({ t: "session", session: meta });
  }

  appendMessages(sessionId: string, messages: readonly StoredMessage[]): void {
    if (messages.length > 0) this.record({ t: "messages", sessionId, messages, updatedAt: Date.now() / 1000 });
  }

  replaceMessages(sessionId: string, messages: readonly StoredMessage[]): void {
    this.record({ t: "replace", sessionId, messages, updatedAt: Date.now() / 1000 });
  }

  updateSession(sessionId: string, change: { title?: string; state?: unknown }): void {
    this.record({ t: "meta", sessionId, ...change, updatedAt: Date.now() / 1000 });
  }

  deleteSession(sessionId: string): void {
    this.record({ t: "delete", sessionId });
  }

  /** Resolves once every change so far is in the journal file. */
  flushed(): Promise<void> {
    return this.writer.flushed();
  }

  /** Picks up what other servers on this HERMES_HOME wrote since (their journals, or a compacted file). */
  async refresh(): Promise<void> {
    const path = join(this.dir, "sessions.sqlite");
    if (fileStamp(path) !== this.stamp) {
      await this.writer.flushed();
      const loaded = await loadDatabaseFile(path);
      if (loaded.problem) this.problems.push(loaded.problem);
      await this.replayJournals(loaded.db);
      this.db.close();
      this.db = loaded.db;
      this.stamp = loaded.stamp;
      return;
    }
    await this.replayJournals(this.db);
  }

  getSession(id: string): SessionSummary | undefined {
    return this.sessions("WHERE id = ?", [id])[0];
  }

  /** Sessions with history, most recent first; `cwd` filters by working directory. */
  listSessions(options: { cwd?: string; limit: number; before?: number }): SessionSummary[] {
    const where: string[] = ["message_count > 0"];
    const params: Array<string | number> = [];
    if (options.cwd) {
      where.push("cwd = ?");
      params.push(options.cwd);
    }
    if (options.before !== undefined) {
      where.push("updated_at < ?");
      params.push(options.before);
    }
    return this.sessions(
      `WHERE ${where.join(" AND ")} ORDER BY updated_at DESC LIMIT ${Math.max(1, Math.floor(options.limit))}`,
      params,
    );
  }

  /** The active history of a session, in order. */
  loadMessages(sessionId: string): StoredMessage[] {
    const result = this.db.exec(
      "SELECT seq, role, content, tool_calls, tool_call_id, tool_name, reasoning, timestamp FROM messages WHERE session_id = ? AND active = 1 ORDER BY seq",
      [sessionId],
    )[0];
    return (result?.values ?? []).map((row) => ({
      seq: Number(row[0]),
      role: row[1] as StoredMessage["role"],
      content: String(row[2] ?? ""),
      ...(row[3] ? { toolCalls: JSON.parse(String(row[3])) as StoredMessage["toolCalls"] } : {}),
      ...(row[4] ? { toolCallId: String(row[4]) } : {}),
      ...(row[5] ? { toolName: String(row[5]) } : {}),
      ...(row[6] ? { reasoning: String(row[6]) } : {}),
      timestamp: Number(row[7]),
    }));
  }

  /**
   * Folds every journal into `sessions.sqlite` under a lock shared by all servers on this HERMES_HOME: reload the
   * file (another server may have compacted), replay all journals past their recorded offsets, export, rename.
   * This process then continues in a fresh journal file and deletes the old one, whose records are now in the file.
   */
  compact(): Promise<void> {
    this.compacting ??= this.compactNow().finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async compactNow(): Promise<void> {
    const path = join(this.dir, "sessions.sqlite");
    const previous = this.writer;
    this.generation++;
    this.writer = new JournalWriter(this.journalFile());
    await previous.flushed();
    await withFileLock(path, async () => {
      const loaded = await loadDatabaseFile(path);
      if (loaded.problem) this.problems.push(loaded.problem);
      await this.replayJournals(loaded.db);
      saveDatabaseFile(loaded.db, path);
      this.db.close();
      this.db = loaded.db;
      this.stamp = fileStamp(path);
      rmSync(previous.file, { force: true });
      this.db.run("DELETE FROM journal_applied WHERE journal = ?", [fileName(previous.file)]);
      await this.removeFinishedJournals();
    });
  }

  /** Journals of servers that have exited, once every line is in the database file, are no longer needed. */
  private async removeFinishedJournals(): Promise<void> {
    const journalDir = join(this.dir, "journal");
    for (const name of await journalFiles(journalDir)) {
      const pid = Number(name.split("-")[0]);
      if (name.startsWith(this.serverId) || !Number.isInteger(pid) || isProcessAlive(pid)) continue;
      const offset = Number(
        this.db.exec("SELECT offset FROM journal_applied WHERE journal = ?", [name])[0]?.values[0]?.[0] ?? -1,
      );
      if (offset !== fileSize(join(journalDir, name))) continue;
      rmSync(join(journalDir, name), { force: true });
      this.db.run("DELETE FROM journal_applied WHERE journal = ?", [name]);
    }
  }

  private record(record: StoreRecord): void {
    applyRecord(this.db, record);
    const end = this.writer.append(record);
    // Our own lines are already applied: move our offset past them so a replay skips them.
    this.db.run(
      "INSERT INTO journal_applied(journal, offset) VALUES (?, ?) ON CONFLICT(journal) DO UPDATE SET offset = excluded.offset",
      [fileName(this.writer.file), end],
    );
  }

  private async replayJournals(db: Database): Promise<void> {
    const journalDir = join(this.dir, "journal");
    for (const name of await journalFiles(journalDir)) {
      const offset = Number(
        db.exec("SELECT offset FROM journal_applied WHERE journal = ?", [name])[0]?.values[0]?.[0] ?? 0,
      );
      const tail = await readJournal(join(journalDir, name), offset);
      if (tail.end === offset) continue;
      db.run("BEGIN");
      try {
        for (const record of tail.records) applyRecord(db, record);
        db.run(
          "INSERT INTO journal_applied(journal, offset) VALUES (?, ?) ON CONFLICT(journal) DO UPDATE SET offset = excluded.offset",
          [name, tail.end],
        );
        db.run("COMMIT");
      } catch (error) {
        db.run("ROLLBACK");
        throw error;
      }
    }
  }

  private sessions(clause: string, params: Array<string | number>): SessionSummary[] {
    const result = this.db.exec(
      `SELECT id, cwd, title, updated_at, message_count, state_json FROM sessions ${clause}`,
      params,
    )[0];
    return (result?.values ?? []).map((row) => ({
      id: String(row[0]),
      cwd: String(row[1]),
      title: row[2] === null ? null : String(row[2]),
      updatedAt: Number(row[3]),
      messageCount: Number(row[4]),
      state: row[5] ? (JSON.parse(String(row[5])) as unknown) : undefined,
    }));
  }

  private journalFile(): string {
    return join(this.dir, "journal", `${this.serverId}-${String(this.generation).padStart(4, "0")}.ndjson`);
  }
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

function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
