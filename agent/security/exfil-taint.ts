import { BULK_READ, CREDENTIAL_FILE, escapeRegex, isSecretName, presentedAt, secretReadsIn } from "./exfil-sources.js";

/**
 * Where a text's code holds secrets (issue #23, exfiltration): the names that a secret is assigned to, followed
 * through later assignments, and the files a secret is written to. Published supply-chain samples take a secret in
 * one line and send it several lines later under other names, in every language (`envVars := os.Environ()` … `params
 * .Add("c", encoded)` … `http.Get(fullURL)`; `output=$(… | grep -aoE 'ghs_…' | base64)` … `curl "…?q=$output"`), so
 * the rule that reads this (threat-patterns-exfil-code.ts) asks where a secret went, not how it was worded.
 *
 * Two strengths: one secret read from the environment under a credential's name (`os.getenv("API_KEY")`), which an
 * SDK example sends to its own API in a header, and a secret in bulk (the whole environment, a credential file, a
 * process's memory, a grep for token shapes, a workflow's every secret), which nothing sends anywhere honestly.
 */

export type Strength = "secret" | "bulk";

/** A place in the text that holds a secret: a read of one, or a name used there while it holds one. */
export interface SecretUse {
  readonly index: number;
  readonly strength: Strength;
  /** Read there (not a name that holds one). */
  readonly read: boolean;
  /** For one secret, the variable it was read from ("" for the machine's identity). */
  readonly source?: string;
}

export interface Taint {
  /** Every read of a secret and every use of a name holding one in text[from, to), in order. */
  usesIn(from: number, to: number): SecretUse[];
  /** Paths a secret in bulk was written to (`… > /tmp/secrets`). */
  readonly files: ReadonlySet<string>;
}

