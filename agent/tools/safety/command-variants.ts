/**
 * The texts the pattern tables are run against (hermes-behaviour.md §6.3 "Variants scanned"), plus the structural
 * findings met on the way. For a command and, recursively, for every command line it hands to a shell or runs as a
 * program (`bash -c '…'`, `rg --pre prog`):
 *
 * 1. the normalised text;
 * 2. the normalised text with a newline put before every real command start — after `;`, `&&`, `||`, `|`, `&`, a
 *    newline, `(`, `{`, `$(`, a backtick, and before the program behind wrappers such as `sudo -u root` — found by a
 *    quote-aware lexer, so `_CMDPOS`-anchored rules see `(reboot)` or `{ reboot; }` but not `echo "(reboot)"`.
 *    Command words are also de-obfuscated there (`"rm"` → `rm`, `$(echo rm)` → `rm`), never arguments, so quoted
 *    prose stays prose.
 *
 * Code given to an interpreter (`python -c '…'`, `node -e '…'`) is not read as a command line: its text is already
 * in the command's own variants for every unanchored rule, and reading it as shell invents command starts
 * (`perl -e 'shutdown($sock, 2)'` is not a shutdown).
 *
 * Starts are found on the text before the escape/quote stripping of normalisation (`echo a\;reboot` prints, it does
 * not reboot), then the marked text is normalised. Payloads are read from both the raw and the normalised command
 * (`bash${IFS}-c${IFS}'…'` only becomes readable after normalisation).
 */

import { inspectCommand } from "./command-inline-code.js";
import { flattenQuotedNewlines, type NormaliseOptions, postNormalise, preNormalise } from "./command-normalise.js";
import { spelledOut } from "./command-opaque.js";
import { lexShell, type SimpleCommand } from "./command-shell-lex.js";
import { executableWords, plainWord } from "./command-structure.js";

/** Inline payloads nested deeper than this are not unwrapped; the analysis reports itself incomplete. */
export const MAX_PAYLOAD_DEPTH = 6;
/** Bounds on the work one command can cause; beyond them the analysis reports itself incomplete. */
export const MAX_VARIANTS = 64;
export const MAX_VARIANT_CHARS = 1_000_000;

export interface CommandAnalysis {
  /** Normalised, lower-cased (flags keep their case) texts to match, without duplicates. */
  readonly variants: readonly string[];
  /** Structural finding descriptions of the top-level command, in order, without duplicates. */
  readonly findings: readonly string[];
  /** A bound above was hit, so some text was not inspected; callers fail closed. */
  readonly incomplete: boolean;
  /** The command and every command line it hands to a shell, as read (for the structural rules). */
  readonly texts: readonly string[];
}

interface Edit {
  readonly at: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `text` with a newline before each command start and each program behind a wrapper, and obfuscated command words
 * spelled plainly. Offsets come from lexShell(text).
 */
export function markCommandStarts(text: string, commands: readonly SimpleCommand[]): string {
  const edits: Edit[] = [];
  for (const command of commands) {
    const first = command.words[0]!;
    if (first.start > 0) edits.push({ at: first.start, end: first.start, text: "\n" });
    for (const word of executableWords(command.words)) {
      if (word !== first) edits.push({ at: word.start, end: word.start, text: "\n" });
      const plain = plainWord(word);
      // A quoted word with spaces names a program with spaces in its name; unquoting it would invent a command.
      if (plain !== word.raw && plain.length > 0 && !/\s/.test(plain)) {
        edits.push({ at: word.start, end: word.end, text: plain });
      }
    }
  }
  if (edits.length === 0) return text;
  // Insertions before replacements at the same offset; an edit inside an applied replacement is dropped (it belongs
  // to a substitution the replacement already spelled out).
  edits.sort((a, b) => a.at - b.at || a.end - a.at - (b.end - b.at));
  let out = "";
  let cursor = 0;
  for (const edit of edits) {
    if (edit.at < cursor) continue;
    out += text.slice(cursor, edit.at) + edit.text;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

/** Variants and structural findings of `command` (see the module comment). */
export function analyseCommand(command: string, options: NormaliseOptions = {}): CommandAnalysis {
  const variants = new Set<string>();
  const findings = new Set<string>();
  const visited = new Set<string>();
  let chars = 0;
  let incomplete = false;

  const add = (variant: string): void => {
    if (variants.has(variant)) return;
    if (variants.size >= MAX_VARIANTS || chars + variant.length > MAX_VARIANT_CHARS) {
      incomplete = true;
      return;
    }
    variants.add(variant);
    chars += variant.length;
  };

  const visit = (text: string, depth: number): void => {
    if (visited.has(text) || incomplete) return;
    visited.add(text);
    const pre = preNormalise(text);
    const flat = flattenQuotedNewlines(pre);
    const base = postNormalise(flat, options);
    add(base);
    const commands = lexShell(pre);
    add(postNormalise(markCommandStarts(flat, commands), options));
    // Words as the shell passes them (ANSI-C decoded, literal variables and brace lists expanded, one command a
    // line), so `{rm,-rf,/}` or `r=rm; $r -rf /` meet the same rules as `rm -rf /`.
    add(postNormalise(spelledOut(commands), options));
    const payloads: string[] = [];
    for (const list of [lexShell(base), commands]) {
      for (const simple of list) {
        const finding = inspectCommand(simple);
        if (!finding) continue;
        if (depth === 0) findings.add(finding.description);
        if (finding.payload && finding.commandLine) payloads.push(finding.payload);
      }
    }
    for (const payload of payloads) {
      if (visited.has(payload)) continue;
      if (depth >= MAX_PAYLOAD_DEPTH) {
        incomplete = true;
        return;
      }
      visit(payload, depth + 1);
    }
  };

  visit(command, 0);
  return { variants: [...variants], findings: [...findings], incomplete, texts: [...visited] };
}
