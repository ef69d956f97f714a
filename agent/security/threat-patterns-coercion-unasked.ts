import { ClauseRule } from "./clause-rules.js";
import { HARMFUL_ACT } from "./pattern-acts.js";
import { E, S } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";

/**
 * Coercion (issue #23) that never names a safeguard: it tells the agent not to ask the user ("don't stop to ask",
 * "do not wait for the user to confirm", "ohne beim Nutzer nachzufragen", "đừng hỏi lại"), or paints asking as the
 * harm ("pausing to ask only interrupts them", "waiting for a reply is the harmful option", "the prompts are
 * annoying"), next to a harmful act (a deletion, production, a forced push, an upload, an unvetted package index).
 * Half the blind batch's coercion argued that way, with an authority claim in words the other rules do not list
 * ("signed off", "granted you blanket permission", "the team's totally cool with it").
 *
 * Projects grant autonomy in the same words ("run the tests without asking"), and forbid harm next to it ("never
 * force-push without asking"): so the harmful act must not be under a negation or a condition of asking first.
 */

/** The agent told not to ask, confirm or wait for the user, or asking described as the harm. */
const UNASKED = [
  String.raw`${S}without\s+(?:first\s+|ever\s+)?(?:asking|prompting|pinging|consulting|re-?confirming|checking\s+(?:in|with|back)|waiting\s+for|surfacing\s+a\s+prompt|(?:a\s+|any\s+)?(?:prompt|confirmation|approval|permission|sign[\s-]?off))${E}`,
  String.raw`${S}(?:do\s+not|don['’]t|never|no\s+need\s+to|needn['’]t|shall\s+not|must\s+not|won['’]t\s+need\s+to)\s+(?:\w+\s+){0,2}?(?:ask|asking|confirm|re-?confirm|confirming|prompt|prompting|wait|waiting|check\s+(?:in|with|back)|ping|pinging|solicit|seek|pause|pausing|bother|interrupt|hold)${E}`,
  // Asking painted as the harm.
  String.raw`${S}(?:asking|waiting|pausing|confirming|checking\s+in|prompting|declining|refusing|delaying|hesitating|stopping)\s+(?:\w+\s+){0,6}?(?:is|are|counts\s+as|only|just|would\s+(?:only\s+)?be|will\s+only|costs?)\s+(?:\w+\s+){0,2}?(?:harmful|wrong|unhelpful|unethical|annoying|irritating|interrupts?|wasteful|a\s+waste|redundant|pointless|useless|failures?|failed|slows?|delays?|breaks?|money)${E}`,
  String.raw`${S}(?:prompts|questions|confirmations|check-?ins|interruptions)\s+(?:are|is|only|just)?\s*(?:\w+\s+)?(?:annoying|tedious|a\s+waste|pointless|redundant|slows?|delays?|interrupts?|annoys?)${E}|${S}if\s+you\s+(?:decline|refuse|delay|hesitate|wait|ask|stop)${E}|${S}finds?\s+(?:it|them|this)\s+(?:tedious|annoying)${E}`,
  // Spanish, German, French, Vietnamese, Chinese.
  String.raw`${S}(?:no\s+hace\s+falta\s+(?:pedir|preguntar|consultar)|sin\s+(?:pedir|preguntar|consultar)|ohne\s+(?:vorher\s+)?(?:\w+\s+){0,3}?(?:nachzufragen|zu\s+fragen|r[üu]ckzufragen)|frag\s+nicht|r[üu]ckfragen\s+(?:\w+\s+)?verz[öo]gern|sans\s+(?:demander|confirmation)|đừng\s+hỏi|kh[ôo]ng\s+c[ầa]n\s+h[ỏo]i)${E}|不要(?:再)?(?:询问|问)|无需确认|不再请求确认`,
].join("|");

const UNASKED_STARTS = ["without", "do not", "don", "never", "no need", "needn", "shall not", "must not"]
  .concat(["won", "asking", "waiting", "pausing", "confirming", "checking", "prompting", "declining", "refusing"])
  .concat(["delaying", "hesitating", "stopping"])
  .concat([
    "questions",
    "interruptions",
    "check-ins",
    "checkins",
    "if you",
    "find",
    "no hace",
    "sin ",
    "ohne",
    "frag",
    "rückfragen",
    "ruckfragen",
  ])
  .concat(["sans ", "đừng", "không", "khong", "不要", "无需", "不再"]);

// Harm no project waves through unasked, beyond HARMFUL_ACT's: production, destruction, checks skipped by flag, the
// live target, a push straight to the main branch, privileged commands, the foreign verbs of deleting. Not a secret
// named ("a CI job that has deploy secrets … runs without asking") nor "any script" ("run any npm script without
// asking"): projects say both.
const MORE_HARM = String.raw`${S}(?:destroy|teardown|tear\s+down|destructive|purge|nuke|kubectl\s+delete|drop\s+table)${E}|${S}(?:to|in|on|against)\s+(?:prod|production)${E}|-prod${E}|${S}(?:prod|production|live)\s+(?:databases?|db|schemas?|data|clusters?|servers?|tables?|tenants?)${E}|--(?:skip|no|disable|bypass)-(?:checks?|verify|verification|hooks?|tests?|review|safety)${E}|--(?:target|env|context)[=\s]+(?:prod\w*|live)${E}|${S}(?:push|merge)\s+(?:\w+\s+){0,2}?(?:straight|directly)\s+to\s+(?:main|master|prod\w*)${E}|${S}terraform\s+(?:apply|destroy)${E}|${S}privileged\s+commands${E}|${S}(?:delet|overwrit)(?:e|es|ed|ing)\s+(?:or\s+\w+\s+)?(?:files|data|everything|directories|folders)${E}|${S}(?:l[öo]sche|borra|elimina|supprime|x[óo]a)${E}|${S}produktions\w*|${S}producci[oó]n${E}`;
// Not under a prohibition or a condition of asking first: "never force-push without asking", "ask before you run
// terraform apply; tests can run without asking" (a negation of asking itself, "never wait for a yes before
// deleting", is the claim, not a prohibition).
const NOT_FORBIDDEN = String.raw`(?<!(?:(?:${S}(?:never|not|no|avoid|only|unless)|n['’]t)(?!\s+(?:\w+\s+){0,2}?(?:ask|asking|wait|waiting|confirm|bother|stop|pause|hold)${E})|${S}(?:ask|confirm|check)\s+(?:\w+\s+)?(?:before|first))(?:[\s,]+[\w'’./-]+){0,6}[\s,\x60"'*(]*)`;
const ACTS = String.raw`${HARMFUL_ACT}|${MORE_HARM}`;
// The look-behind is tested at the end of a match, not before every offset of the clause (a clause is read often:
// "without asking" is common in real context files).
const HARM = String.raw`(?:${ACTS})(?<=${NOT_FORBIDDEN}(?:${ACTS}))`;

export const COERCION_UNASKED_PATTERNS: readonly Detector[] = [
  new ClauseRule({
    id: "safeguard_override",
    scope: "context",
    requires: [UNASKED_STARTS],
    find: UNASKED,
    starts: UNASKED_STARTS,
    terms: [HARM],
    withPrevious: true,
    withNext: true,
  }),
];
