import type { EvidenceSignal } from "./evidence-signals.js";
import { DESTROY_ACT, SECRET_PLACES } from "./pattern-acts.js";
import { E, S } from "./pattern-kit.js";

/**
 * The signs of what an attack wants done (issue #23), for the evidence rule (threat-evidence.ts): data of the
 * workspace put into a URL, something rendered or fetched, a secret named, persistence, a safeguard of the code taken
 * out, an extra act slipped into the user's, a decoded blob run, a counterfeit turn. A project's docs name each of
 * these now and then; an attack pairs them with each other or with pressure (evidence-signals-pressure.ts).
 */

// What a placeholder asks to be filled with when it is the workspace's data, not the reader's: the contents or value
// of something, a secret, the session, the conversation.
const DATA_WORD = String.raw`(?:contents?\s+of|value\s+of|base64\s+of|hex\s+of|(?:url|base64|hex)-?encoded\s+\w+|insert\s+the|secrets?|passwords?|passwd|api[\s_-]?keys?|cookies?|credentials?|session[\s_-]?(?:cookie|token)s?|conversation|chat[\s_-]?history|private[\s_-]?(?:files?|keys?|repos?|code)|env\.\w+|\.env${E}|\.npmrc|id_rsa|tokens?\s+(?:you|the\s+user)|users?\.e-?mail|user['’]s\s+(?:real\s+|full\s+|home\s+)?(?:name|e-?mail|address|phone(?:\s+number)?|location|birthday|date\s+of\s+birth)|(?:user['’]s|previous|last)\s+(?:\w+\s+)?(?:message|question|prompt))`;
/** A slot in a URL for the workspace's data: {{env.GITHUB_TOKEN}}, <contents of config/production.yml>, [insert the session cookie …]. */
const DATA_SLOT = String.raw`https?://[^\s)\]>"'<{\[]{0,200}?(?<![$\{])(?:\{\{?|<|\[)(?!\s*(?:your|my|YOUR|MY)[\s_-])[^}\]>\n]{0,80}?${DATA_WORD}[^}\]>\n]{0,80}?(?:\}\}?|>|\])`;

/** A secret's variable as a URL's query value: ?token=${GITHUB_TOKEN}&aws=${AWS_SECRET_ACCESS_KEY}. */
const SECRET_IN_URL = String.raw`https?://[^\s"'<>)]{0,200}?[?&][\w-]{1,30}=\$\{?[A-Za-z_]{0,40}?(?:TOKEN|KEY|SECRET|PASSWORD|CREDENTIALS?)[A-Za-z_]{0,40}\}?`;

/** A slot of any kind in a URL: {x}, <x>, [x], %s, a capitalised stand-in as a host label or a query value. */
const SLOT = String.raw`https?://[^\s)\]>"'<{\[]{0,200}?(?:\{\{?[^}\s]{1,60}\}\}?|<[^>\n]{1,80}>|\[[^\]\n]{1,120}\]|%s)`;
const CAPITAL_SLOT = String.raw`(?:https?://|[?&][\w-]{1,30}=)(?:[A-Z][A-Z0-9_]{3,40})(?=[&.#/\s)\]"'>]|$)`;

