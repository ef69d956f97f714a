/**
 * How much the agent may do without asking, chosen per session by the user (ACP modes / config option):
 * - read_only: look, never change: no edits, only commands without side effects;
 * - default: edits and dangerous commands ask first;
 * - accept_edits: edits inside the workspace (and the temp folder) go through, except sensitive paths; dangerous
 *   commands still ask;
 * - yolo: nothing asks. Hardline commands and approvals.deny rules still never run.
 */
export type SessionMode = "read_only" | "default" | "accept_edits" | "yolo";

export const SESSION_MODES: ReadonlyArray<{ readonly id: SessionMode; readonly name: string; readonly description: string }> = [
  { id: "read_only", name: "Read-only", description: "Plan and explore: no edits, no commands with side effects." },
  { id: "default", name: "Default", description: "Ask before edits and dangerous commands." },
  { id: "accept_edits", name: "Accept edits", description: "Edits in the workspace go through; dangerous commands still ask." },
  { id: "yolo", name: "YOLO", description: "Never ask. Hardline commands are still never run." },
];

export function isSessionMode(value: unknown): value is SessionMode {
  return SESSION_MODES.some((m) => m.id === value);
}

// Programs that only read. A command is read-only when every segment starts with one of these and nothing is
// redirected into a file.
const READ_ONLY_PROGRAMS = new Set(
  ("ls ll la cat head tail less more wc grep egrep fgrep rg ag find fd tree pwd echo printf which whereis type file stat du df " +
    "date whoami id uname env printenv sort uniq cut tr diff cmp sha256sum md5sum realpath dirname basename jq yq true false test").split(" "),
);
const READ_ONLY_GIT = new Set("status log diff show rev-parse ls-files ls-tree blame grep describe shortlog reflog remote config".split(" "));

/** Whether a shell command only reads (for read-only mode). Conservative: anything unclear has side effects. */
export function isReadOnlyCommand(command: string): boolean {
  if (/(^|[^0-9&])>|\$\(|`|\btee\b/.test(command)) return false;
  const segments = command.split(/\|\||&&|[|;\n]/).map((s) => s.trim()).filter(Boolean);
  if (segments.length === 0) return false;
  return segments.every((segment) => {
    const words = segment.split(/\s+/);
    const [program, sub] = words;
    if (program === "git") return READ_ONLY_GIT.has(sub ?? "") && !/\s(-d|-D|--delete|-m|--move|--set|--unset|--add|--global\s+\S+\s+\S)/.test(segment);
    if (program === "find") return !/\s-(delete|exec|execdir|ok|fprint)/.test(segment);
    if (program === "sort") return !/\s-o\b/.test(segment);
    return READ_ONLY_PROGRAMS.has(program ?? "");
  });
}
