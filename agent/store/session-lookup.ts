import type { Database, Statement } from "sql.js";
import { textOrNull as text } from "./sql-rows.js";

/** What search and its views need to know about one session row. */
export interface SessionRow {
  readonly id: string;
  readonly parent: string | null;
  readonly source: string;
  readonly title: string | null;
  readonly cwd: string;
  readonly model: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A parent chain longer than this is treated as broken (it ends the walk), never looped over. */
const MAX_LINEAGE_DEPTH = 64;

/** Session sources that never show in search or browse (upstream): delegation children and third-party tools. */
export const HIDDEN_SOURCES: ReadonlySet<string> = new Set(["subagent", "tool"]);

/**
 * Session rows and lineage roots, each looked up once per tool call. A lineage is a session and the chain of its
 * parent_session_id ancestors (forks, compression continuations, delegation children); its root is the first
 * session of the chain. Search results are one per lineage, and the caller's own lineage is left out.
 */
export class SessionLookup {
  private readonly rows = new Map<string, SessionRow | null>();
  private readonly roots = new Map<string, string>();
  private readonly statement: Statement;

  constructor(db: Database) {
    this.statement = db.prepare(
      "SELECT id, parent_session_id, source, title, cwd, model, created_at, updated_at FROM sessions WHERE id = ?",
    );
  }

  row(id: string): SessionRow | null {
    let row = this.rows.get(id);
    if (row !== undefined) return row;
    const v = this.statement.get([id]);
    this.statement.reset();
    row =
      v.length === 0
        ? null
        : {
            id: String(v[0]),
            parent: text(v[1]),
            source: String(v[2]),
            title: text(v[3]),
            cwd: String(v[4]),
            model: text(v[5]),
            createdAt: Number(v[6]),
            updatedAt: Number(v[7]),
          };
    this.rows.set(id, row);
    return row;
  }

  /** The root of `id`'s lineage; a cycle or a dangling parent ends the walk at the last session found. */
  root(id: string): string {
    const known = this.roots.get(id);
    if (known !== undefined) return known;
    let current = id;
    const seen = new Set<string>([id]);
    for (let depth = 0; depth < MAX_LINEAGE_DEPTH; depth++) {
      const parent = this.row(current)?.parent;
      if (!parent || seen.has(parent) || this.row(parent) === null) break;
      seen.add(parent);
      current = parent;
    }
    this.roots.set(id, current);
    return current;
  }

  free(): void {
    this.statement.free();
  }
}

/** Runs `use` with a lookup and frees its prepared statement afterwards, whatever happens. */
export function withSessionLookup<T>(db: Database, use: (sessions: SessionLookup) => T): T {
  const sessions = new SessionLookup(db);
  try {
    return use(sessions);
  } finally {
    sessions.free();
  }
}
