import type { FileStat } from "../../workspace/workspace.js";

/**
 * The refusal for something that exists but is neither a file nor a folder: a named pipe, a socket or a device.
 * Opening one can block forever (a FIFO with no writer parks a libuv worker thread; four of them stall every
 * session of the server, and cancelling cannot free them), or never end (/dev/zero). The check runs on stat, which
 * follows links and never opens, so nothing is opened at all.
 */
export function specialFileError(stat: FileStat | undefined, shown: string, tool: string): string | undefined {
  if (!stat || stat.isFile || stat.isDirectory) return undefined;
  return `${shown} is not a regular file (a named pipe, socket or device); ${tool} does not open it. Work with regular files only.`;
}
