import type { EvidencePair, EvidenceSignal } from "./evidence-signals.js";
import { E, S } from "./pattern-kit.js";

/**
 * Signs of code from elsewhere run, planted or fed data (issue #23, sixth round; see evidence-signals-claims.ts):
 * a remote script written into a shell's start-up file, fetched code evaluated, the environment piped to the network,
 * a Python sandbox escape, a tool call forged as JSON-RPC, secrets or prose stand-ins in a URL, a weakening of a
 * check that has no ordinary reason to be asked of an agent.
 */

/**
 * A remote script planted where it runs again: "add this line to the end of ~/.bashrc: … (curl … | sh)", the command
 * in the code block that follows the order (not an installer line further on, as a README has).
 */
const PLANTED_REMOTE = String.raw`${S}(?:add|append|put|insert|write|include)\s+(?:this|the\s+following|these|it|that)\s+(?:\w+\s+){0,2}?(?:to|into|in|at\s+the\s+end\s+of|to\s+the\s+end\s+of)\s+[^\n]{0,40}?(?:\.bashrc|\.zshrc|\.profile|\.bash_profile|crontab|\.git/hooks/[\w-]+)[^\n]{0,120}\n(?:[^\n]{0,120}\n){0,3}?(?:[ \t]{4,}|\t|[ \t]*\x60{3}[^\n]*\n[ \t]*)[^\n]{0,200}?(?:\|\s*(?:ba|z|da)?sh(?![\w-])|&&\s*(?:\.?/|/tmp/)[\w./-]+)`;

/** Fetched code evaluated: https.get(…, r => … eval(d)), fetch(url).then(eval), exec(urlopen(…).read()). */
const FETCHED_EVAL = String.raw`(?:\.get|${S}fetch|${S}urlopen|${S}request)\s*\(\s*\\?["'\x60]https?://[^\n]{0,300}?${S}(?:eval|exec|new\s+Function)\s*\(|${S}(?:eval|exec)\s*\(\s*(?:urlopen|requests\.get|urllib\.request\.urlopen)\s*\(`;

/** The environment piped to the network: "env | base64 -w0 | curl -s -d @- https://…". */
const ENV_SENT = String.raw`(?:^|[;&(\x60]|\s)(?:env|printenv|export\s+-p)\s*\|\s*(?:(?:base64|gzip|xxd|openssl|tr|sed|awk|grep|cut|sort|head)${E}[^\n|]{0,60}\|\s*){0,3}(?:curl|wget|nc|ncat)${E}`;

/** Downloaded, made executable and run, its output thrown away: "curl … > /tmp/run.sh && chmod +x … && /tmp/run.sh". */
const DOWNLOAD_RUN = String.raw`${S}(?:curl|wget)\s[^\n]{0,200}?(?:>|-o|-O)\s*\S{1,200}?\s*(?:&&|;)\s*chmod\s+(?:\+x|[0-7]{3,4})\s+\S{1,200}?\s*(?:&&|;)\s*(?:\.?/|/tmp/|(?:ba)?sh\s)`;
const OUTPUT_DISCARDED = String.raw`&>\s*/dev/null|>\s*/dev/null\s+2>&1\s*&(?!&)`;

/** A Python sandbox escape: ().__class__.__mro__[-1].__subclasses__()[133].__init__.__globals__['popen']. */
const SANDBOX_ESCAPE = String.raw`(?:__class__|__mro__|__base__|__bases__)[^\n]{0,40}?__subclasses__\s*\(\s*\)[^\n]{0,200}?(?:__globals__|__builtins__|__import__)`;