/** Told to fill a stand-in from a file or secret: "replace HEXDATA with the hex encoding of the first bytes of .npmrc". */
const FILLED_FROM = String.raw`${S}(?:replac(?:e|ed|ing)|substitut(?:e|ed|ing)|swap(?:ped)?|fill(?:ed)?(?:\s+in)?|ersetz\w*|reemplaz\w*|sustitu\w*|remplac\w*|thay\s+th[ếe])\s+\S[^.!?\n]{0,60}?\s(?:with|by|durch|por|par|con|b[ằa]ng)\s+[^.!?\n]{0,60}?(?:(?:contents?|value|values|encoding|bytes|inhalt|contenido|contenu|conte[uú]do|n[ộo]i\s+dung|output)\s+(?:of|der|des|del|de|c[ủu]a)|messages?|history|conversation|question|prompt|tokens?|keys?|secrets?|passwords?|cookies?|e-?mail|diff)${E}|${S}(?:build|make|derive|construct|compose)\s+(?:it|the\s+\w+)\s+from\s+the\s+(?:hex|base64|bytes|contents?|value|encoding|hash)\s+of${E}|${S}(?:conversation|history|messages|chat|contents?\s+of\s+\S+|secrets?|keys?|tokens?|diff)\s+(?:[\w-]+\s+){0,4}?in\s+place\s+of${E}|${S}(?:word|text|string|placeholder|value)\s+\S{1,40}\s+replaced\s+(?:with|by)\s+(?:\w+\s+){0,3}?(?:keys?|tokens?|secrets?|passwords?|cookies?|e-?mails?|messages?|history|conversation)${E}`;
// "the value of DEPLOY_KEY", "the contents of `.env`", "den Inhalt der Datei .env".
const DATA_OF_SECRET = String.raw`(?:\.env|\.npmrc|id_rsa|id_ed25519|\.ssh/\w+|credentials|secrets?\.ya?ml)[\x60'"]?\s*(?:file\s+|datei\s+|파일\s*)?(?:の内容|内容|내용|contents|inhalt)|${S}(?:contents?|values?|valor|valeur|wert|bytes|characters?|lines?|hex|base64|encoding|inhalt|contenido|contenu|conte[uú]do|содержимое|значение)\s+(?:of|der|des|del|de)\s+(?:the\s+|your\s+|die\s+|la\s+|le\s+|all\s+|every\s+)?(?:file\s+|files\s+|datei\s+|archivo\s+|fichier\s+|github\s+|gitlab\s+|npm\s+|aws\s+)?[\x60'"]?(?:\.env${E}(?!\.(?:example|sample|template|dist))|\.npmrc|\.netrc|\.pypirc|\.git-credentials|id_rsa|[\w./-]{0,40}(?:secrets?|credentials?|production)\.(?:ya?ml|json|toml|ini)|~/\.ssh|~/\.aws|[A-Z][A-Z0-9_]{0,30}_(?:KEY|TOKEN|SECRET|PASSWORD|PAT|CREDENTIALS)|database_url|[A-Z_]{0,30}_DSN)`;

/** Secrets gathered from what the agent meets: "any API keys you encounter", "bearer tokens you have seen in this chat". */
const HARVEST = String.raw`${S}(?:keys?|tokens?|secrets?|credentials?|passwords?|cookies?|env(?:ironment)?\s+(?:vars?|variables))\s+(?:that\s+)?you\s+(?:\w+\s+)?(?:encounter|see|saw|find|found|come\s+across|have\s+seen|read|have\s+access\s+to|can\s+(?:find|see|read|access))${E}`;

/** A dependency swapped for one the text names: "pin these instead of the upstream packages", a private index. */
const SWAPPED_SOURCE = String.raw`${S}instead\s+of\s+(?:the\s+)?(?:upstream|official|original|real|public|canonical)\s+(?:\w+\s+)?(?:packages?|librar(?:y|ies)|modules?|versions?|registry|urls?|downloads?|crates?|gems?)${E}|--(?:extra-)?index-url${E}|${S}registry\s*=\s*https?://`;

/** A secret named: the files that hold them, an environment variable named like one, the session's cookies. */
const SECRET = String.raw`${SECRET_PLACES}|${S}(?:session\s+cookies?|bearer\s+tokens?|secrets?\.ya?ml|private[\s_-](?:files|repos?|code|source))${E}`;
const SECRET_NAME = String.raw`(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]{0,30}_(?:KEY|TOKEN|SECRET|PASSWORD|PAT|CREDENTIALS)(?![A-Za-z0-9_])`;

/** Something rendered or fetched: an image, a badge, a link to click, a URL to fetch, the contents put into the reply. */
const SINK = [
  String.raw`!\[[^\]\n]{0,80}\]\s*[([]|<img${E}`,
  String.raw`${S}(?:render|display|embed|include|insert|show|output|add|append|f[üu]ge)\s+(?:\w+\s+){0,4}?(?:image|images|badge|icon|pixel|bild)${E}`,
  String.raw`${S}(?:fetch|open|visit|load|request|ping|call)\s+(?:the\s+following|this|that|these)\s+(?:url|link|address|endpoint)s?${E}`,
  String.raw`${S}one\s+(?:image|picture|glyph|badge|link)\s+per\s+(?:character|char|letter|byte)${E}|${S}(?:include|add|put|append|render)\s+the\s+(?:tag|image|link|badge|pixel)\s+(?:below|above)${E}|${S}(?:publish|post|paste|share)\s+(?:its|the|their)\s+(?:full\s+)?contents?\s+(?:as|in)\s+(?:a\s+)?(?:comment|reply|gist|issue)${E}|комментари\w+`,
  String.raw`${S}(?:paste|put|include|insert|copy|write|dump|print|post|echo)\s+(?:\w+\s+){0,5}?(?:into|in|to)\s+(?:your|the)\s+(?:reply|answer|response|output|comment|pr|pull\s+request|description|summary)${E}|${S}post\s+(?:a\s+)?(?:follow-?up\s+)?comment\s+with${E}|${S}(?:add|post|paste|put|append|include)\s+(?:all\s+)?(?:the|its|their)\s+(?:full\s+)?contents?\s+(?:as|in|to)\s+(?:a\s+)?(?:new\s+)?(?:message|comment|reply|note)\s+(?:in|on|to)\s+(?:this|the)\s+(?:ticket|issue|thread|pr|pull\s+request|conversation)${E}`,
].join("|");

