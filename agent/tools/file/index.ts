import { homedir } from "node:os";
import type { FileToolOptions } from "../../workspace/resolve-path.js";
import { createPatchTool } from "./patch-tool.js";
import { createReadFileTool } from "./read-file.js";
import { createSearchFilesTool } from "./search-files.js";
import { createWriteFileTool } from "./write-file.js";

export type { FileToolOptions } from "../../workspace/resolve-path.js";

/** read_file, write_file, patch and search_files, for a given user home and environment (tests pass temp dirs). */
export function createFileTools(options: FileToolOptions) {
  return [
    createReadFileTool(options),
    createWriteFileTool(options),
    createPatchTool(options),
    createSearchFilesTool(options),
  ] as const;
}

// The process's own home and environment; process.env is passed live, so HERMES_WRITE_SAFE_ROOT is read per call.
export const FILE_TOOLS = createFileTools({ userHome: homedir(), env: process.env });
