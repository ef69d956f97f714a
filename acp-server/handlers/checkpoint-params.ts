import { isAbsolute } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";

/**
 * The wire side of two ACP extension methods over a session's checkpoints, so a client can offer "restore the files to before this
 * turn" with its own UI (a diff of every file, its own confirmation) instead of the `/rollback` text command. The
 * checkpoint id is the one the prompt response carried in `_meta.hermes.checkpoint.id`. Parsing lives apart from
 * the handlers (checkpoint-methods.ts) so the server registers the methods without loading the engine.
 */
export const CHECKPOINT_PREVIEW_METHOD = "_hermes/checkpoint/preview";
export const CHECKPOINT_RESTORE_METHOD = "_hermes/checkpoint/restore";

/** What happened to a file since the checkpoint (the engine's FileChange kinds, as they cross the wire). */
export type ChangeKind = "added" | "deleted" | "modified";

/** A file's text at the checkpoint above this size is not sent: the diff would be unreadable, the message huge. */
export const MAX_BEFORE_BYTES = 2 * 1024 * 1024;

export interface PreviewParams {
  readonly sessionId: string;
  readonly checkpoint: string;
}

export interface RestoreParams extends PreviewParams {
  /** Absolute paths inside the session's working directory; all changed files when absent. */
  readonly paths?: readonly string[];
}

export interface PreviewFile {
  /** Absolute, under the session's working directory. */
  readonly path: string;
  /** What happened since the checkpoint: restoring removes an added file, brings a deleted one back, reverts edits. */
  readonly change: ChangeKind;
  /** The file's text at the checkpoint; null when it did not exist there, is not text, or is too large. */
  readonly before: string | null;
  readonly tooLarge?: true;
  readonly binary?: true;
}

export interface PreviewResult {
  /** The checkpoint's full id. */
  readonly checkpoint: string;
  readonly files: readonly PreviewFile[];
}

export interface RestoreResult {
  readonly restored: ReadonlyArray<{ readonly path: string; readonly change: ChangeKind }>;
  /** The snapshot taken just before restoring (a checkpoint like any other): restoring it undoes this restore. */
  readonly undoCheckpoint?: string;
}

/** `_hermes/checkpoint/preview` params, or invalidParams naming what is wrong. */
export function parsePreviewParams(raw: unknown): PreviewParams {
  const params = objectOf(raw);
  return { sessionId: stringField(params, "sessionId"), checkpoint: checkpointField(params) };
}

/** `_hermes/checkpoint/restore` params, or invalidParams naming what is wrong. */
export function parseRestoreParams(raw: unknown): RestoreParams {
  const base = parsePreviewParams(raw);
  const { paths } = objectOf(raw);
  if (paths === undefined || paths === null) return base;
  if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === "string" && isAbsolute(p)))
    throw RequestError.invalidParams({ paths }, "paths must be a non-empty array of absolute file paths");
  return { ...base, paths: paths as string[] };
}

function objectOf(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw RequestError.invalidParams(undefined, "params must be an object");
  return raw as Record<string, unknown>;
}

function stringField(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  if (typeof value !== "string" || value === "")
    throw RequestError.invalidParams({ [name]: value ?? null }, `${name} must be a non-empty string`);
  return value;
}

/** A checkpoint id (or a prefix of one) as `_meta.hermes.checkpoint.id` gives it: hexadecimal, 4 to 64 digits. */
function checkpointField(params: Record<string, unknown>): string {
  const value = stringField(params, "checkpoint");
  if (!/^[0-9a-f]{4,64}$/i.test(value))
    throw RequestError.invalidParams({ checkpoint: value }, "checkpoint must be a checkpoint id (hexadecimal)");
  return value;
}
