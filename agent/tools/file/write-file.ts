import * as z from "zod/v4";
import { writeDeniedError } from "../../security/file-safety.js";
import { displayPath, type FileToolOptions, resolveToolPath } from "../../workspace/resolve-path.js";
import { defineTool, type ToolArgs } from "../define-tool.js";
import { pathLocations, shownPath } from "../describe-call.js";
import { approveEdits } from "../safety/edit-approval.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";
import { specialFileError } from "./file-kind.js";
import { splitLines } from "./read-file.js";

const parameters = () =>
  z.object({
    path: z.string().describe("File to write: absolute, ~/..., or relative to the project root."),
    content: z.string().describe("The complete new content of the file."),
  });

export function createWriteFileTool(options: FileToolOptions) {
  return defineTool({
    name: "write_file",
    toolsets: ["file"],
    kind: "edit",
    pathArguments: { paths: ["path"] },
    description:
      "Create a file or replace its whole content; missing parent folders are created. Use it for new files or " +
      "complete rewrites. For changes to part of an existing file use patch instead: it is cheaper and safer.",
    parameters,
    describe: (args, cwd) => ({ title: `Write ${shownPath(args, cwd)}`, locations: pathLocations(args, cwd) }),
    run: (args, ctx) => writeFile(args, ctx, options),
  });
}

async function writeFile(
  args: ToolArgs<ReturnType<typeof parameters>>,
  ctx: ToolContext,
  options: FileToolOptions,
): Promise<ToolResult> {
  const root = ctx.workspace.root;
  const path = resolveToolPath(args.path, root, options.userHome);
  const content = args.content;
  const shown = displayPath(path, root);
  const denied = writeDeniedError(path, { home: options.userHome, hermesHome: ctx.home, env: options.env });
  if (denied) return toolError(denied);
  const stat = await ctx.workspace.stat(path);
  if (stat?.isDirectory) return toolError(`${shown} is a directory; give the path of a file inside it.`);
  const special = specialFileError(stat, shown, "write_file");
  if (special) return toolError(special);
  let oldText: string | null = null;
  let written = content;
  try {
    if (stat) oldText = await ctx.workspace.readTextFile(path);
    const refusal = await approveEdits(ctx, [{ path, oldText, newText: content }]);
    if (refusal) return toolError(refusal);
    await ctx.state.checkpoint?.beforeChange("before write_file");
    written = (await ctx.workspace.writeTextFile(path, content))?.keptText ?? content;
  } catch (error) {
    return toolError((error as Error).message);
  }
  const lines = splitLines(written).length;
  const message =
    written !== content
      ? `The user kept only part of this change to ${shown} (${lines} lines now). Read the file before editing it again.`
      : stat
        ? `Wrote ${lines} lines to ${shown}`
        : `Created ${shown} (${lines} lines)`;
  return { content: message, edits: [{ path, oldText, newText: written }], locations: [{ path }] };
}