// `name = …`, `name := …`, `let name = …`, `NAME=$(…)`, `export NAME=…`, `name: Type = …`. The value is read to the
// end of its statement (see valueEnd).
const ASSIGN =
  /(?:^|[\s;(,{])(?:(?:let|const|var|local|export|declare|my|our)\s+)?((?:self\.|this\.)?[A-Za-z_$][\w$]{0,40})\s*(?::\s*[\w[\]|.]{1,40}\s*)?(?::=|=(?![=>~]))/g;
// `params.Add("c", x)`, `data.append(x)`: a container that takes a secret holds one (not headers: a key set there
// goes to its own API; not a class's static helper such as `Object.assign` or `Buffer.concat`, see ASSIGN_INTO).
const STORE =
  /(?:^|[^\w$.])((?![\w$]*[Hh]eaders?(?![\w$]))(?!(?:Object|Buffer|Array|JSON|Math|String|Promise|Reflect|Date|Number)\.)[A-Za-z_$][\w$]{0,40})\.(?:Add|Set|add|append|push|set|update|extend|put|insert|concat|assign|write|WriteString)\s*\(/g;
// `Object.assign(payload, …)`: the first argument takes what the others hold.
const ASSIGN_INTO = /(?<![\w$.])Object\.assign\(\s*([A-Za-z_$][\w$]{0,40})\s*,/g;
// `… > /tmp/secrets`, `… >> out.txt`, `… | tee f`: where a line's output goes.
const REDIRECT = /(?:>>?|\|\s*tee\s+(?:-a\s+)?)\s*["']?([\w./~$-]{1,200})/g;
// A value that is a request's result: the answer is not the secret sent with it.
const ANSWER = /(?<![\w$.])(?:fetch|axios|requests\.\w+|urlopen|http\.\w+|curl|wget)\s*\(|(?:^|[\s(`])(?:curl|wget)\s/;
// After a name holding the environment, one variable of it: `env.API_URL`, `env["X"]`, `env.get("X")` (not a method
// call such as `env.items()`, which still holds all of it).
const ONE_OF_BULK =
  /^\??\.(?:get\(\s*["'`]([A-Za-z0-9_]{1,60})|([A-Za-z_]\w{0,60})(?![\w(]))|^\[\s*["'`]([A-Za-z0-9_]{1,60})/;

const MAX_VALUE = 600;
const MAX_NAMES = 50;
const MAX_ROUNDS = 4;
// Real files have hundreds; a crafted text of `a=a=a=…` is read no further than this.
const MAX_STATEMENTS = 4000;
// Scopes are not parsed, so a name holds what its last assignment before a use gave it. A one- or two-letter name
// holds it only for a stretch: minified code reuses `t` as a parameter every few hundred characters, unassigned.
const SHORT_REACH = 1500;

/**
 * Where a stretch of code from `from` ends, at most `max` characters on: the first character `stops` accepts at its
 * bracket depth (a closing bracket is seen before it closes).
 */
export function stretchEnd(text: string, from: number, max: number, stops: (c: string, depth: number) => boolean) {
  let depth = 0;
  const end = Math.min(text.length, from + max);
  for (let i = from; i < end; i++) {
    const c = text[i]!;
    if (stops(c, depth)) return i;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
  }
  return end;
}

/** Where a statement's value that starts at `from` ends: its `;` or line end outside brackets, or MAX_VALUE on. */
const valueEnd = (text: string, from: number) =>
  stretchEnd(text, from, MAX_VALUE, (c, depth) => depth === 0 && (c === ";" || c === "\n"));

/** A statement that gives a name a value: where, and what of a secret the value holds once known. */
interface Given {
  readonly at: number;
  strength?: Strength;
  source?: string;
}

/**
 * The secrets of `text`: reads, and names given one, followed through up to MAX_ROUNDS rounds of assignments (in text
 * order, so a round follows a chain to its end). A key stops where it is presented to its service (presentedAt), and
 * nothing passes into a request's answer.
 */
export function taintOf(text: string): Taint {
  const statements = [...text.matchAll(ASSIGN), ...text.matchAll(STORE), ...text.matchAll(ASSIGN_INTO)]
    .sort((a, b) => a.index - b.index)
    .slice(0, MAX_STATEMENTS)
    .map((m) => {
      const from = m.index + m[0].length;
      const to = valueEnd(text, from);
      return { name: m[1]!, given: { at: m.index } as Given, from, to, answer: ANSWER.test(text.slice(from, to)) };
    });
  // Per name, its statements in text order: a use holds what the last one before it gave.
  const byName = new Map<string, Given[]>();
  for (const s of statements) {
    const list = byName.get(s.name);
    if (list) list.push(s.given);
    else byName.set(s.name, [s.given]);
  }
  const holdsAt = (name: string, index: number): Given | undefined => {
    const list = byName.get(name)!;
    const i = lastBefore(list, index);
    if (i < 0 || (name.length <= 2 && index - list[i]!.at > SHORT_REACH)) return undefined;
    return list[i]!.strength ? list[i] : undefined;
  };
  // The regex of the names holding a secret, made again when one is added (in text order a round then follows a
  // chain of assignments to its end).
  const holding = new Set<string>();
  let used: RegExp | undefined;
  let stale = false;
  const usesIn = (from: number, to: number): SecretUse[] => {
    const value = text.slice(from, to);
    const uses: SecretUse[] = [];
    for (const m of value.matchAll(BULK_READ)) uses.push({ index: from + m.index, strength: "bulk", read: true });
    for (const r of secretReadsIn(value))
      uses.push({ index: from + r.index, strength: "secret", read: true, source: r.source });
    if (stale) {
      used = usesOf(holding);
      stale = false;
    }
    for (const m of used ? value.matchAll(used) : []) {
      const index = from + m.index;
      const given = holdsAt(m[1]!, index);
      if (!given?.strength) continue;
      const one = given.strength === "bulk" ? ONE_OF_BULK.exec(text.slice(index + m[0].length, index + 80)) : null;
      const variable = one && (one[1] ?? one[2] ?? one[3])!;
      if (!variable) uses.push({ index, strength: given.strength, read: false, ...sourceOf(given) });
      else if (isSecretName(variable)) uses.push({ index, strength: "secret", read: true, source: variable });
    }
    return uses.sort((a, b) => a.index - b.index);
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let grew = false;
    for (const s of statements) {
      if (holding.size >= MAX_NAMES && !holding.has(s.name)) continue;
      const found = strengthOfValue(text, s, usesIn(s.from, s.to));
      if (!found || s.given.strength === "bulk" || s.given.strength === found.strength) continue;
      s.given.strength = found.strength;
      if (found.source !== undefined) s.given.source = found.source;
      if (!holding.has(s.name)) {
        holding.add(s.name);
        stale = true;
      }
      grew = true;
    }
    if (!grew) break;
  }
  const files = new Set<string>();
  let offset = 0;
  for (const line of text.split("\n")) {
    if (
      (line.includes(">") || line.includes("tee")) &&
      usesIn(offset, offset + line.length).some((u) => u.strength === "bulk")
    )
      for (const m of line.matchAll(REDIRECT)) if (!CREDENTIAL_FILE.test(m[1]!)) files.add(m[1]!);
    offset += line.length + 1;
  }
  return { usesIn, files };
}

const sourceOf = (given: Given) => (given.source !== undefined ? { source: given.source } : {});

/** The index of the last of `list` (in text order) given before `index`, or -1. */
function lastBefore(list: readonly Given[], index: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < index) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * What a statement gives its name: bulk from a bulk read, or from a name holding bulk; a single secret from a read or
 * a name holding one, but not where it is presented (a header, a field named for it). A request's answer takes only
 * what is read inside it (`out=$(curl … | grep -aoE 'ghs_…')` holds the tokens it grepped).
 */
function strengthOfValue(
  text: string,
  s: { from: number; answer: boolean },
  uses: readonly SecretUse[],
): { strength: Strength; source?: string } | undefined {
  let found: { strength: Strength; source?: string } | undefined;
  for (const use of uses) {
    if (use.strength === "bulk" && (use.read || !s.answer)) return { strength: "bulk" };
    if (use.strength === "secret" && (use.read || !s.answer) && !presentedAt(text, s.from, use.index, use.source))
      found = { strength: "secret", ...(use.source !== undefined ? { source: use.source } : {}) };
  }
  return found;
}

/** A regex for the uses of `names` (group 1 the name), or undefined when there are none. */
function usesOf(names: Iterable<string>): RegExp | undefined {
  const list = [...names].slice(0, MAX_NAMES).map(escapeRegex);
  return list.length > 0 ? new RegExp(`(?<![\\w$.])\\$?\\{?(${list.join("|")})(?![\\w$])`, "g") : undefined;
}