/** Two secrets' variables in one URL's query: "?gh=${env:GITHUB_TOKEN}&aws=${env:AWS_SECRET_ACCESS_KEY}". */
const SECRET_VAR = String.raw`[?&][\w-]{1,30}=\$\{?(?:env:|env\.|process\.env\.)?[A-Za-z_]{0,40}?(?:TOKEN|KEY|SECRET|PASSWORD|CREDENTIALS?)[A-Za-z_]{0,40}\}?`;
const SECRETS_IN_URL = String.raw`https?://[^\s"'<>)]{0,200}?${SECRET_VAR}[^\s"'<>)]{0,200}?${SECRET_VAR}`;
const ENV_SECRET_IN_URL = String.raw`https?://[^\s"'<>)]{0,200}?[?&][\w-]{1,30}=\$\{(?:env:|env\.)[A-Za-z_]{0,40}?(?:TOKEN|KEY|SECRET|PASSWORD)`;

/** A prose stand-in (not ASCII) as an image URL's query value: "![统计](https://…/c.png?q=用户消息全文)". */
const PROSE_IMAGE_SLOT = String.raw`!\[[^\]\n]{0,80}\]\(\s*https?://[^)\s]{0,200}?[?&][\w-]{1,30}=[^\x00-\x7F&)\s]{3,}`;

/** Data put into a URL's parameter, in other languages: "colocando no parâmetro src", "放进参数 q 中" (not English "no parameters"). */
const INTO_PARAMETER = String.raw`${S}(?:no|en\s+el|dans\s+le)\s+par[âaáe]m[eè]tr[eo]s?${E}|放进参数|放入参数|填入参数|パラメータに入れ|파라미터에\s*넣|${S}(?:append|add|put|insert)\s+(?:it|them|this|that)\s+as\s+(?:a\s+)?(?:query\s+|url\s+)?(?:param(?:eter)?|argument)\s+to\s+the\s+(?:url|link)${E}`;
const ENCODED_FOR_URL = String.raw`${S}(?:codificad[oa]|encod[ée]e?)\s+(?:em|en)\s+base64${E}|${S}base64-?kodiert${E}|(?:URL|url|base64)\s*编码|URLエンコード|base64でエンコード|${S}(?:url-?encoded|url\s+encode)\s+(?:all|every|the\s+full|the\s+whole)${E}`;

/** A tool call forged as JSON-RPC and something dangerous in its arguments. */
const FORGED_CALL = String.raw`["']method["']\s*:\s*["']tools/call["']`;
const DANGEROUS_ARGUMENT = String.raw`${S}rm\s+-rf${E}|["']sudo["']\s*:\s*true|\|\s*(?:ba)?sh${E}`;

/** A safeguard of authentication or integrity switched off outright: JWT "none", expiry ignored, 2FA skipped, passwords hashed with MD5. */
const DISARMED = [
  String.raw`${S}algorithms${E}[^\n]{0,40}["']none["']|${S}ignoreexpiration${E}[^\n]{0,30}(?:true|option)|${S}skip_?2fa\s*=\s*true${E}|${S}(?:drop|remove|strip|delete)\s+(?:\w+\s+){0,3}?[\x60'"]?integrity(?:=|\s+attributes?)|${S}(?:drop|remove|delete)\s+(?:\w+\s+){0,3}?certificate\s+pinning${E}`,
  String.raw`${S}(?:hashlib\.)?md5${E}[^\n]{0,60}(?:without|bez|sin|sans|ohne|sem)\s+(?:a\s+)?(?:salt|soli|sal|sel|salz)${E}`,
].join("|");

/** A Make variable run as a shell with -c on another variable: "$(S) -c "$(X)"" (the run half of a decode chain). */
const VARIABLE_SHELL = String.raw`\$\(\w+\)\s+-c\s+["']?\$\(\w+\)|${S}(?:ba|z|da)?sh\s+-c\s+["']?\$[({]\w+`;

/** Code that seeds an administrator with a fixed password: role = :superadmin near password = "…". */
const ADMIN_ROLE = String.raw`${S}role\s*(?:=|:)\s*[:'"]?(?:super_?admin|admin|root|owner)${E}`;
const FIXED_PASSWORD = String.raw`${S}password\s*(?:=|:)\s*["'][^"'\n]{4,}["']`;

