/**
 * Normalisation of a shell command before dangerous-command detection (hermes-behaviour.md §6.3, upstream's
 * `_normalize_command_for_detection`). It exists so that terminal escapes, NUL bytes, fullwidth letters and shell
 * splicing tricks (`r\m`, `r''m`, `rm${IFS}-rf`) cannot hide a command from the pattern tables.
 *
 * The work is split in two halves because the variant builder tokenises the command in between: `preNormalise`
 * keeps the shell's quoting intact (so quote-aware parsing still sees what bash sees), `postNormalise` then removes
 * the splicing tricks and lower-cases. `normaliseCommand` is both halves in upstream's order.
 */

export interface NormaliseOptions {
  /** The user's home directory; absolute spellings of it fold to `~/`. Never read from process.env here. */
  readonly home?: string;
  /** The Hermes home; absolute spellings of it fold to `~/.hermes/`. */
  readonly hermesHome?: string;
}

const ESC = 0x1b;

function isIn(code: number, low: number, high: number): boolean {
  return code >= low && code <= high;
}

/** Length of a CSI body (`[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]`) starting at `i`, or -1. The classes are disjoint,
 * so a single forward pass decides it (no backtracking is possible). */
function csiLength(text: string, i: number): number {
  let j = i;
  while (j < text.length && isIn(text.charCodeAt(j), 0x30, 0x3f)) j++;
  while (j < text.length && isIn(text.charCodeAt(j), 0x20, 0x2f)) j++;
  return j < text.length && isIn(text.charCodeAt(j), 0x40, 0x7e) ? j + 1 - i : -1;
}

/**
 * Remove ECMA-48 escape sequences exactly as upstream's `strip_ansi` regex does (CSI, OSC ended by BEL or ST,
 * DCS/SOS/PM/APC ended by ST, nF, Fp/Fe/Fs, 8-bit CSI/OSC and other C1 controls). Written as a scanner rather than
 * the regex because the regex's lazy `[\s\S]*?` bodies rescan to the end of the input for every unterminated
 * opener, which is quadratic on adversarial input; here a failed terminator search is remembered.
 */
