import type { TextView } from "./python-regex.js";
import type { Detector, Hit, ThreatScope } from "./threat-patterns.js";

/**
 * Code that sends the environment's secrets out (issue #23, exfiltration): a value read from the environment under a
 * secret's name (AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, NPM_…) or the whole environment, then put into a request — in its
 * URL, its query or its body. Published supply-chain samples do it in every wording and language of code
 * (`requests.get("https://…/" + self.secret)`, `h.get(\`https://…?d=${d}\`)` after `d = …process.env…`), so the
 * rule follows the value instead of the words: the names a secret is assigned to, and whether one of them (or the
 * read itself) stands in a request's arguments. A key sent in a header to its own API (`headers={"Authorization": …}`)
 * or in a field named for it (`client_secret: …`) is how every SDK example authenticates, and is not counted.
 */

// A secret's name: what credentials are called in environments.
const SECRET_NAME = /(?:key|token|secret|pass(?:word)?|pwd|cred|auth|session|cookie)/i;
// `name = <…> os.environ.get("X") / os.getenv("X") / process.env.X / process.env["X"]`, the name captured first.
const ASSIGNED_READ =
  /(?:^|[\s;(,{])((?:self\.|this\.)?[A-Za-z_$][\w$]{0,40})\s*(?::\s*[\w[\]|]+\s*)?=\s*[^=\n;]{0,120}?(?:os\.environ(?:\.get)?\s*[[(]\s*|os\.getenv\s*\(\s*|(?<![\w.])environ(?:\.get)?\s*[[(]\s*|process\.env\s*(?:\.|\[\s*))["'`]?([A-Za-z0-9_]{1,60})/g;
// `name = <…> process.env <…>` with the environment taken whole (not one variable of it).
const ASSIGNED_WHOLE =
  /(?:^|[\s;(,{])((?:self\.|this\.)?[A-Za-z_$][\w$]{0,40})\s*=\s*[^;=]{0,400}?(?:process\.env(?![\w$.[])|os\.environ(?![\w.[])|os\.environ\.copy\(\))/g;
// A secret read right inside a request's arguments.
const INLINE_READ =
  /(?:os\.environ(?:\.get)?\s*[[(]\s*|os\.getenv\s*\(\s*|process\.env\s*(?:\.|\[\s*))["'`]?([A-Za-z0-9_]{1,60})|(?:process\.env|os\.environ)(?![\w$.[])/g;
// A request: Python's requests and urllib, Node's http(s), fetch, axios and the like.
const REQUEST =
  /(?:(?<![\w$.])requests\.(?:get|post|put|patch|request)|(?<![\w$.])urlopen|urllib\.request\.Request|(?<![\w$.])(?:https?|axios|got|superagent|needle|h)\.(?:get|post|put|request)|(?<![\w$.])(?:fetch|axios))\s*\(/g;
// What marks a header, where a key goes to its own API, or a field named for the credential it carries (an OAuth
// token request's `client_secret: …`, a login's `password=…`): a secret presented as what it is, to the service it
// belongs to. Exfiltration puts it where no service asks for one: a URL's path, an unnamed query slot, a dump.
const HEADER_CONTEXT =
  /(?:(?:headers?|authorization|bearer|x-api-key|api-key)\s*["'`]?\s*[:=]?[^,)]{0,60}|(?:client_secret|client_id|secret|password|passwd|api_?key|access_?key|token|auth)["'`]?\s*[:=]\s*)$/i;

const MAX_NAMES = 50;

/** The text of a call's arguments, from just after its "(" to the matching ")" (at most MAX_ARGS characters). */
const MAX_ARGS = 800;
function argumentsAt(text: string, open: number): string {
  let depth = 1;
  const end = Math.min(text.length, open + MAX_ARGS);
  for (let i = open; i < end; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return text.slice(open, i);
  }
  return text.slice(open, end);
}

function isSecretRead(name: string | undefined): boolean {
  return name === undefined || SECRET_NAME.test(name);
}

class SecretToNetworkRule implements Detector {
  readonly id = "secret_exfil";
  readonly scope: ThreatScope = "context";
  readonly requires: ReadonlyArray<readonly string[]> = [
    ["environ", "getenv", "process.env"],
    ["requests.", "urlopen", "urllib", ".get(", ".post(", ".request(", "fetch(", "axios"],
  ];
  readonly starts = undefined;

  find(text: string, _at?: readonly number[], _view?: TextView): Hit | undefined {
    const tainted = new Set<string>();
    for (const m of text.matchAll(ASSIGNED_READ)) if (isSecretRead(m[2])) tainted.add(m[1]!);
    for (const m of text.matchAll(ASSIGNED_WHOLE)) tainted.add(m[1]!);
    // A handful of names is what real code has; a crafted text with thousands would make one huge alternation.
    const names = [...tainted].slice(0, MAX_NAMES).map((n) => n.replace(/[$.]/g, "\\$&"));
    const used = names.length > 0 ? new RegExp(`(?<![\\w$.])(?:${names.join("|")})(?![\\w$])`, "g") : undefined;
    for (const call of text.matchAll(REQUEST)) {
      const start = call.index + call[0].length;
      const args = argumentsAt(text, start);
      const inArgs = (regex: RegExp, counts: (m: RegExpMatchArray) => boolean) => {
        for (const m of args.matchAll(regex)) {
          if (counts(m) && !HEADER_CONTEXT.test(args.slice(Math.max(0, m.index! - 80), m.index))) return true;
        }
        return false;
      };
      if ((used && inArgs(used, () => true)) || inArgs(INLINE_READ, (m) => isSecretRead(m[1])))
        return { index: call.index, end: start + args.length };
    }
    return undefined;
  }

  regexesFor(): readonly RegExp[] {
    return [ASSIGNED_READ, ASSIGNED_WHOLE, INLINE_READ, REQUEST, HEADER_CONTEXT];
  }
}

export const EXFIL_CODE_PATTERNS: readonly Detector[] = [new SecretToNetworkRule()];
