/**
 * Whether a failed contained command failed on the sandbox's walls: a write outside the writable folders reports
 * EROFS ("Read-only file system") under bubblewrap, and "Operation not permitted" from Seatbelt's deny rules. Only
 * then is running it outside the sandbox worth a question; any other failure is the command's own.
 */
const WALL_SIGNS = [/Read-only file system/i, /\bEROFS\b/, /sandbox-exec.*deny|deny\(\d+\) file-write/i];

export function failedOnSandboxWall(output: string, exitCode: number | null): boolean {
  if (exitCode === 0) return false;
  // The end of the output is where a failing command says why; a long log's head is not worth scanning.
  const tail = output.length > 64_000 ? output.slice(-64_000) : output;
  return WALL_SIGNS.some((sign) => sign.test(tail));
}
