import { parse } from "shell-quote";

/** Which arguments of a tool hold paths, and which (if any) a shell command: each tool's definition says. */
export interface PathArguments {
  readonly paths: readonly string[];
  readonly command?: string;
}

/**
 * Arguments read as paths for a tool we know nothing about (MCP tools, or a name from a stored history):
 * upstream's SubdirectoryHintTracker reads these three from any tool.
 */
export const USUAL_PATH_ARGUMENTS: PathArguments = { paths: ["path", "file_path", "workdir"] };

const NAVIGATION = new Set(["cd", "pushd"]);

/**
 * The raw path strings a tool call points at (upstream's SubdirectoryHintTracker rules): the arguments the tool's
 * definition names as paths, which the caller looks up (tools/registry.ts, above this floor) (`path`, `file_path`, `workdir`; all three for tools defined elsewhere, MCP ones), and
 * for a shell command every token that looks like a path (contains `/` or `.`, is not a flag or a URL) plus the
 * operand of `cd`/`pushd` at the start of a shell segment ([LATER] rule, so `cd backend && make` counts while
 * `echo cd backend` does not).
 */
export function pathCandidates(
  args: Readonly<Record<string, unknown>> | undefined,
  { paths, command }: PathArguments,
): string[] {
  if (!args) return [];
  const out: string[] = [];
  for (const key of paths) {
    const value = args[key];
    if (typeof value === "string" && value.trim()) out.push(value.trim());
  }
  const line = command === undefined ? undefined : args[command];
  if (typeof line === "string") out.push(...commandCandidates(line));
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
