/**
 * Prose is data. The text of `echo "…"`, `printf '…'`, `git commit -m "…"` or `gh pr create --body "…"` is
 * printed or stored, never run, so a message that mentions `mkfs` or `dd if=/dev/zero` must neither be refused as
 * hardline nor ask (upstream's #93392 fix for prose). Those arguments are blanked before the pattern tables read the
 * command. An argument holding a substitution (`"$(reboot)"`) runs that substitution, so it is kept.
 */
import { lexShell, type SimpleCommand } from "./command-shell-lex.js";
import { programCall } from "./command-words.js";
import { gitSubcommand } from "./command-word-rules.js";

const MESSAGE_OPTIONS = new Set(["-m", "--message", "--title", "--body", "-t", "-b", "--notes", "--subject"]);

// A search pattern is text to look for: `grep 'mkfs' docs/` mentions mkfs, it does not run it.
const SEARCHERS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"]);

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Whether the command sits inside another command's word (`$(echo rm)`): then its output is code, not prose. */
function nested(command: SimpleCommand, all: readonly SimpleCommand[]): boolean {
  const at = command.words[0]!.start;
  return all.some((other) => other !== command && other.words.some((w) => w.start < at && at < w.end));
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
  for (const command of commands) {
    const call = programCall(command);
    const words = call.argWords;
    if (call.name === "echo" || call.name === "printf") {
      if (nested(command, commands)) continue;
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
    const messages = call.name === "gh" || call.name === "glab" || (call.name === "git" && ["commit", "tag", "notes", "stash"].includes(gitSubcommand(call.args)[0]));
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
    .sort((a, b) => b.start - a.start);
  let out = text;
  let limit = Infinity;
  for (const span of spans) {
    if (span.end > limit) continue;
    out = out.slice(0, span.start) + "DATA" + out.slice(span.end);
    limit = span.start;
  }
  return out;
}
