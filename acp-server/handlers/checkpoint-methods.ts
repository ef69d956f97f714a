import { isAbsolute, join, relative, sep } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import { CheckpointError, type CheckpointStore, GitMissingError } from "../../agent/index.js";
import type { ServerContext } from "../rpc/server-context.js";
import type { AcpSession } from "../session/acp-session.js";
import {
  MAX_BEFORE_BYTES,
  type PreviewFile,
  type PreviewParams,
  type PreviewResult,
  type RestoreParams,
  type RestoreResult,
} from "./checkpoint-params.js";

/** What restoring the checkpoint would change, file by file, with each file's text at the checkpoint. */
export async function handleCheckpointPreview(ctx: ServerContext, params: PreviewParams): Promise<PreviewResult> {
  const session = sessionOf(ctx, params.sessionId);
  return withCheckpointErrors(params.checkpoint, async () => {
    const store = await storeOf(session);
    const diff = await store.diff(params.checkpoint);
    const files: PreviewFile[] = [];
    for (const change of diff.changes) {
      const path = join(session.cwd, ...change.path.split("/"));
      if (change.change === "added") {
        files.push({ path, change: change.change, before: null });
        continue;
      }
      files.push({ path, change: change.change, ...textOf(await store.fileAt(diff.id, change.path)) });
    }
    return { checkpoint: diff.id, files };
  });
}

/**
 * Restores the checkpoint (all its changed files, or `paths`). This method does not ask the user: the client
 * calls it after showing its own preview and getting consent (the VS Code extension's diff and modal), which is
 * why it is an extension method and not `/rollback`, which asks through session/request_permission.
 *
 * Refused while a turn runs rather than queued behind it: the user consented to the preview they saw, and the
 * running turn is changing those very files, so a restore that ran later would undo something they never saw.
 * While it runs it holds the session's place in the prompt queue, so no turn starts in the middle of a restore.
 */
export async function handleCheckpointRestore(ctx: ServerContext, params: RestoreParams): Promise<RestoreResult> {
  const session = sessionOf(ctx, params.sessionId);
  const paths = params.paths?.map((path) => insideCwd(session.cwd, path));
  if (session.prompts.busy)
    throw RequestError.invalidRequest(
      { sessionId: session.id },
      "a turn is running in this session: restore files once it has finished (or cancel it)",
    );
  const slot = session.prompts.join();
  try {
    await slot.turn;
    return await withCheckpointErrors(params.checkpoint, async () => {
      const store = await storeOf(session);
      const result = await store.restore(params.checkpoint, paths ? { paths } : {});
      return {
        restored: result.changes.map((c) => ({ path: join(session.cwd, ...c.path.split("/")), change: c.change })),
        ...(result.preRollbackId ? { undoCheckpoint: result.preRollbackId } : {}),
      };
    });
  } finally {
    slot.leave();
  }
}

function sessionOf(ctx: ServerContext, sessionId: string): AcpSession {
  const session = ctx.sessions.get(sessionId);
  if (!session) throw RequestError.sessionNotFound(sessionId);
  return session;
}

async function storeOf(session: AcpSession): Promise<CheckpointStore> {
  if (!session.checkpoint)
    throw RequestError.invalidRequest(undefined, "checkpoints are not available until Hermes is configured");
  return session.checkpoint.checkpoints();
}

/** The store's errors as the client should read them: a checkpoint it cannot find is a bad parameter. */
async function withCheckpointErrors<T>(checkpoint: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GitMissingError) throw RequestError.internalError(undefined, error.message);
    if (error instanceof CheckpointError) throw RequestError.invalidParams({ checkpoint }, error.message);
    throw error;
  }
}

/** `path` relative to the working directory, or invalidParams when it is not inside it. */
function insideCwd(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw RequestError.invalidParams({ path }, `${path} is not a file inside the session's folder ${cwd}`);
  return rel;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function textOf(content: Buffer | undefined): Pick<PreviewFile, "before" | "tooLarge" | "binary"> {
  if (!content) return { before: null };
  if (content.length > MAX_BEFORE_BYTES) return { before: null, tooLarge: true };
  // A NUL byte or invalid UTF-8 is what git's own "binary" guess looks at; such a file has no text to diff.
  if (content.includes(0)) return { before: null, binary: true };
  try {
    return { before: decoder.decode(content) };
  } catch {
    return { before: null, binary: true };
  }
}
