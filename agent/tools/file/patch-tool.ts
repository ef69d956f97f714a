import * as z from "zod/v4";
import { readBlockedError, writeDeniedError } from "../../security/file-safety.js";
import { displayPath, type FileToolOptions, resolveToolPath } from "../../workspace/resolve-path.js";
import type { Workspace } from "../../workspace/workspace.js";
import { defineTool } from "../define-tool.js";
import { pathLocations, shownPath, str } from "../describe-call.js";
import { approveEdits } from "../safety/edit-approval.js";
import { pathScope } from "../safety/path-scope.js";
import { type FileEdit, type ToolContext, type ToolResult, toolError } from "../tool.js";
import { specialFileError } from "./file-kind.js";
import { fuzzyReplace } from "./fuzzy-replace.js";
import { notFoundMessage } from "./read-file.js";
import { parseV4aPatch, planV4aPatch, type V4aOperation } from "./v4a-patch.js";

const MAX_DIFF_CHARS = 4000;

export function createPatchTool(options: FileToolOptions) {
  return defineTool({
    name: "patch",
    toolsets: ["file"],
    kind: "edit",
    pathArguments: { paths: ["path"] },
    description:
      'Edit files. mode="replace" (default): replace old_string with new_string in one file; old_string must match ' +
      "exactly one place (small whitespace or indentation differences are tolerated) unless replace_all is true. " +
      'Include enough surrounding lines to make it unique. mode="patch": apply a V4A multi-file patch ' +
      "(*** Begin Patch / *** Update File: p / @@ / ' ', '-', '+' lines / *** Add File: / *** Delete File: / " +
      "*** Move to: / *** End Patch); nothing is written unless every hunk applies. Read the file first.",
    parameters: () =>
      z.object({
        mode: z.enum(["replace", "patch"]).optional().describe("replace (default) or patch."),
        path: z
          .string()
          .optional()
          .describe("replace mode: the file to edit (absolute, ~/..., or relative to the project root)."),
        old_string: z
          .string()
          .optional()
          .describe("replace mode: the exact text to replace, copied from the file without line numbers."),
        new_string: z.string().optional().describe("replace mode: the replacement text (empty to delete old_string)."),
        replace_all: z
          .boolean()
          .optional()
          .describe("replace mode: replace every occurrence instead of requiring one (default false)."),
        patch: z
          .string()
          .optional()
          .describe("patch mode: the whole V4A patch text, from *** Begin Patch to *** End Patch."),
      }),
    describe: (args, cwd) => ({
      title: str(args?.mode) === "patch" ? "Apply patch" : `Edit ${shownPath(args, cwd)}`,
      locations: pathLocations(args, cwd),
    }),
    run: (args, ctx) => (args.mode === "patch" ? patchMode(args, ctx, options) : replaceMode(args, ctx, options)),
  });
}

