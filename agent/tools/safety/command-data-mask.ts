/**
 * Prose is data. The text of `echo "…"`, `printf '…'`, `git commit -m "…"` or `gh pr create --body "…"` is
 * printed or stored, never run, so a message that mentions `mkfs` or `dd if=/dev/zero` must neither be refused as
 * hardline nor ask (upstream's #93392 fix for prose). Those arguments are blanked before the pattern tables read the
 * command. An argument holding a substitution (`"$(reboot)"`) runs that substitution, so it is kept.
 */

import { gitSubcommand } from "./command-git-rules.js";
import { lexShell, type SimpleCommand } from "./command-shell-lex.js";
import { programCall } from "./command-words.js";

const MESSAGE_OPTIONS = new Set(["-m", "--message", "--title", "--body", "-t", "-b", "--notes", "--subject"]);

// A search pattern is text to look for: `grep 'mkfs' docs/` mentions mkfs, it does not run it.
const SEARCHERS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"]);

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Whether a command sits inside another command's word (`$(echo rm)`): then its output is code, not prose. Only
 * words holding a substitution can hold a command; their spans are swept in order, so this stays n log n.
 */
function nestingTest(commands: readonly SimpleCommand[]): (command: SimpleCommand) => boolean {
  const spans = commands
    .flatMap((c) => c.words)
    .filter((w) => /\$\(|`|[<>]\(/.test(w.raw))
    .sort((a, b) => a.start - b.start);
  const reach: number[] = [];
  for (const span of spans) reach.push(Math.max(span.end, reach[reach.length - 1] ?? 0));
  return (command) => {
    const at = command.words[0]!.start;
    let low = 0;
    let high = spans.length - 1;
    let last = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (spans[mid]!.start < at) {
        last = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return last >= 0 && reach[last]! > at;
  };
}

/** The pattern words of a grep-like call: `-e P` / `--regexp=P` values, else its first operand. */
function searchPatterns(args: readonly string[], words: readonly Span[]): Span[] {
  const out: Span[] = [];
  let explicit = false;
  let first: Span | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-e" || arg === "--regexp") {
      explicit = true;
      if (words[i + 1]) out.push(words[++i]!);
    } else if (/^(?:--regexp=|-e.)/.test(arg)) {
      explicit = true;
      out.push(words[i]!);
    } else if (arg === "-f" || arg === "--file" || arg === "-f-") {
      explicit = true;
    } else if (!arg.startsWith("-") && first === undefined) {
      first = words[i];
    }
  }
  return explicit ? out : first ? [first] : [];
}

/** The argument words that are data. */
function dataSpans(text: string): Span[] {
  const spans: Span[] = [];
  const commands = lexShell(text);
  const nested = nestingTest(commands);
  for (const command of commands) {
    const call = programCall(command);
    const words = call.argWords;
    if (call.name === "echo" || call.name === "printf") {
      if (nested(command)) continue;
      spans.push(...words);
      continue;
    }
    if (SEARCHERS.has(call.name)) {
      spans.push(...searchPatterns(call.args, words));
      continue;
    }
    if (call.name === "git" && gitSubcommand(call.args)[0] === "grep") {
      const at = call.args.indexOf("grep") + 1;
      spans.push(...searchPatterns(call.args.slice(at), words.slice(at)));
      continue;
    }
    const messages =
      call.name === "gh" ||
      call.name === "glab" ||
      (call.name === "git" && ["commit", "tag", "notes", "stash"].includes(gitSubcommand(call.args)[0]));
    if (!messages) continue;
    for (let i = 0; i < words.length; i++) {
      const option = call.args[i]!;
      if (MESSAGE_OPTIONS.has(option) && words[i + 1]) spans.push(words[++i]!);
      else if (/^(?:--(?:message|title|body|notes|subject)=|-m.)/.test(option)) spans.push(words[i]!);
    }
  }
  return spans;
}

/** `text` with its data arguments replaced by a neutral word. */
export function maskDataArguments(text: string): string {
  if (!/\b(?:echo|printf|git|gh|glab|grep|egrep|fgrep|zgrep|rg|ag|ack)\b/.test(text)) return text;
  const spans = dataSpans(text)
    .filter((s) => !/\$\(|`|<\(|>\(/.test(text.slice(s.start, s.end)))
    .sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let cursor = 0;
  for (const span of spans) {
    if (span.start < cursor) continue; // inside a span already replaced
    pieces.push(text.slice(cursor, span.start), "DATA");
    cursor = span.end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join("");
}