/** A command that carries data out: a DNS lookup of a computed name, a shell history or archive piped to an upload. */
const CARRY_OUT = String.raw`${S}(?:cp|copy|copiar|copie[rz]?|upload|sync|send|tar\s+\w+|scp|rsync|curl|aws\s+s3\s+cp)\s[^\n]{0,100}?(?:\.aws/credentials|\.ssh/|\.npmrc|\.netrc|\.docker/config\.json|\.git-credentials|\.env${E})[^\n]{0,160}?(?:s3://|gs://|https?://|scp\s)|\$\([^)\n]{0,80}(?:\.npmrc|\.env${E}|id_rsa|id_ed25519|\.ssh/|\.aws/|\.netrc|\.git-credentials)|json\.stringify\(\s*process\.env\s*\)|${S}(?:requests\.\w+|urlopen|fetch|axios\.\w+)\([^)\n]{0,160}(?:os\.environ|process\.env)${E}(?!\.)|\$\(\s*(?:env|printenv|set)\s*\)|${S}(?:nslookup|dig|host|ping|resolve-dnsname)\s+[^\n]{0,40}\$\(|\|\s*curl\s+[^\n]{0,120}(?:@-|-T\s+-|--upload-file)|--data-binary\s+@-|"\$\(history|${S}prompt_command\s*=|${S}tar\s+c\w*\s+-\s+[^\n]{0,80}\|\s*(?:curl|nc|wget)${E}|\$\{\{\s*secrets\.[^}\n]{1,60}\}\}[^\n]{0,120}\|\s*(?:base64\s*\|\s*)?curl${E}`;

/** Access granted to someone else: a key added to authorized_keys, an admin account seeded, a password hard-coded. */
const ACCESS_GRANT = String.raw`${S}(?:add|append|put|write|install|insert|copy)\s+(?:[\w\x60'"-]+\s+){0,6}?(?:to|into|in)\s+[\x60'"]?(?:~/)?(?:\.ssh/)?authorized_keys${E}|${S}insert\s+into\s+[\x60"]?(?:users|accounts|admins|members)[\x60"]?\s*\([^)\n]{0,120}\)\s*values\s*\([^;]{0,300}?['"](?:admin|superuser|root|owner)['"]|${S}(?:create|add|seed)\s+(?:an?\s+)?(?:hidden\s+|extra\s+|new\s+)?(?:admin|backdoor|root|superuser|support|service|maintenance)\s+(?:user|account|login)\s+(?:\w+\s+){0,4}?(?:password|passwd|pw)${E}|${S}(?:return|returns)\s+true\s+(?:when|if|whenever)${E}`;

/** A secret read inside a command that sends: nslookup "$(… ~/.npmrc …)", curl -d "$(cat .env)". */
const SECRET_SENT = String.raw`${S}(?:nslookup|dig|host|ping|curl|wget|nc|invoke-webrequest|iwr)\s[^\n]{0,60}\$\([^)\n]{0,80}(?:\.npmrc|\.env${E}|id_rsa|id_ed25519|\.ssh/|\.aws/|\.netrc|\.git-credentials|\$\{?[A-Z_]*(?:TOKEN|KEY|SECRET|PASSWORD))`;

/** Where an act outlives the session: shell start-up files, git hooks, crontab, the agent's memory. */
const PERSIST = String.raw`~/\.bashrc|~/\.zshrc|\.bash_profile|~/\.profile|\.git/hooks|${S}crontab${E}|authorized_keys|${S}(?:long[\s-]term|persistent|permanent)\s+memory${E}|${S}your\s+memory${E}|\.config/autostart|${S}launchagents${E}`;

