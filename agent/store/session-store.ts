import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { compactInWorker } from "./compaction-thread.js";
import { fileStamp, type LoadedDatabase, loadDatabaseFile } from "./db-file.js";
import { JournalWriter } from "./journal.js";
import { appliedOffset, compactStoreFiles, replayJournals, setAppliedOffset } from "./store-compaction.js";
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
 * Sessions that survive: every change is appended to this process's journal (the record of truth until compaction),
 * and the journals are compacted into `sessions.sqlite` (atomic export and rename, under a lock) when the server is
 * idle. The database (sql.js, the whole store in WebAssembly memory) is loaded only when something reads it (a
 * listing, a load, session_search) or compaction runs: a turn only appends a line, so it never waits for sql.js and a
 * long session does not hold its history twice. A SIGKILL loses nothing that was flushed; two servers on one
 * HERMES_HOME each write their own journal and see each other's sessions by replaying the other journals.
 */
export class SessionStore {
  private writer: JournalWriter;
  private generation = 0;
  private readonly serverId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  private compacting: Promise<void> | undefined;
  /** The loaded database, or none yet: records then live only in the journal until the next load. */
  private db: Database | undefined;
  /** mtime and size of the database file `db` was loaded from. */
  private stamp = "missing";
  /** Records appended while a database is being caught up (see catchUp). */
  private capturing: CapturedRecord[] | undefined;
  /** Loads, reloads and compactions one at a time: each swaps `db`. */
  private exclusive: Promise<unknown> = Promise.resolve();
  /** Problems met while loading (a corrupt database file), for the user. */
  readonly problems: string[] = [];

  private constructor(
    private readonly dir: string,
    private readonly onProblem: (problem: string) => void,
  ) {
    this.writer = new JournalWriter(this.journalFile());
  }

  /** Opens the store without loading its database (see the class comment): costs a mkdir. */
  static async open(home: string, onProblem: (problem: string) => void = () => undefined): Promise<SessionStore> {
    const dir = join(home, "sessions");
    mkdirSync(join(dir, "journal"), { recursive: true });
    return new SessionStore(dir, onProblem);
  }

  /** The database, once `refresh()` has loaded it. */
  get database(): Database {
    if (!this.db) throw new Error("the session database is not loaded: call refresh() first");
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

  /**
   * Loads the database when it is not yet, else picks up what other servers on this HERMES_HOME wrote since (their
   * journals, or a compacted file). Afterwards the reading methods below see every change.
   */
  refresh(): Promise<void> {
    return this.serially(async () => {
      const path = join(this.dir, "sessions.sqlite");
      if (this.db && fileStamp(path) === this.stamp) return this.catchUp(this.db);
      const loaded = await this.loadFile(path);
      await this.catchUp(loaded.db);
      this.db?.close();
      this.db = loaded.db;
      this.stamp = loaded.stamp;
    });
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
    const result = this.database.exec(
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
    const previous = this.writer;
    this.generation++;
    this.writer = new JournalWriter(this.journalFile());
    // Closed before compaction deletes its file: an open writer would go on writing into a file no one reads.
    previous.close();
    await previous.flushed();
    const request = { dir: this.dir, finishedJournal: fileName(previous.file), ownPrefix: this.serverId };
    await this.serially(async () => {
      // Nothing has loaded the database: the worker folds the files and its sql.js memory goes with it. Loaded (a
      // listing or a search needed it): compacted here and kept current, as the next read will want it.
      const problems = this.db
        ? await compactStoreFiles(request.dir, request.finishedJournal, request.ownPrefix, {
            catchUp: (db) => this.catchUp(db),
            keep: (db) => {
              this.db?.close();
              this.db = db;
              this.stamp = fileStamp(join(this.dir, "sessions.sqlite"));
            },
          })
        : await compactInWorker(request);
      for (const problem of problems) this.report(problem);
    });
  }

  private record(record: StoreRecord): void {
    const end = this.writer.append(record);
    this.capturing?.push({ journal: fileName(this.writer.file), end, record });
    if (!this.db) return;
    applyRecord(this.db, record);
    // Our own lines are already applied: move our offset past them so a replay skips them.
    setAppliedOffset(this.db, fileName(this.writer.file), end);
  }

  private async loadFile(path: string): Promise<LoadedDatabase> {
    const loaded = await loadDatabaseFile(path);
    if (loaded.problem) this.report(loaded.problem);
    return loaded;
  }

  private report(problem: string): void {
    this.problems.push(problem);
    this.onProblem(problem);
  }

  /**
   * Replays every journal into `db` past its recorded offsets, then the records this process appended while that
   * ran (captured in memory: a record may still be on its way to the file). The caller uses `db` without an await
   * after this, so no record falls in a gap; the offsets keep a record read from the file from being applied twice.
   */
  private async catchUp(db: Database): Promise<void> {
    const captured: CapturedRecord[] = [];
    this.capturing = captured;
    try {
      await this.writer.flushed();
      await replayJournals(db, join(this.dir, "journal"));
    } finally {
      this.capturing = undefined;
    }
    for (const { journal, end, record } of captured) {
      if (end <= appliedOffset(db, journal, 0)) continue;
      applyRecord(db, record);
      setAppliedOffset(db, journal, end);
    }
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.exclusive.then(work, work);
    this.exclusive = run.catch(() => undefined);
    return run;
  }

  private sessions(clause: string, params: Array<string | number>): SessionSummary[] {
    const result = this.database.exec(
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

interface CapturedRecord {
  readonly journal: string;
  readonly end: number;
  readonly record: StoreRecord;
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
