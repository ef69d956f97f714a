import { parse } from "shell-quote";

const PATH_ARG_KEYS = ["path", "file_path", "workdir"] as const;
const COMMAND_TOOLS = new Set(["terminal"]);
const NAVIGATION = new Set(["cd", "pushd"]);

/**
 * The raw path strings a tool call points at (upstream's SubdirectoryHintTracker rules): the `path`, `file_path`
 * and `workdir` arguments of any tool, and for terminal commands every token that looks like a path (contains `/`
 * or `.`, is not a flag or a URL) plus the operand of `cd`/`pushd` at the start of a shell segment ([LATER] rule,
 * so `cd backend && make` counts while `echo cd backend` does not).
 */
export function pathCandidates(toolName: string, args: Readonly<Record<string, unknown>> | undefined): string[] {
  if (!args) return [];
  const out: string[] = [];
  for (const key of PATH_ARG_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value.trim()) out.push(value.trim());
  }
  if (COMMAND_TOOLS.has(toolName) && typeof args.command === "string") out.push(...commandCandidates(args.command));
  return out;
}

export function commandCandidates(command: string): string[] {
  let tokens: ReturnType<typeof parse>;
  try {
    // Keep `$VAR` as written: expanding it here would invent paths.
    tokens = parse(command, (name) => `$${name}`);
  } catch {
    tokens = command.split(/\s+/);
  }
  const out: string[] = [];
  let segmentStart = true;
  let navigating = false;
  for (const token of tokens) {
    if (typeof token !== "string") {
      // An operator (&&, ||, ;, |, &, (, ), redirections) or a glob/comment object: a new segment may start.
      const op = (token as { op?: string }).op;
      segmentStart = op !== undefined && op !== ">" && op !== ">>" && op !== "<";
      navigating = false;
      continue;
    }
    if (segmentStart && NAVIGATION.has(token)) {
      navigating = true;
      segmentStart = false;
      continue;
    }
    segmentStart = false;
    if (token.startsWith("-")) continue;
    if (navigating) {
      out.push(token);
      navigating = false;
      continue;
    }
    if (/^(https?:\/\/|git@)/.test(token)) continue;
    if (token.includes("/") || token.includes(".")) out.push(token);
  }
  return out;
}
