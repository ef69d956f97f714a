import { randomUUID } from "node:crypto";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import {
  type CheckpointEntry,
  CheckpointError,
  type CheckpointStore,
  type FileChange,
  GitMissingError,
} from "../../agent/index.js";
import type { AcpSession } from "../session/acp-session.js";

/** What a slash command may do besides answering: show a card (the restore question hangs on it), be cancelled. */
export interface SlashCommandIo {
  readonly send: (update: SessionUpdate) => void;
  readonly signal: AbortSignal;
}

/** A unified diff longer than this is cut in /rollback diff (the stat above it still counts every file). */
const MAX_PATCH_CHARS = 20_000;

const USAGE =
  "`/rollback` lists checkpoints, `/rollback diff N` shows what restoring checkpoint N would change, `/rollback N` restores the workspace to checkpoint N, `/rollback N <file>` restores one file.";

/**
 * `/rollback`, upstream's command over this session's checkpoints, answered here without the model. Restoring asks
 * the user first with the list of files it changes; a client that says no (or cannot ask) restores nothing.
 */
export async function rollbackCommand(session: AcpSession, args: string, io: SlashCommandIo): Promise<string> {
  const checkpoint = session.checkpoint;
  if (!checkpoint) return "Checkpoints are not available until Hermes is configured.";
  const store = await checkpoint.checkpoints();
  const words = args.split(/\s+/).filter(Boolean);
  try {
    if (words.length === 0) return await listing(store, checkpoint.enabled);
    if (words[0] === "diff") {
      if (words.length !== 2) return `Usage: /rollback diff N\n${USAGE}`;
      return await diffReport(store, target(words[1]!));
    }
    const file = words.slice(1).join(" ") || undefined;
    return await restore(session, store, target(words[0]!), file, io);
  } catch (error) {
    if (error instanceof GitMissingError) return "Checkpoints need git, and git is not installed.";
    if (error instanceof CheckpointError) return `${error.message}.\n${USAGE}`;
    throw error;
  }
}

/** The checkpoint a prompt response names (`_meta.hermes.checkpoint`): the workspace as it was before the turn. */
export async function turnCheckpointMeta(session: AcpSession): Promise<{ id: string; number?: number } | undefined> {
  const id = session.checkpoint?.turnCheckpointId;
  if (!id) return undefined;
  try {
    const entry = (await (await session.checkpoint!.checkpoints()).list()).find((e) => e.id === id);
    return entry ? { id, number: entry.number } : { id };
  } catch {
    return { id };
  }
}

/**
 * After `/undo` took turns `firstTurn`… out of the conversation: offers to restore the workspace to before the
 * first of them that changed files (the same question as `/rollback N`). Undefined when those turns changed nothing
 * (or took no checkpoint).
 */
export async function offerRestoreOfTurns(
  session: AcpSession,
  firstTurn: number,
  io: SlashCommandIo,
): Promise<string | undefined> {
  const checkpoint = session.checkpoint;
  if (!checkpoint) return undefined;
  try {
    const store = await checkpoint.checkpoints();
    const entry = firstCheckpointOfTurns(await store.list(), session.id, firstTurn);
    return entry ? await restore(session, store, entry.id, undefined, io) : undefined;
  } catch (error) {
    if (error instanceof GitMissingError || error instanceof CheckpointError) return undefined;
    throw error;
  }
}

/**
 * The snapshot taken before the first change of this session's turns from `firstTurn` on. Entries are newest
 * first; this session's turn numbers fall strictly as they get older, unless turns were undone before and their
 * numbers reused: the walk stops there, so an older run of the same numbers is never taken for this one.
 */
export function firstCheckpointOfTurns(
  entries: readonly CheckpointEntry[],
  sessionId: string,
  firstTurn: number,
): CheckpointEntry | undefined {
  let found: CheckpointEntry | undefined;
  for (const entry of entries) {
    if (entry.sessionId !== sessionId || entry.turn === undefined) continue;
    if (entry.turn < firstTurn || (found?.turn !== undefined && entry.turn >= found.turn)) break;
    found = entry;
  }
  return found;
}

/** A `/rollback` number, or a commit id (prefix) as upstream also accepts. */
function target(word: string): string | number {
  return /^\d+$/.test(word) ? Number(word) : word;
}

