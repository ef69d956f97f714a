/**
 * Upstream's allowlist / deny-rule matching (hermes-behaviour.md §6.3 steps 4 and 6): exact text, or an fnmatch
 * glob when the pattern has `*`, `?` or `[`; the allowlist is skipped for compound commands.
 */

/** Upstream's compound-command test: a newline, `&&`, `||`, any of `;&|<>` and backtick, or `$(`. */
const COMPOUND = /(?:\n|&&|\|\||[;&|<>`]|\$\()/;

export function isCompoundCommand(command: string): boolean {
  return COMPOUND.test(command);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function escapeClassChar(c: string): string {
  return /[\\\][^-]/.test(c) ? `\\${c}` : c;
}

/** A `[...]` set starting at `open`, as fnmatch reads it; undefined when it never closes (then `[` is literal). */
function readSet(pattern: string, open: number): { source: string; next: number } | undefined {
  let j = open + 1;
  if (pattern[j] === "!") j++;
  if (pattern[j] === "]") j++;
  const close = pattern.indexOf("]", j);
  if (close < 0) return undefined;
  let body = pattern.slice(open + 1, close);
  const negated = body.startsWith("!");
  if (negated) body = body.slice(1);
  let items = "";
  for (let k = 0; k < body.length; k++) {
    const low = body[k]!;
    if (body[k + 1] === "-" && k + 2 < body.length) {
      const high = body[k + 2]!;
      // fnmatch drops a reversed range: it matches nothing.
      if (low <= high) items += `${escapeClassChar(low)}-${escapeClassChar(high)}`;
      k += 2;
    } else {
      items += escapeClassChar(low);
    }
  }
  let source: string;
  if (items === "") source = negated ? "[\\s\\S]" : "(?!)";
  else source = negated ? `[^${items}]` : `[${items}]`;
  return { source, next: close + 1 };
}

/**
 * fnmatch's translation to a regex (case-insensitive, `*` and `?` cross `/` and newlines). As in Python's
 * `fnmatch.translate`, every `*` but the last takes the shortest text up to the next fixed piece without any way
 * back (an atomic group, spelled as a lookahead plus backreference), so patterns with many stars cannot backtrack
 * exponentially.
 */
export function globToRegExp(pattern: string): RegExp {
  const pieces: string[][] = [[]];
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pieces[pieces.length - 1]!.length > 0 || pieces.length === 1) pieces.push([]);
      i++;
    } else if (c === "?") {
      pieces[pieces.length - 1]!.push("[\\s\\S]");
      i++;
    } else if (c === "[") {
      const set = readSet(pattern, i);
      pieces[pieces.length - 1]!.push(set ? set.source : "\\[");
      i = set ? set.next : i + 1;
    } else {
      pieces[pieces.length - 1]!.push(escapeRegExp(c));
      i++;
    }
  }
  // pieces[0] is before the first star; each later piece follows one run of stars.
  let source = `^${pieces[0]!.join("")}`;
  for (let k = 1; k < pieces.length; k++) {
    const fixed = pieces[k]!.join("");
    if (k === pieces.length - 1) source += `[\\s\\S]*${fixed}`;
    else source += `(?=([\\s\\S]*?${fixed}))(?:\\${k})`;
  }
  return new RegExp(`${source}$`, "i");
}

/** Upstream's allowlist match: the exact command text, or a glob match when the pattern has `*`, `?` or `[`. */
export function matchesCommandGlob(command: string, pattern: string): boolean {
  if (command === pattern) return true;
  if (!/[*?[]/.test(pattern)) return false;
  return globToRegExp(pattern).test(command);
}