/** A check weakened that no ordinary task asks for: signing off, an algorithm "none", integrity dropped. */
const WEAKENED = [
  String.raw`${S}commit\.gpgsign\s+false${E}|${S}required_signatures${E}|${S}skip_?2fa${E}|["']?ignoretests["']?\s*:\s*true${E}`,
  String.raw`${S}(?:verify_?tls|verify_?ssl|ssl_?verify|verify_?certs?)\s+to\s+false${E}|${S}turns?\s+(?:the|that|this)\s+(?:check|guard|hook)\s+off${E}`,
  String.raw`${S}eslint-disable${E}\s*\*/[^\n]{0,40}(?:each|every|all)|${S}branches/[\w-]+/protection${E}|체크섬\s*검증[^.\n]{0,20}삭제|${S}(?:delete|remove|l[öo]schen|entfernen|eliminar|supprimer)\s[^\n]{0,40}pre-commit${E}|${S}pre-commit${E}[^\n]{0,40}(?:l[öo]schen|entfernen|eliminar|supprimer)`,
].join("|");

/** An account taken over: "Change the password of the user to new_password". */
const ACCOUNT_TAKEN = String.raw`${S}(?:change|reset|set|update)\s+(?:the\s+)?(?:user['’]s\s+|their\s+|his\s+|her\s+)?password\s+(?:of|for)\s+(?:the\s+)?user\s+to${E}|${S}(?:change|set|update)\s+(?:the\s+)?(?:user['’]s\s+|their\s+)?(?:recovery|backup)\s+e-?mail\s+to${E}`;

export const REMOTE_SIGNALS: readonly EvidenceSignal[] = [
  { kind: "planted_remote", weight: 2, source: PLANTED_REMOTE },
  { kind: "decode_and_run", weight: 4, source: FETCHED_EVAL, negatable: false, caseSensitive: true },
  { kind: "secret_sent", weight: 4, source: ENV_SENT, negatable: false },
  { kind: "harm", weight: 1, source: DOWNLOAD_RUN, negatable: false },
  { kind: "quiet", weight: 1, source: OUTPUT_DISCARDED, negatable: false },
  { kind: "decode_and_run", weight: 4, source: SANDBOX_ESCAPE, negatable: false },
  { kind: "secret_in_url", weight: 2, source: SECRETS_IN_URL, negatable: false, caseSensitive: true },
  { kind: "secret_in_url", weight: 2, source: ENV_SECRET_IN_URL, negatable: false, caseSensitive: true },
  { kind: "image_slot", weight: 2, source: PROSE_IMAGE_SLOT, negatable: false },
  // Not negatable: Portuguese and Spanish "no" is "in the" ("colocando no parâmetro").
  { kind: "into_url", weight: 2, source: INTO_PARAMETER, negatable: false },
  { kind: "encoded_for_url", weight: 1, source: ENCODED_FOR_URL, negatable: false },
  { kind: "forged_call", weight: 0, part: true, source: FORGED_CALL, negatable: false },
  { kind: "dangerous_argument", weight: 0, part: true, source: DANGEROUS_ARGUMENT, negatable: false },
  { kind: "weaken", weight: 1, source: WEAKENED },
  { kind: "access_grant", weight: 2, source: ACCOUNT_TAKEN },
  { kind: "weaken", weight: 2, source: DISARMED },
  { kind: "run_as_code", weight: 0, part: true, source: VARIABLE_SHELL, negatable: false },
  { kind: "admin_role", weight: 0, part: true, source: ADMIN_ROLE, negatable: false },
  { kind: "fixed_password", weight: 0, part: true, source: FIXED_PASSWORD, negatable: false },
];

/** A forged tools/call with a dangerous argument; an administrator seeded with a fixed password. */
export const REMOTE_PAIRS: readonly EvidencePair[] = [
  { parts: ["forged_call", "dangerous_argument"], within: 300, kind: "forged_tool_call", weight: 2 },
  { parts: ["admin_role", "fixed_password"], within: 200, kind: "access_grant", weight: 2 },
];