async function listing(store: CheckpointStore, enabled: boolean): Promise<string> {
  const entries = await store.list();
  const off = enabled
    ? ""
    : "\nCheckpoints are off (`checkpoints.enabled: false` in config.yaml): no new ones are taken.";
  if (entries.length === 0) return `No checkpoints yet for ${store.workingDir}.${off}`;
  // Git's stat of a checkpoint counts what changed before it; the user asks what changed after it (what restoring
  // undoes): the next newer checkpoint's stat, and for the newest the workspace now (one more git diff).
  const newest = await store.diff(entries[0]!.id).then(
    (d) => plural(d.changes.length, "file"),
    () => "? files",
  );
  const lines = entries.map((e) => {
    const newer = entries.find((n) => n.number === e.number - 1);
    return describeEntry(e, newer ? plural(newer.filesChanged, "file") : newest);
  });
  return (
    [
      `Checkpoints of ${store.workingDir}, newest first (each is the workspace before its turn's changes; files changed since then):`,
      ...lines,
      "",
      USAGE,
    ].join("\n") + off
  );
}

function describeEntry(e: CheckpointEntry, changedSince: string): string {
  const time = e.time.replace("T", " ").slice(0, 16);
  const turn = e.turn === undefined ? "" : ` turn ${e.turn}`;
  return `  ${String(e.number).padStart(2)}  ${e.shortId}${turn}  ${time}  ${e.reason}  (${changedSince} changed since)`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

async function diffReport(store: CheckpointStore, which: string | number): Promise<string> {
  const diff = await store.diff(which);
  if (diff.changes.length === 0) return `The workspace matches checkpoint ${which}: restoring it would change nothing.`;
  const patch =
    diff.patch.length > MAX_PATCH_CHARS ? `${diff.patch.slice(0, MAX_PATCH_CHARS)}\n… (diff cut here)` : diff.patch;
  return [
    `Restoring checkpoint ${which} would change:`,
    ...diff.changes.map((c) => `- ${c.path} (${effectOf(c)})`),
    "",
    "Changes since the checkpoint:",
    "```diff",
    patch.trimEnd(),
    "```",
  ].join("\n");
}

async function restore(
  session: AcpSession,
  store: CheckpointStore,
  which: string | number,
  file: string | undefined,
  io: SlashCommandIo,
): Promise<string> {
  const diff = await store.diff(which);
  const wanted = file === undefined ? undefined : gitPathOf(store.workingDir, file);
  if (wanted?.startsWith("../") || wanted === "..")
    return `${file} is outside ${store.workingDir}: nothing to restore.`;
  const changes = wanted === undefined ? diff.changes : diff.changes.filter((c) => c.path === wanted);
  if (changes.length === 0)
    return file === undefined
      ? `The workspace already matches checkpoint ${which}: nothing to restore.`
      : `${file} is the same as in checkpoint ${which}: nothing to restore.`;
  const approver = session.restoreApprover;
  if (!approver) return "This client cannot be asked before files are restored, so nothing was restored.";
  const toolCallId = `rollback-${randomUUID()}`;
  const title = `Restore ${file ?? "the workspace"} to checkpoint ${which}`;
  const files = changes.map((c) => ({ path: resolve(store.workingDir, c.path), effect: effectOf(c) }));
  const locations = files.map((f) => ({ path: f.path }));
  io.send({ sessionUpdate: "tool_call", toolCallId, title, kind: "edit", status: "pending", locations });
  const allowed = await approver.approveRestore({ toolCallId, title, files }, io.signal);
  if (!allowed) {
    io.send({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
    return "Rollback cancelled: nothing was restored.";
  }
  // The id the question was about, not the number: a snapshot taken since would have renumbered them.
  const result = await store.restore(diff.id, wanted === undefined ? {} : { paths: [wanted] });
  io.send({ sessionUpdate: "tool_call_update", toolCallId, status: "completed" });
  const undo = result.preRollbackId
    ? "\nThe files as they were just before this restore are checkpoint 1 now: `/rollback 1` undoes the restore."
    : "";
  return (
    [
      `Restored ${result.files.length} file${result.files.length === 1 ? "" : "s"} to checkpoint ${which} (${result.reason}):`,
      ...result.changes.map((c) => `- ${c.path} (${effectOf(c)})`),
    ].join("\n") + undo
  );
}

/** What restoring does to a file changed since the checkpoint. */
function effectOf(change: FileChange): string {
  return change.change === "added"
    ? "created since: removed"
    : change.change === "deleted"
      ? "deleted since: brought back"
      : "edits undone";
}

/** A file the user names, relative to the workspace with forward slashes, as the store's changes name files. */
function gitPathOf(root: string, file: string): string {
  const absolute = isAbsolute(file) ? file : resolve(root, file);
  return relative(root, absolute).split(sep).join("/");
}