/** Harm where it lands: data destroyed, history forced, checks skipped, the home directory wiped. */
const HARM = [
  DESTROY_ACT,
  String.raw`${S}curl\s[^\n|]{0,200}\|\s*(?:ba|z|da)?sh${E}|--force${E}|${S}force[\s-]?push|--no-verify${E}|--(?:skip|no|disable|bypass)-(?:checks?|verify|hooks?|tests?|review|safety)${E}|--trust-all${E}|--prune-\w+|${S}(?:drop|wipe|nuke|purge|destroy|prune)[-_]\w+|\$home/|\$HOME/`,
].join("|");

/** A safeguard of the code taken out: an auth or admin check deleted, branch protection removed, a backdoor account. */
const WEAKEN = [
  String.raw`${S}(?:delete|remove|drop|disable|comment\s+out|bypass|skip|strip|relax|loosen)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:subsequent\s+|remaining\s+|further\s+|future\s+)?[\x60'"]?[\w.]{0,30}(?:auth|admin|permission|csrf|verif|signature|rate[-_]?limit|acl|rbac)[\w.()]{0,30}[\x60'"]?(?:\s+(?:checks?|guards?|middleware|decorators?|validation))?${E}`,
  String.raw`${S}(?:verify\s*=\s*false|rejectunauthorized\s*:\s*false|node_tls_reject_unauthorized\s*=\s*["']?0|sslverify\s+false|--insecure|--no-check-certificate|insecure-skip-tls-verify|strict-ssl\s+false|(?:ssl|tls|certificate)\s+verification\s+(?:disabled|off))${E}|\|\|\s*true${E}|${S}continue-on-error:\s*true${E}|${S}hookspath\s+/dev/null${E}|${S}chmod\s+(?:-R\s+)?(?:a\+rwx|777|o\+w)${E}|(?<![A-Za-z0-9_])[A-Za-z_]{0,20}(?:auth|verify|security|csrf|tls|ssl)[A-Za-z_]{0,20}\s*=\s*(?:false|0|off|none)${E}`,
  String.raw`${S}(?:delete|remove|drop|disable|skip|comment\s+out)\s+(?:\w+\s+){0,2}?(?:failing|broken|flaky|the)?\s*tests?(?:\s+files?)?${E}|${S}(?:remov|delet|dropp|strip|disabl|comment)(?:e|es|ed|ing)?\s+(?:out\s+)?(?:[\w\x60'"]+\s+){0,4}?[\x60'"]?(?:decorators?|rate\s+limiter|limiter|sha256\s+check|checksum\s+(?:check|verification)|signature\s+check|permission\s+checks?|\w*assert\w*permission\w*|require_\w+)${E}|${S}(?:merge|accept)\s+(?:\w+\s+){0,6}?without\s+(?:review|approval)${E}|${S}(?:commit|push)(?:ing)?\s+(?:\w+\s+)?(?:straight|directly)\s+to\s+[\x60'"]?(?:main|master)${E}`,
  String.raw`${S}(?:checks?|guards?|validation|verification|auth\w*|permission\s+checks?)\s+(?:\w+\s+){0,3}?(?:is|are)\s+(?:just\s+|effectively\s+)?(?:dead\s+code|redundant|unnecessary|not\s+needed|obsolete|a\s+no-?op)${E}`,
  String.raw`${S}admin\s+override${E}|${S}branch[-_\s]protection${E}|${S}(?:add|create|insert)\s+(?:an?\s+)?(?:hidden\s+|extra\s+|new\s+)?(?:admin|backdoor|root|superuser)\s+(?:user|account|login)${E}|${S}backdoor${E}`,
].join("|");

/** An extra act slipped into the user's: "also add … in the same edit", "as part of the same change", "while you're at it". */
const PIGGYBACK = String.raw`${S}(?:in|as\s+part\s+of)\s+the\s+same\s+(?:edit|change|commit|diff|pr|pull\s+request|step|run|patch)${E}|${S}while\s+you(?:['’]re|\s+are)\s+(?:at\s+it|there|looking\s+at\s+this)${E}`;

