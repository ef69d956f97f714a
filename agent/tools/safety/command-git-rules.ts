/**
 * git read from its lexed words (part of the word rules, command-word-rules.ts): global options before the
 * subcommand (`git -C . push -f`) and option order no longer hide a destructive subcommand. A finding is its approval
 * description (a session approval covers every command with the same one), upstream's where it closes an upstream gap.
 */
import { hasOption, operands } from "./command-words.js";

const set = (...items: string[]): ReadonlySet<string> => new Set(items);

export const FORCE_PUSH = "git force push (rewrites remote history)";

// git's own options before the subcommand; those listed take the next word as their value.
const GIT_GLOBAL_WITH_VALUE = set(
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
);

/** `git [global options] sub args…` → [sub, args]. */
export function gitSubcommand(args: readonly string[]): [string, string[]] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (GIT_GLOBAL_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    return [arg.toLowerCase(), args.slice(i + 1)];
  }
  return ["", []];
}

// Keys whose value git runs as a program (or that point git at code to run).
const GIT_CODE_KEYS =
  /^(?:core\.(?:editor|pager|fsmonitor|hookspath|sshcommand|askpass|gitproxy)|alias\..*|.*\.(?:textconv|command|cmd|sshcommand|helper|process|clean|smudge)|sequence\.editor|gpg\.program|credential\..*|include\.path|includeif\..*)$/i;
const GIT_CONFIG_READS = set(
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "-l",
  "--list",
  "--show-origin",
  "--show-scope",
  "get",
  "list",
  "-e",
  "--edit",
  "--name-only",
);

/** The approval description of a destructive git invocation (upstream's git rules), or undefined. */
export function gitRisk(args: readonly string[]): string | undefined {
  const [sub, rest] = gitSubcommand(args);
  switch (sub) {
    case "push": {
      if (hasOption(rest, "f", ["--force", "--force-with-lease", "--mirror"]) || rest.some((a) => a.startsWith("+")))
        return FORCE_PUSH;
      if (hasOption(rest, "d", ["--delete", "--prune"]) || rest.some((a) => /^:[^\s]/.test(a)))
        return "git push deletes remote branches or tags";
      return undefined;
    }
    case "clean":
      return hasOption(rest, "f", ["--force"]) ? "git clean with force (deletes untracked files)" : undefined;
    case "reset":
      return rest.some((a) => a === "--hard" || a === "--merge" || a === "--keep")
        ? "git reset --hard (destroys uncommitted changes)"
        : undefined;
    case "checkout": {
      const dashes = rest.indexOf("--");
      const paths = dashes >= 0 ? rest.slice(dashes + 1) : rest.filter((a) => a === "." || a === ":/");
      if (paths.length > 0 || hasOption(rest, "f", ["--force"])) return "git checkout discards uncommitted changes";
      return undefined;
    }
    case "restore":
      return rest.includes("--staged") && !rest.includes("--worktree") && !rest.includes("-W")
        ? undefined
        : "git checkout discards uncommitted changes";
    case "stash": {
      const verb = rest.find((a) => !a.startsWith("-"));
      return verb === "clear" || verb === "drop" ? "git stash clear/drop (deletes stashed changes)" : undefined;
    }
    case "branch": {
      const force =
        rest.some((a) => /^-[a-zA-Z]*D/.test(a)) ||
        (hasOption(rest, "d", ["--delete"]) && hasOption(rest, "f", ["--force"]));
      return force ? "git branch force delete" : undefined;
    }
    case "config": {
      if (rest.some((a) => GIT_CONFIG_READS.has(a))) return undefined;
      const positional = operands(rest, set("--file", "-f", "--blob", "--type", "--default", "--comment"));
      if (positional.length < 2 && !rest.includes("--unset") && !rest.includes("--add")) return undefined;
      if (positional[0] === "set") positional.shift();
      if (rest.some((a) => a === "--global" || a === "--system" || a === "--file" || a === "-f"))
        return "git config write outside the repository (--global/--system)";
      return GIT_CODE_KEYS.test(positional[0] ?? "") ? "git config sets a program git will run" : undefined;
    }
    case "filter-branch":
    case "filter-repo":
      return "git history rewrite";
    case "reflog":
      return rest[0] === "expire" || rest[0] === "delete"
        ? "git reflog expire/delete (drops recovery points)"
        : undefined;
    case "update-ref":
      return hasOption(rest, "d", ["--stdin"]) ? "git update-ref delete" : undefined;
    default:
      return undefined;
  }
}
