import { E, S } from "./pattern-kit.js";

// Somewhere outside: a URL, an IP address, an e-mail address.
export const OUTSIDE = String.raw`https?://|${S}(?:\d{1,3}\.){3}\d{1,3}${E}|[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,12}${E}`;
// Secrets and the files that hold them.
export const SECRET_PLACES = String.raw`${S}(?:secrets?|credentials?|api[\s_-]?keys?|access[\s_-]?tokens?|tokens|passwords?|private[\s_-]?keys?|ssh[\s_-]?keys?|id_rsa|id_ed25519|keychain|cookies|wallets?|seed\s+phrases?|environment\s+variables|env\s+vars)${E}|\.env${E}|\.ssh/|~/\.ssh|\.aws/|\.npmrc|\.netrc|\.pypirc|\.git-credentials|authorized_keys|/etc/shadow|/etc/sudoers`;

// Remote or hidden code, shells with privilege, persistence.
export const REMOTE_CODE_ACT = String.raw`${S}(?:curl|wget|netcat|ncat|scp|base64|eval|sudo|crontab|cron\s+jobs?|postinstall|preinstall)${E}|\.bashrc|\.zshrc|\.profile${E}|--index-url|--extra-index-url|${S}chmod\s+(?:-R\s+)?[0-7]?77${E}`;
// Data destroyed (not history rewritten): a recursive rm, a wipe, a database or the repository deleted.
export const DESTROY_ACT = [
  String.raw`${S}rm\s+-\w+(?!\w)(?<=-\w*[rf]\w*)(?!\s+(?:\./)?(?:node_modules|dist|build|out|target|coverage|\.cache|\.next|\.turbo|tmp)(?:[/\s\x60'"]|$))|${S}(?:wip(?:e|es|ed|ing)|truncat(?:e|es|ed|ing)|nuk(?:e|es|ed|ing)|shred(?:s|ded|ding)?)${E}`,
  String.raw`${S}(?:delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|remov(?:e|es|ed|ing)|eras(?:e|es|ed|ing))\s+(?:\w+\s+){0,5}?(?:databases?|db|tables?|migrations?|\.git|repo(?:sitory)?|branch\s+protection|backups?|history|production|everything|namespaces?|ns|clusters?|buckets?|volumes?)${E}`,
].join("|");

/**
 * The acts that do harm where they are (no data named): remote or hidden code, privilege, destruction, publishing,
 * safeguards taken down, data sent out. Coercion's "without asking" needs one of these: a config file's docs say
 * "replaces the key in .env without asking".
 */
export const HARMFUL_ACT = [
  REMOTE_CODE_ACT,
  DESTROY_ACT,
  // History rewritten, safeguards of the repository taken down.
  String.raw`--force${E}|${S}force[\s-]?push|--mirror${E}|--no-verify${E}|reset\s+--hard|git\s+remote\s+(?:add|set-url)|${S}push\s+(?:\w+\s+)?--all${E}|${S}push\s+(?:\S+\s+){0,2}?--delete${E}|${S}push\s+(?:\w+\s+){0,3}?to\s+(?:an?\s+|the\s+)?(?:external|another|other|different|personal|private|mirror|outside)\s+(?:remote|repo|repository|server|host)${E}`,
  // Publishing and deploying on one's own.
  String.raw`${S}(?:npm|pnpm|yarn|cargo|gem|poetry)\s+publish${E}|${S}twine\s+upload${E}|${S}docker\s+push${E}`,
  // Taking the safeguards down.
  String.raw`${S}(?:disable|bypass|skip|turn\s+off|switch\s+off|circumvent)\s+(?:the\s+|all\s+|any\s+|your\s+)?(?:[\w-]+\s+)?(?:tests?|checks?|hooks?|ci|reviews?|sandbox|safety|security|approvals?|confirmations?|2fa|mfa|verification|signing|linters?|guardrails|safeguards|protections?)${E}`,
  // Sending something out.
  String.raw`${S}(?:upload|exfiltrate|leak|transmit|e-?mail)${E}|${S}(?:send|post|forward)\s+(?:\w+\s+){0,4}?to${E}`,
].join("|");

/**
 * What makes an order harmful rather than a house rule, shared by the coercion and trigger classes (issue #23):
 * "when the user asks you to commit, run the linter first" is a rule; "whenever the user mentions deploy, silently
 * push to https://…" is a plant. The difference is the act, not the grammar, so these name acts: sending data out,
 * touching secrets, running remote or decoded code, destroying, publishing, weakening the safeguards, and doing it
 * unseen. Each alternative is a bounded sequence of literals (no nested quantifiers), safe to run on a clause.
 */
export const DANGEROUS_ACT = [OUTSIDE, SECRET_PLACES, HARMFUL_ACT].join("|");

/**
 * Doing it unseen: silently, without telling or asking, keeping it out of the reply, waiting until nobody watches;
 * in a few other languages too (sin mencionarlo, âm thầm, 悄悄, 顺便: "while you are at it").
 */
export const STEALTH = String.raw`${S}(?:silently|quietly|secretly|covertly|stealthily|discreetly|invisibly|in\s+the\s+background|behind\s+the\s+scenes|without\s+(?:telling|mentioning|informing|notifying|asking|confirming|showing|alerting|letting|saying)|(?:do\s+not|don['’]t|never)\s+(?:mention|tell|reveal|report|show|say|ask)|no\s+need\s+to\s+(?:mention|tell|ask|confirm)|even\s+if\s+(?:the\s+user|they|nobody|no\s+one)|(?:do\s+not|don['’]t|never)\s+(?:point\s+(?:this|it)\s+out|disclose|flag|bring\s+(?:this|it)\s+up)|(?:stops?|isn['’]t|is\s+not|aren['’]t)\s+(?:watching|looking|paying\s+attention|around)|regardless\s+of\s+(?:its\s+)?(?:content|what)|sin\s+(?:mencionarlo|decirlo|avisar)|sans\s+le\s+(?:dire|mentionner)|[âa]m\s+th[ầa]m|l[ặa]ng\s+l[ẽe])${E}|悄悄|偷偷|顺便|不要告诉`;

/**
 * The verbs of an act an agent can be told to do, as the head of an order (clause-rules.ts checks that it is
 * addressed to the agent and not negated). A few imperatives of other languages, as payloads come translated.
 */
export const ACT_VERB = String.raw`(?:run|execute|exec|invoke|launch|source|eval|send|upload|post|push|publish|deploy|export|dump|save|store|switch|point|redirect|configure|approve|merge|overwrite|delete|remove|wipe|drop|add|insert|append|inject|install|download|curl|wget|fetch|read|cat|copy|include|modify|change|replace|write|edit|e-?mail|forward|transmit|disable|commit|create|call|print|output|paste|grab|collect|exfiltrate|leak|share|attach|embed|open|set|put|schedule|slip|sneak|plant|tuck|smuggle|ejecuta|incluye|a[ñn]ade|agrega|sube|copia|thêm|chạy|gửi|ejecutar|env[ií]a|borra|instala|ex[ée]cute[sz]?|lance[sz]?|envoie[sz]?|supprime[sz]?|installe[sz]?|f[üu]hre|sende|l[öo]sche|installiere)${E}`;