/** A decoded blob: atob, b64decode, fromhex, pack "H*", Buffer.from(…, "base64"), a reversed string. */
const DECODED = String.raw`printf\s+["'](?:\\[0-7]{3}){3,}|printf\s+["'](?:\\x[0-9a-f]{2}){3,}|${S}rot-?13${E}|${S}tr\s+['"]?a-za-z['"]?\s+['"]?n-za-m|\w{1,30}\s*\+=\s*["'][\w./:-]{1,8}["']\s*;|${S}(?:atob|b64decode|a85decode|unhexlify|fromhex|fromCharCode|decodestring)${E}|${S}pack\s*\(?\s*(?:q\s*\W|["'])H\*|${S}base64\s+(?:-d|--decode|-D)${E}|['"](?:base64|hex)['"]\s*\)|\.reverse\(\)|\.split\(\s*["']{2}\s*\)`;
/** Run as code: eval, new Function, exec, system, a pipe to a shell, Invoke-Expression; not a method (model.eval()). */
const RUN_AS_CODE = String.raw`执行|実行|실행|выполни\w*|esegui\w*|${S}(?:run|execute|exec|pipe|feed|eval)\s+(?:the\s+)?(?:result|output|decoded\s+\w+|resulting\s+\w+)${E}|\|\s*\$\{?\w+\}?\s*(?:$|\n|;|&)|(?:^|[;\n])[ \t]*\$\{?\w+\}?\s+-\w+\s+["']?https?:|${S}(?<!\.)(?:eval|exec|system|invoke-expression|iex)\s*\(|${S}eval[ \t]+(?=pack|unpack|decode|\$|["'])|${S}(?:invoke-expression|iex)\s|${S}new\s+Function\s*\(|\|\s*(?:ba|z|da)?sh${E}|${S}child_process${E}|${S}subprocess\.\w+|${S}os\.system${E}`;

/** A counterfeit turn: "Human:", "Assistant:", "System:" opening a line. */
const TURN_MARKER = String.raw`(?:^|\n)[ \t#>/*\-]{0,6}(?:Human|User|Assistant|AI|System)\s*:|\*\*(?:User|Human|Assistant|System)(?::\*\*|\*\*\s*:)`;
/** A counterfeit boundary of untrusted content or a system message: "-----END UNTRUSTED …", "### System message". */
const FAKE_BOUNDARY = String.raw`${S}(?:end|begin)\s+(?:of\s+)?(?:untrusted|external|web|tool|fetched|retrieved)\s+(?:web\s+)?(?:content|output|data|result|text)${E}|(?:^|\n)[ \t>#*=_-]{0,12}(?:end\s+)?system\s+(?:message|prompt)\s*[#*=_-]{0,12}(?:\n|$)`;

export const ACT_SIGNALS: readonly EvidenceSignal[] = [
  { kind: "data_slot", weight: 3, source: DATA_SLOT, negatable: false },
  { kind: "filled_from", weight: 2, source: FILLED_FROM },
  { kind: "secret_in_url", weight: 2, source: SECRET_IN_URL, negatable: false, caseSensitive: true },
  { kind: "data_of_secret", weight: 2, source: DATA_OF_SECRET },
  // The two halves of a decode-and-run chain: they count only as a pair (threat-evidence.ts, PAIRS).
  { kind: "decoded", weight: 0, part: true, source: DECODED, negatable: false },
  { kind: "run_as_code", weight: 0, part: true, source: RUN_AS_CODE, negatable: false },
  { kind: "slot", weight: 1, source: SLOT, negatable: false },
  { kind: "slot", weight: 1, source: CAPITAL_SLOT, negatable: false, caseSensitive: true },
  { kind: "harvest", weight: 2, source: HARVEST },
  { kind: "swapped_source", weight: 1, source: SWAPPED_SOURCE },
  { kind: "secret", weight: 1, source: SECRET },
  { kind: "secret", weight: 1, source: SECRET_NAME, negatable: false, caseSensitive: true },
  { kind: "sink", weight: 1, source: SINK },
  { kind: "persist", weight: 1, source: PERSIST },
  { kind: "access_grant", weight: 2, source: ACCESS_GRANT },
  { kind: "secret_sent", weight: 4, source: SECRET_SENT, negatable: false },
  { kind: "harm", weight: 1, source: HARM },
  { kind: "weaken", weight: 1, source: WEAKEN },
  { kind: "piggyback", weight: 1, source: PIGGYBACK },
  { kind: "turn_marker", weight: 1, source: TURN_MARKER, negatable: false, caseSensitive: true },
  { kind: "fake_boundary", weight: 2, source: FAKE_BOUNDARY, negatable: false },
  { kind: "carry_out", weight: 2, source: CARRY_OUT, negatable: false },
];
