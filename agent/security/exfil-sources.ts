import { HOME_CREDENTIAL_DIRS, HOME_CREDENTIAL_FILES } from "./credential-locations.js";

/**
 * Where code reads a secret, and where one it sends is presented as what it is (issue #23, exfiltration): the
 * sources and the exemptions of secret_exfil, whose flow through names is exfil-taint.ts.
 */

// A credential's name as environments spell it, and the endings of names that only point at one's service
// (MCP_AUTH_PORT, AUTH_URL, SESSION_TIMEOUT): a setting, not a secret.
const SECRET_WORD = /(?:key|token|secret|pass(?:word)?|pwd|cred|auth|session|cookie)/i;
const SETTING_END =
  /(?:^|_|[a-z])(?:PORT|URL|URI|HOST|HOSTNAME|PATH|DIR|ENDPOINT|DOMAIN|REGION|MODE|ENABLED|DISABLED|TIMEOUT|TTL|TYPE|NAME|VERSION|METHOD|PROVIDER|ISSUER|SCOPES?|EXPIRY|LENGTH|SIZE|Port|Url|Uri|Host|Path|Dir|Endpoint|Domain|Region|Mode|Enabled|Timeout|Type|Name|Version|Provider|Issuer)$/;

/** Whether an environment variable's name names a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_WORD.test(name) && !SETTING_END.test(name);
}

// One variable of the environment, named: Python, Node, Go, Ruby, PowerShell, a workflow's `secrets.X`.
const ONE_READ =
  /(?:os\.environ(?:\.get)?\s*[[(]\s*|os\.getenv\s*\(\s*|(?<![\w.])environ(?:\.get)?\s*[[(]\s*|process\.env\s*(?:\??\.|(?:\?\.)?\[\s*)|os\.(?:Getenv|LookupEnv)\(\s*|(?<![\w$])ENV(?:\.fetch\s*\(\s*|\[\s*)|\$env:)["'`]?([A-Za-z0-9_]{1,60})|\$\{\{\s*secrets\.([A-Za-z0-9_]{1,60})/g;
// A shell reading a variable: `$AWS_SECRET_ACCESS_KEY`, `${NPM_TOKEN}` (upper case: the environment's, not a local).
const SHELL_READ = /\$\{?([A-Z][A-Z0-9_]{1,60})\}?/g;
// Who and where the machine is, the first thing an install hook's beacon sends: hostname, user, interfaces. Read as
// one secret (not in bulk): a script that puts its own host in a URL to reach a service there sends nothing away.
const IDENTITY_READ =
  /(?<![\w$.])(?:socket\.gethostname|platform\.node|getpass\.getuser|os\.getlogin|os\.hostname|os\.userInfo|os\.networkInterfaces|os\.Hostname)\(\)|\$\((?:hostname|whoami|id|uname\s+-a)\)/g;
/** Words one of whose presence lets the rule look at a text at all (ThreatPattern.requires). */
export const SOURCE_WORDS = [
  "env",
  "secret",
  "token",
  "key",
  "pass",
  "pwd",
  "cred",
  "auth",
  "session",
  "cookie",
].concat([
  "/proc/",
  "grep",
  "~/",
  "hostname",
  "whoami",
  "getuser",
  "userinfo",
  "networkinterfaces",
  "platform.node",
  "(id)",
]);

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const CREDENTIAL_PATH = [...HOME_CREDENTIAL_DIRS, ...HOME_CREDENTIAL_FILES].map(escapeRegex).join("|");
/** A credential file or folder under the home directory, as code names it. */
export const CREDENTIAL_FILE = new RegExp(
  String.raw`^(?:~|\$HOME|\$\{HOME\}|os\.homedir\(\)|expanduser\(["']~)[/"'\s,+]*(?:${CREDENTIAL_PATH})`,
);

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
    CREDENTIAL_FILE.source.slice(1),
  ].join("|"),
  "gm",
);

/** One secret read in `text`: where, and the variable it was read from (its name, for the field exemption). */
export interface SecretRead {
  readonly index: number;
  readonly source: string;
}

/** Where `text` reads one secret by name (a workflow's `secrets.X` always counts) or the machine's identity. */
export function* secretReadsIn(text: string): Generator<SecretRead> {
  for (const m of text.matchAll(ONE_READ)) {
    const name = m[2] ?? m[1]!;
    if (m[2] !== undefined || isSecretName(name)) yield { index: m.index, source: name };
  }
  for (const m of text.matchAll(SHELL_READ)) if (isSecretName(m[1]!)) yield { index: m.index, source: m[1]! };
  for (const m of text.matchAll(IDENTITY_READ)) yield { index: m.index, source: "" };
}

// A header, where a key goes to its own API: `headers={"Authorization": …}`, `headers.set("Authorization", …)`.
const IN_HEADER = /(?:headers?|authorization|bearer|x-api-key|api-key)\s*["'`]?\s*[:=,]?[^,)]{0,60}$/i;
// Inside a header or a login option of a command: `-H "X-Api-Key: $KEY"`, `-u "ci:$TOKEN"`.
const AUTH_OPTION =
  /(?:^|\s)(?:-H|--header|-u|--user|--oauth2-bearer|-Headers|-Credential)[=\s]\s*["']?[^"'\n]{0,120}$/;
// A field named for a credential: `client_secret: …`, `password=…`, `"api_key": …`, `?key=…`.
const CREDENTIAL_FIELD =
  /(\w*(?:secret|password|passwd|api_?key|access_?key|token|auth|key|client_id))["'`]?\s*[:=]\s*(?:f?["'`]\s*\+?\s*|\$?\{)?$/i;
// A host that is the value itself (`http://$HOST:9200/…`, `https://${host}/health`): the script reaches its own machine.
const HOST_BEFORE = /:\/\/["'`+\s]*(?:\$\{?)?$/;
const HOST_AFTER = /^\}?["'`+\s]*(?:[:/]|["'`]?\s*[,)]|$)/;
// The value's own text at its place: a name (`$HOST`, `${host}`, `host`), a call (`os.hostname()`), `$(hostname)`.
const VALUE_TOKEN = /^(?:\$\([^)\n]{0,40}\)|\$\{?\w+|[\w$.]+\(\)|[\w$]+)/;

/**
 * Whether a single secret at `index` is presented as what it is, to the service it belongs to, rather than sent away:
 * in a header or a login, in a field named for the same credential (`client_secret: CLIENT_SECRET`, not `"token":
 * AWS_SECRET_ACCESS_KEY` — a field's name is no licence to send another secret anywhere), or as the host it reaches.
 * `from` bounds how far back the text belongs to the same call or statement.
 */
export function presentedAt(text: string, from: number, index: number, source: string | undefined): boolean {
  const before = text.slice(Math.max(from, index - 80), index);
  if (IN_HEADER.test(before) || AUTH_OPTION.test(before)) return true;
  const field = CREDENTIAL_FIELD.exec(before);
  if (field && source !== undefined && sharesWord(field[1]!, source)) return true;
  const token = VALUE_TOKEN.exec(text.slice(index, index + 80))?.[0] ?? "";
  return HOST_BEFORE.test(before) && HOST_AFTER.test(text.slice(index + token.length, index + token.length + 40));
}

/** Whether two names share a word of three letters or more (`client_secret` and `BEE_CLIENT_SECRET`). */
function sharesWord(a: string, b: string): boolean {
  const words = (s: string) =>
    s
      .replace(/([a-z])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3);
  const mine = new Set(words(b));
  return words(a).some((w) => mine.has(w));
}
