import { HOME_CREDENTIAL_DIRS, HOME_CREDENTIAL_FILES } from "./credential-locations.js";

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
}

export interface Taint {
  /** Every read of a secret and every use of a name holding one in text[from, to), in order. */
  usesIn(from: number, to: number): SecretUse[];
  /** Paths a secret in bulk was written to (`… > /tmp/secrets`). */
  readonly files: ReadonlySet<string>;
}

/** A credential's name as environments spell it. */
export const SECRET_NAME = /(?:key|token|secret|pass(?:word)?|pwd|cred|auth|session|cookie)/i;

// One variable of the environment, named: Python, Node, Go, Ruby, PowerShell, a workflow's `secrets.X`.
const ONE_READ =
  /(?:os\.environ(?:\.get)?\s*[[(]\s*|os\.getenv\s*\(\s*|(?<![\w.])environ(?:\.get)?\s*[[(]\s*|process\.env\s*(?:\??\.|(?:\?\.)?\[\s*)|os\.(?:Getenv|LookupEnv)\(\s*|(?<![\w$])ENV(?:\.fetch\s*\(\s*|\[\s*)|\$env:)["'`]?([A-Za-z0-9_]{1,60})|\$\{\{\s*secrets\.([A-Za-z0-9_]{1,60})/g;
// A shell reading a variable: `$AWS_SECRET_ACCESS_KEY`, `${NPM_TOKEN}` (upper case: the environment's, not a local).
const SHELL_READ = /\$\{?([A-Z][A-Z0-9_]{1,60})\}?/g;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const CREDENTIAL_PATH = [...HOME_CREDENTIAL_DIRS, ...HOME_CREDENTIAL_FILES].map(escapeRegex).join("|");

/** The environment or the secrets taken whole, or where credentials are kept. */
export const BULK_READ = new RegExp(
  [
    // Taken, not tested: `typeof process.env == "object" && process.env && …` holds nothing.
    String.raw`(?<![\w$.]|typeof\s+)process\.env(?![\w$.[]|\?\.|\s*(?:[=!]=|&&|\|\||\?(?!\?)))`,
    String.raw`(?<![\w.])os\.environ(?![\w.[])`,
    String.raw`os\.environ\.(?:copy|items|keys|values)\(\)`,
    String.raw`os\.Environ\(\)`,
    String.raw`(?<![\w$])ENV\.(?:to_h|to_a|to_hash|inspect|each|map|select)(?![\w])`,
    String.raw`toJSON\(\s*secrets\s*\)`,
    String.raw`/proc/(?:self|\d+|\$\w+|\*|\$\(\w+\))/(?:environ|mem|maps)`,
    String.raw`(?:^|[|;&(\x60]|\$\()\s*(?:env|printenv|export\s+-p)\s*(?=$|[|)>;&\x60])`,
    // A grep for token shapes through a memory dump or a tree: GitHub's ghs_/ghp_, AWS's AKIA, the runner's isSecret.
    String.raw`grep\s[^\n|]{0,80}(?:gh[spousr]_|github_pat_|AKIA|isSecret|xox[abp]-|npm_[A-Za-z]|sk-(?:ant-|proj-)?)`,
    // Who and where the machine is, the first thing an install hook's beacon sends: hostname, user, interfaces.
    String.raw`(?<![\w$.])(?:socket\.gethostname|platform\.node|getpass\.getuser|os\.getlogin|os\.hostname|os\.userInfo|os\.networkInterfaces|os\.Hostname)\(\)`,
    String.raw`\$\((?:hostname|whoami|id|uname\s+-a)\)`,
    String.raw`(?:~|\$HOME|\$\{HOME\}|os\.homedir\(\)|expanduser\(["']~)[/"'\s,+]*(?:${CREDENTIAL_PATH})`,
  ].join("|"),
  "gm",
);

// `name = …`, `name := …`, `let name = …`, `NAME=$(…)`, `export NAME=…`, `name: Type = …`. The value is read to the
// end of its statement (see valueEnd).
const ASSIGN =
  /(?:^|[\s;(,{])(?:(?:let|const|var|local|export|declare|my|our)\s+)?((?:self\.|this\.)?[A-Za-z_$][\w$]{0,40})\s*(?::\s*[\w[\]|.]{1,40}\s*)?(?::=|=(?![=>~]))/g;
// `params.Add("c", x)`, `data.append(x)`, `Object.assign(payload, x)`: a container that takes a secret holds one
// (not headers: a key set there goes to its own API).
const STORE =
  /(?:^|[^\w$.])((?![\w$]*[Hh]eaders?(?![\w$]))[A-Za-z_$][\w$]{0,40})\.(?:Add|Set|add|append|push|set|update|extend|put|insert|concat|assign|write|WriteString)\s*\(/g;
// `… > /tmp/secrets`, `… >> out.txt`, `… | tee f`: where a line's output goes.
const REDIRECT = /(?:>>?|\|\s*tee\s+(?:-a\s+)?)\s*["']?([\w./~$-]{1,200})/g;
// A value that is a request's result: the answer is not the secret sent with it.
const ANSWER = /(?<![\w$.])(?:fetch|axios|requests\.\w+|urlopen|http\.\w+|curl|wget)\s*\(|(?:^|[\s(`])(?:curl|wget)\s/;
/**
 * Where one secret is presented as what it is, to the service it belongs to (tested on the text before it): a header
 * (`headers={"Authorization": …}`, `headers.set("Authorization", …)`), or a field named for the credential it carries
 * (an OAuth token request's `client_secret: …`, a login's `password=…`). Exfiltration puts it where no service asks
 * for one: a URL's path, an unnamed query slot, a dump.
 */
export const PRESENTED =
  /(?:(?:headers?|authorization|bearer|x-api-key|api-key)\s*["'`]?\s*[:=,]?[^,)]{0,60}|(?:client_secret|client_id|secret|password|passwd|api_?key|access_?key|token|auth)["'`]?\s*[:=]\s*)$/i;

const MAX_VALUE = 600;
const MAX_NAMES = 50;
const MAX_ROUNDS = 4;
// Real files have hundreds; a crafted text of `a=a=a=…` is read no further than this.
const MAX_STATEMENTS = 4000;
// How far a name keeps its secret: scopes are not parsed, so a name holds one only for a stretch after it was given
// one, short for one- and two-letter names (minified code gives `t` a new meaning every few hundred characters).
const REACH = 4000;
const SHORT_REACH = 400;

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

/** Where `text` reads one secret from the environment by name (a workflow's `secrets.X` always counts). */
export function* secretReadsIn(text: string): Generator<number> {
  for (const m of text.matchAll(ONE_READ)) if (m[2] !== undefined || SECRET_NAME.test(m[1]!)) yield m.index;
  for (const m of text.matchAll(SHELL_READ)) if (SECRET_NAME.test(m[1]!)) yield m.index;
}

interface Given {
  readonly at: number;
  readonly strength: Strength;
}

/**
 * The secrets of `text`: reads, and names given one (each read gives its name "secret"; bulk is followed through
 * up to MAX_ROUNDS further assignments, a single key no further than the name it was read into).
 */
export function taintOf(text: string): Taint {
  // Per name, what it was given and where, in text order.
  const given = new Map<string, Given[]>();
  const holdsAt = (name: string, index: number): Strength | undefined => {
    const list = given.get(name);
    if (!list) return undefined;
    const i = lastBefore(list, index);
    const reach = name.length <= 2 ? SHORT_REACH : REACH;
    return i >= 0 && index - list[i]!.at <= reach ? list[i]!.strength : undefined;
  };
  const give = (name: string, at: number, strength: Strength): boolean => {
    const list = given.get(name) ?? [];
    given.set(name, list);
    const i = lastBefore(list, at + 1);
    if (i >= 0 && list[i]!.at === at) {
      if (list[i]!.strength === "bulk" || list[i]!.strength === strength) return false;
      list[i] = { at, strength };
    } else list.splice(i + 1, 0, { at, strength });
    return true;
  };
  // The regex of the names holding a secret, made again when one is added (in text order a round then follows a
  // chain of assignments to its end).
  let used: RegExp | undefined;
  let stale = false;
  const usesIn = (from: number, to: number): SecretUse[] => {
    const value = text.slice(from, to);
    const uses: SecretUse[] = [];
    for (const m of value.matchAll(BULK_READ)) uses.push({ index: from + m.index, strength: "bulk", read: true });
    for (const index of secretReadsIn(value)) uses.push({ index: from + index, strength: "secret", read: true });
    if (stale) {
      used = usesOf(given.keys());
      stale = false;
    }
    if (used) {
      for (const m of value.matchAll(used)) {
        const strength = holdsAt(m[1]!, from + m.index);
        if (strength) uses.push({ index: from + m.index, strength, read: false });
      }
    }
    return uses.sort((a, b) => a.index - b.index);
  };
  const statements = [...text.matchAll(ASSIGN), ...text.matchAll(STORE)]
    .sort((a, b) => a.index - b.index)
    .slice(0, MAX_STATEMENTS)
    .map((m) => {
      const from = m.index + m[0].length;
      const to = valueEnd(text, from);
      return { name: m[1]!, at: m.index, from, to, answer: ANSWER.test(text.slice(from, to)) };
    });
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let grew = false;
    for (const s of statements) {
      if (given.size >= MAX_NAMES && !given.has(s.name)) continue;
      const strength = strengthOfValue(text, s, usesIn(s.from, s.to));
      if (!strength || !give(s.name, s.at, strength)) continue;
      stale ||= given.get(s.name)!.length === 1;
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
      for (const m of line.matchAll(REDIRECT)) files.add(m[1]!);
    offset += line.length + 1;
  }
  return { usesIn, files };
}

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
 * What a statement gives its name: bulk from a bulk read, or from a name holding bulk unless the value is a request's
 * answer; a single secret only from a read of its own, not where it is presented (a header, a field named for it).
 */
function strengthOfValue(
  text: string,
  s: { from: number; answer: boolean },
  uses: readonly SecretUse[],
): Strength | undefined {
  let found: Strength | undefined;
  for (const use of uses) {
    if (use.strength === "bulk" && (use.read || !s.answer)) return "bulk";
    if (
      use.strength === "secret" &&
      use.read &&
      !PRESENTED.test(text.slice(Math.max(s.from, use.index - 80), use.index))
    )
      found = "secret";
  }
  return found;
}

/** A regex for the uses of `names` (group 1 the name), or undefined when there are none. */
export function usesOf(names: Iterable<string>): RegExp | undefined {
  const list = [...names].slice(0, MAX_NAMES).map(escapeRegex);
  return list.length > 0 ? new RegExp(`(?<![\\w$.])\\$?\\{?(${list.join("|")})(?![\\w$])`, "g") : undefined;
}