async function replaceMode(
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<ToolResult> {
  if (args.mode !== undefined && args.mode !== "replace")
    return toolError(`Unknown mode '${String(args.mode)}': use "replace" or "patch".`);
  if (typeof args.path !== "string" || args.path.trim() === "")
    return toolError("replace mode needs path, old_string and new_string.");
  if (typeof args.old_string !== "string" || typeof args.new_string !== "string")
    return toolError("replace mode needs old_string and new_string.");
  const root = ctx.workspace.root;
  const path = resolveToolPath(args.path, root, options.userHome);
  const shown = displayPath(path, root);
  const denied = writeDeniedError(path, { home: options.userHome, hermesHome: ctx.home, env: options.env });
  if (denied) return toolError(denied);
  const stat = await ctx.workspace.stat(path);
  if (!stat) return toolError(await notFoundMessage(ctx.workspace, path, root));
  if (stat.isDirectory) return toolError(`${shown} is a directory, not a file.`);
  const special = specialFileError(stat, shown, "patch");
  if (special) return toolError(special);
  // Files the model may not read (.env...) can still be edited, but no error or summary quotes their lines; nor does
  // a failed match outside the workspace, whose reading would have asked first (the edit itself asks anyway).
  const secret = readBlockedError(path, { hermesHome: ctx.home, home: options.userHome }) !== undefined;
  const quotable = !secret && pathScope(path, root).inWorkspace;
  try {
    const oldText = await ctx.workspace.readTextFile(path);
    const outcome = fuzzyReplace(oldText, args.old_string, args.new_string, {
      replaceAll: args.replace_all === true,
      label: shown,
      showCandidate: quotable,
    });
    if (!outcome.ok) return toolError(outcome.error);
    const proposed: FileEdit = { path, oldText, newText: outcome.text };
    const refusal = await approveEdits(ctx, [proposed]);
    if (refusal) return toolError(refusal);
    await ctx.state.checkpoint?.beforeChange("before patch");
    const kept = (await ctx.workspace.writeTextFile(path, outcome.text))?.keptText;
    const edit: FileEdit = kept === undefined ? proposed : { path, oldText, newText: kept };
    if (kept !== undefined) {
      return {
        content: `The user kept only part of this change to ${shown}. Read the file before editing it again.`,
        edits: [edit],
        locations: [{ path }],
      };
    }
    const how = outcome.strategy === "exact" ? "" : ` (matched ignoring whitespace: ${outcome.strategy})`;
    const count = `${outcome.count} replacement${outcome.count === 1 ? "" : "s"}`;
    const summary = await diffSummary([edit], root, !secret);
    return {
      content: `Patched ${shown}: ${count}${how} ${summary.counts}${summary.diff}`,
      edits: [edit],
      locations: outcome.lines.map((line) => ({ path, line })),
    };
  } catch (error) {
    return toolError((error as Error).message);
  }
}

async function patchMode(
  args: Readonly<Record<string, unknown>>,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<ToolResult> {
  if (typeof args.patch !== "string" || args.patch.trim() === "")
    return toolError("patch mode needs the patch text in `patch`.");
  const parsed = parseV4aPatch(args.patch);
  if (!parsed.ok) return toolError(`Invalid patch: ${parsed.error}`);
  const root = ctx.workspace.root;
  const resolve = (p: string) => resolveToolPath(p, root, options.userHome);
  for (const [path, verb] of touchedPaths(parsed.value)) {
    const denied = writeDeniedError(resolve(path), {
      home: options.userHome,
      hermesHome: ctx.home,
      verb,
      env: options.env,
    });
    if (denied) return toolError(`${denied}\nNo files were changed.`);
  }
  let edits: FileEdit[];
  try {
    const plan = await planV4aPatch(parsed.value, { resolve, read: (p) => readIfPresent(ctx.workspace, p) });
    if (!plan.ok) return toolError(`Patch not applied (no files were changed): ${plan.error}`);
    edits = plan.value;
  } catch (error) {
    return toolError(`Patch not applied (no files were changed): ${(error as Error).message}`);
  }
  const refusal = await approveEdits(ctx, edits);
  if (refusal) return toolError(refusal);
  await ctx.state.checkpoint?.beforeChange("before patch");
  const done: string[] = [];
  // Writes before deletes, so a move never loses the file if the write fails.
  for (const edit of [...edits].sort((a, b) => Number(a.newText === null) - Number(b.newText === null))) {
    try {
      if (edit.newText === null) await ctx.workspace.deleteFile(edit.path);
      else await ctx.workspace.writeTextFile(edit.path, edit.newText);
      done.push(displayPath(edit.path, root));
    } catch (error) {
      const partly = done.length ? ` Already changed: ${done.join(", ")}.` : " No files were changed.";
      return {
        ...toolError(
          `Patch failed while writing ${displayPath(edit.path, root)}: ${(error as Error).message}.${partly}`,
        ),
        edits: edits.filter((e) => done.includes(displayPath(e.path, root))),
      };
    }
  }
  const secret = edits.some(
    (e) => readBlockedError(e.path, { hermesHome: ctx.home, home: options.userHome }) !== undefined,
  );
  const summary = await diffSummary(edits, root, !secret);
  const files = edits
    .map((e) => `  ${e.oldText === null ? "A" : e.newText === null ? "D" : "M"} ${displayPath(e.path, root)}`)
    .join("\n");
  return {
    content: `Applied patch to ${edits.length} file${edits.length === 1 ? "" : "s"} ${summary.counts}:\n${files}${summary.diff}`,
    edits,
    locations: edits.filter((e) => e.newText !== null).map((e) => ({ path: e.path })),
  };
}

/** Every path the patch writes or removes, with the verb for a refusal message. */
function touchedPaths(operations: readonly V4aOperation[]): Array<[string, string]> {
  return operations.flatMap((op): Array<[string, string]> => {
    if (op.kind === "delete") return [[op.path, "Delete"]];
    if (op.kind === "update" && op.moveTo)
      return [
        [op.path, "Delete"],
        [op.moveTo, "Write"],
      ];
    return [[op.path, "Write"]];
  });
}

async function readIfPresent(workspace: Workspace, path: string): Promise<string | undefined> {
  const stat = await workspace.stat(path);
  if (!stat) return undefined;
  if (stat.isDirectory) throw new Error(`${path} is a directory, not a file`);
  const special = specialFileError(stat, path, "patch");
  if (special) throw new Error(special);
  return workspace.readTextFile(path);
}

/** "(+a -b)" over all edits, and (when allowed) a unified diff of the changes, capped in size. */
async function diffSummary(
  edits: readonly FileEdit[],
  root: string,
  showDiff: boolean,
): Promise<{ counts: string; diff: string }> {
  // jsdiff loads with the first patch, not with the engine.
  const { structuredPatch } = await import("diff");
  let added = 0;
  let removed = 0;
  const chunks: string[] = [];
  for (const edit of edits) {
    const name = displayPath(edit.path, root);
    const patch = structuredPatch(name, name, edit.oldText ?? "", edit.newText ?? "", undefined, undefined, {
      context: 2,
    });
    const body: string[] = [];
    for (const hunk of patch.hunks) {
      body.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
      for (const line of hunk.lines) {
        if (line.startsWith("+")) added += 1;
        else if (line.startsWith("-")) removed += 1;
        body.push(line);
      }
    }
    chunks.push(
      `--- ${edit.oldText === null ? "/dev/null" : `a/${name}`}\n+++ ${edit.newText === null ? "/dev/null" : `b/${name}`}\n${body.join("\n")}`,
    );
  }
  const counts = `(+${added} -${removed})`;
  if (!showDiff) return { counts, diff: "" };
  let diff = chunks.join("\n");
  if (diff.length > MAX_DIFF_CHARS) diff = `${diff.slice(0, MAX_DIFF_CHARS)}\n[... diff truncated]`;
  return { counts, diff: `\n${diff}` };
}
