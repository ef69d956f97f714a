/**
 * Reading a project's checkpoints: the listing `/rollback` shows (newest first, numbered from 1 as upstream's
 * format_checkpoint_list numbers them) and resolving what a user or client names back to a commit.
 */
import { CheckpointError, type GitContext, runGit } from "./git.js";
import { commitHashError } from "./layout.js";

export interface CheckpointEntry {
  /** 1 = newest, as upstream's `/rollback N`. */
  number: number;
  /** Full commit id. Changes when pruning rewrites history; `resolve` maps a superseded id to its successor. */
  id: string;
  shortId: string;
  /** ISO 8601 with offset (git's %aI), what upstream stores as `timestamp`. */
  time: string;
  /** The commit subject: upstream's `reason` ("before write_file", "pre-rollback snapshot (…)"). */
  reason: string;
  /** From the Hermes-Turn trailer this port writes; absent on upstream's snapshots. */
  turn?: number;
  /** From the Hermes-Session trailer. */
  sessionId?: string;
  /** Changed since the previous checkpoint (0 for the oldest, as upstream). */
  filesChanged: number;
  insertions: number;
  deletions: number;
}

export const TURN_TRAILER = "Hermes-Turn";
export const SESSION_TRAILER = "Hermes-Session";

const FIELDS = [
  "%H",
  "%h",
  "%aI",
  "%P",
  "%s",
  `%(trailers:key=${TURN_TRAILER},valueonly,separator=%x2C)`,
  `%(trailers:key=${SESSION_TRAILER},valueonly,separator=%x2C)`,
];

function statNumber(stat: string, word: string): number {
  const match = new RegExp(`(\\d+) ${word}`).exec(stat);
  return match ? Number(match[1]) : 0;
}

/** Newest first, at most `limit` (upstream lists `-n max_snapshots`); one git process for entries and stats. */
export async function listEntries(ctx: GitContext, ref: string, limit: number): Promise<CheckpointEntry[]> {
  const format = `%x1e${FIELDS.join("%x00")}%x00`;
  // No root diff: upstream shows no stat for the oldest snapshot, and a root stat reads every blob it holds.
  const args = ["-c", "log.showRoot=false", "log", ref, `--format=${format}`, "--shortstat", "-n", String(limit), "--"];
  const result = await runGit(ctx, args, {
    allow: [128, 129],
  });
  if (result.code !== 0) return [];
  const entries: CheckpointEntry[] = [];
  for (const chunk of result.stdout.toString("utf8").split("\x1e")) {
    const fields = chunk.split("\0");
    if (fields.length < FIELDS.length + 1) continue;
    const [id, shortId, time, parents, reason, turn, session] = fields as [string, ...string[]];
    const stat = fields.slice(FIELDS.length).join("");
    // Upstream diffs `<id>~1 <id>`, which fails for the oldest snapshot and so reports no stat for it.
    const isRoot = (parents ?? "").trim() === "";
    const turnNumber = Number.parseInt((turn ?? "").trim(), 10);
    entries.push({
      number: entries.length + 1,
      id,
      shortId: shortId ?? id.slice(0, 7),
      time: time ?? "",
      reason: reason ?? "",
      ...(Number.isFinite(turnNumber) ? { turn: turnNumber } : {}),
      ...((session ?? "").trim() ? { sessionId: (session as string).trim() } : {}),
      filesChanged: isRoot ? 0 : statNumber(stat, "files? changed"),
      insertions: isRoot ? 0 : statNumber(stat, "insertions?"),
      deletions: isRoot ? 0 : statNumber(stat, "deletions?"),
    });
  }
  return entries;
}

/** The ref's tip commit and tree, or undefined before the first snapshot. */
export async function refTip(ctx: GitContext, ref: string): Promise<{ commit: string; tree: string } | undefined> {
  const result = await runGit(ctx, ["rev-parse", `${ref}^{commit}`, `${ref}^{tree}`, "--"], {
    allow: [1, 128],
  });
  if (result.code !== 0) return undefined;
  const [commit, tree] = result.stdout.toString("utf8").trim().split("\n");
  return commit && tree ? { commit, tree } : undefined;
}

/**
 * The commit a checkpoint id names, in this project's history. A prefix works (4+ hex digits). An id superseded by
 * pruning (same tree, author date and subject, new parent) resolves to its successor while git still has the old
 * object; a commit of another project, or one pruned away, is refused.
 */
export async function resolveCheckpoint(ctx: GitContext, ref: string, id: string): Promise<string> {
  const invalid = commitHashError(id);
  if (invalid) throw new CheckpointError(invalid);
  const wanted = id.toLowerCase();
  const history = await runGit(ctx, ["log", ref, "--format=%H%x00%T%x00%aI%x00%s", "--"], { allow: [128, 129] });
  if (history.code !== 0) throw new CheckpointError("No checkpoints exist for this directory");
  const rows = history.stdout
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\0"));
  const direct = rows.filter((row) => (row[0] as string).startsWith(wanted));
  if (direct.length === 1) return direct[0]?.[0] as string;
  if (direct.length > 1) throw new CheckpointError(`Checkpoint '${id}' is ambiguous; give more digits`);
  const old = await runGit(ctx, ["log", "-1", "--format=%T%x00%aI%x00%s", `${wanted}^{commit}`, "--"], {
    allow: [128, 129],
  });
  if (old.code === 0) {
    const key = old.stdout.toString("utf8").trim();
    const successor = rows.find((row) => row.slice(1).join("\0") === key);
    if (successor) return successor[0] as string;
  }
  throw new CheckpointError(`Checkpoint '${id}' not found`);
}

/** Full-message trailers for a new snapshot: what the turn loop needs to find "the checkpoint of turn N" again. */
export function commitMessage(reason: string, turn?: number, sessionId?: string): string {
  const subject = reason.replace(/\s+/g, " ").trim() || "auto";
  const trailers: string[] = [];
  if (turn !== undefined && Number.isInteger(turn)) trailers.push(`${TURN_TRAILER}: ${turn}`);
  if (sessionId?.trim()) trailers.push(`${SESSION_TRAILER}: ${sessionId.replace(/\s+/g, " ").trim()}`);
  return trailers.length > 0 ? `${subject}\n\n${trailers.join("\n")}` : subject;
}

/** Text of `path` in checkpoint `id` (for previews and multi-file diffs), or undefined when it did not exist there. */
export async function fileAt(ctx: GitContext, commit: string, gitPath: string): Promise<Buffer | undefined> {
  const result = await runGit(ctx, ["cat-file", "blob", `${commit}:${gitPath}`], { allow: [128] });
  return result.code === 0 ? result.stdout : undefined;
}