export function stripAnsi(text: string): string {
  if (!/[\x1b\x80-\x9f]/.test(text)) return text;
  const noTerminatorAfter = new Map<string, number>();
  // First index >= from of `needle`, or -1; a miss is cached so later openers do not rescan.
  const find = (needle: string, from: number): number => {
    const missFrom = noTerminatorAfter.get(needle);
    if (missFrom !== undefined && from >= missFrom) return -1;
    const at = text.indexOf(needle, from);
    if (at < 0) noTerminatorAfter.set(needle, Math.min(missFrom ?? from, from));
    return at;
  };
  const earliest = (from: number, ...needles: string[]): number => {
    let best = -1;
    let bestLength = 0;
    for (const needle of needles) {
      const at = find(needle, from);
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
        bestLength = needle.length;
      }
    }
    return best < 0 ? -1 : best + bestLength;
  };
  let out = "";
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    let skip = 0;
    if (code === ESC && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      const nextChar = text[i + 1]!;
      if (nextChar === "[") {
        const length = csiLength(text, i + 2);
        skip = length >= 0 ? 2 + length : 2;
      } else if (nextChar === "]") {
        const end = earliest(i + 2, "\x07", "\x1b\\");
        skip = end >= 0 ? end - i : 2;
      } else if ("PX^_".includes(nextChar)) {
        const end = earliest(i + 2, "\x1b\\");
        skip = end >= 0 ? end - i : 2;
      } else if (isIn(next, 0x20, 0x2f)) {
        let j = i + 1;
        while (j < text.length && isIn(text.charCodeAt(j), 0x20, 0x2f)) j++;
        skip = j < text.length && isIn(text.charCodeAt(j), 0x30, 0x7e) ? j + 1 - i : 0;
      } else if (isIn(next, 0x30, 0x7e)) {
        skip = 2;
      }
    } else if (code === 0x9b) {
      const length = csiLength(text, i + 1);
      skip = length >= 0 ? 1 + length : 1;
    } else if (code === 0x9d) {
      const end = earliest(i + 1, "\x07", "\x9c");
      skip = end >= 0 ? end - i : 1;
    } else if (isIn(code, 0x80, 0x9f)) {
      skip = 1;
    }
    if (skip > 0) {
      i += skip;
    } else {
      out += text[i];
      i++;
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Characters that end a path token in a shell command.
const PATH_TAIL = String.raw`((?:[/\\][^/\\\s'"\`;|&<>()]*)+)`;

/**
 * A regex matching `path` as an absolute directory prefix followed by a non-empty tail, with either separator
 * between components (so `C:\Users\alice\x` folds too). Undefined for a degenerate path (fewer than two components:
 * `/`, `C:\`, empty) so a stray setting cannot rewrite unrelated prefixes.
 */
function homePrefixRegex(path: string): RegExp | undefined {
  const components = path.split(/[/\\]+/).filter((c) => c.length > 0);
  if (components.length < 2) return undefined;
  // Deliberate narrowing of upstream: the prefix must not be glued to a preceding path character, so
  // `/data/home/alice/x` is not folded to `/data~/x`.
  const body = components.map(escapeRegExp).join(String.raw`[/\\]+`);
  return new RegExp(String.raw`(?<![\w.~/\\-])[/\\]*${body}${PATH_TAIL}`, "g");
}

/** Fold each home prefix to `replacement` (longest first, so a nested home folds before its parent). */
export function foldHomePrefixes(command: string, paths: readonly string[], replacement: string): string {
  const unique = [...new Set(paths.filter((p) => p.length > 0))].sort((a, b) => b.length - a.length);
  let out = command;
  for (const path of unique) {
    const regex = homePrefixRegex(path);
    if (regex) out = out.replace(regex, (_match, tail: string) => replacement + tail.replace(/\\/g, "/"));
  }
  return out;
}

/**
 * The first half: strip escape sequences and NUL, NFKC (fullwidth `ｒｍ` → `rm`), and join backslash-newline
 * continuations (`rm -rf \⏎/` runs as `rm -rf /`). None of this changes how the shell groups words.
 */
export function preNormalise(command: string): string {
  const cleaned = stripAnsi(command).replace(/\x00/g, "").normalize("NFKC");
  return cleaned.replace(/\\\r?\n/g, "");
}

/**
 * Lower-case everything except dash-prefixed words. Every pattern is case-insensitive, so keeping a flag's case is
 * invisible to them, except the one rule that needs it: upstream lower-cased the whole command, so a safe
 * `git branch -d` (merged-only delete) read as the force delete `-D` (upstream gap 2, fixed upstream later the same
 * way).
 */
export function lowerPreservingFlags(text: string): string {
  return text
    .split(/(\s+)/)
    .map((part) => (part.startsWith("-") ? part : part.toLowerCase()))
    .join("");
}

/**
 * `$IFS` and `${IFS…}` (upstream `\$\{IFS\b[^}]*\}|\$IFS\b`) become a space: IFS defaults to whitespace, so
 * `rm${IFS}-rf` runs as `rm -rf`. Done by hand because the regex rescans to the end of the text from every unclosed
 * `${IFS` (quadratic); here the search for the next `}` is not repeated once it has failed.
 */
function replaceIfs(text: string): string {
  const openers = /\$\{IFS\b|\$IFS\b/g;
  let out = "";
  let cursor = 0;
  let noCloseFrom = Infinity;
  for (let match = openers.exec(text); match !== null; match = openers.exec(text)) {
    let end = match.index + match[0].length;
    if (match[0].startsWith("${")) {
      const close = end >= noCloseFrom ? -1 : text.indexOf("}", end);
      if (close < 0) {
        noCloseFrom = Math.min(noCloseFrom, end);
        continue;
      }
      end = close + 1;
    }
    out += text.slice(cursor, match.index) + " ";
    cursor = end;
    openers.lastIndex = end;
  }
  return out + text.slice(cursor);
}

/**
 * The second half, in upstream's order: fold the Hermes home then the user home (before the backslash strip,
 * which would otherwise dissolve `C:\Users\alice`), drop backslash escapes (`r\m` → `rm`), drop empty quote pairs
 * (`r''m` → `rm`), turn `$IFS` / `${IFS…}` into a space, lower-case (flags keep their case, see above).
 */
export function postNormalise(command: string, options: NormaliseOptions = {}): string {
  let out = command;
  if (options.hermesHome) out = foldHomePrefixes(out, [options.hermesHome], "~/.hermes");
  if (options.home) out = foldHomePrefixes(out, [options.home], "~");
  out = out.replace(/\\([^\n])/g, "$1");
  out = out.replace(/''|""/g, "");
  out = replaceIfs(out);
  return lowerPreservingFlags(out);
}

/** The whole normalisation, as matched by the pattern tables. */
export function normaliseCommand(command: string, options: NormaliseOptions = {}): string {
  return postNormalise(preNormalise(command), options);
}

/**
 * Newlines inside quotes become spaces (same length, so lexer offsets still fit). A newline inside quotes is part of
 * an argument (a multi-line commit message, `hermes send "…\nsudo reboot\n…"`), not a command start, so the
 * `_CMDPOS` rules must not anchor on it (upstream's later fix). Used for the variants the tables read, never for
 * payload extraction: `bash -c 'ls\nreboot'` does run reboot, and its payload is read from the unflattened text.
 */
export function flattenQuotedNewlines(text: string): string {
  if (!text.includes("\n") || !/['"]/.test(text)) return text;
  let out = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === undefined) {
      if (c === "\\") {
        out += c + (text[i + 1] ?? "");
        i++;
        continue;
      }
      // A comment runs to the end of its line; an apostrophe in it opens nothing.
      if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
        const end = text.indexOf("\n", i);
        const stop = end < 0 ? text.length : end;
        out += text.slice(i, stop);
        i = stop - 1;
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      out += c;
    } else if (c === quote) {
      quote = undefined;
      out += c;
    } else if (quote === '"' && c === "\\") {
      out += c + (text[i + 1] === "\n" ? " " : (text[i + 1] ?? ""));
      i++;
    } else {
      out += c === "\n" ? " " : c;
    }
  }
  return out;
}
