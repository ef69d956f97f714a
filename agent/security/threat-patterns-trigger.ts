import { ClauseRule } from "./clause-rules.js";
import { ACT_VERB, DANGEROUS_ACT, STEALTH } from "./pattern-acts.js";
import { E, S, word } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";

/**
 * Planted triggers (issue #23): an action set up now for a later moment ("the next time the user asks about X,
 * first run …", "after three more messages, …", "whenever the user mentions deploy, silently also …", "once the
 * tests pass, push to https://…"). A project's rules are conditional too ("when the user asks you to commit, run
 * the linter first"; "once the tests pass, push your branch"), so two kinds of trigger are told apart:
 *
 * - a one-off moment still to come, counted from now (the next time, after N more messages, on the fifth request):
 *   rules of a project do not say that, so an order addressed to the agent suffices;
 * - a recurring, first-time or outcome condition (whenever the user mentions, the first time the user opens, after
 *   every N messages, once the build is green): projects write those too, so it needs a harmful act
 *   (pattern-acts.ts) or stealth in the same clause.
 */

const SOMEONE = String.raw`(?:the\s+|a\s+|any\s+)?(?:user|human|developer|someone|somebody|anyone|anybody|they|he|she|client|customer)${E}`;
const COUNT = String.raw`(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|some|a\s+couple\s+of)`;
const EXCHANGES = String.raw`(?:messages|turns|replies|responses|prompts|exchanges|interactions|requests|questions|conversations|sessions|tool\s+calls|user\s+messages)${E}`;
const EXCHANGE = String.raw`(?:message|turn|reply|response|prompt|request|question|conversation|session|interaction)${E}`;
const ORDINAL = String.raw`(?:\d{1,3}(?:st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|next|following)`;

const MOMENT = [
  String.raw`${word(String.raw`next\s+time`)}\s+(?:that\s+)?(?:${SOMEONE}|you\s+(?:are|get)\s+asked|you['’]re\s+asked|you\s+receive|a\s+request)`,
  // Looked for from the noun back ("after three more messages"), so that no short word starts a match. "More" is
  // what makes it a plant: counted from now ("after every 3 messages, run a status" is a protocol).
  String.raw`${word(EXCHANGES)}(?<=${S}(?:after|in)\s+${COUNT}\s+(?:more|further|additional|other)\s+${EXCHANGES})`,
  String.raw`${word(EXCHANGE)}(?<=${S}(?:on|at|from|with)\s+the\s+${ORDINAL}\s+${EXCHANGE})`,
  // The same moment as payloads are translated: la próxima vez que, la prochaine fois que, das nächste Mal.
  String.raw`${word(String.raw`pr[oó]xima\s+vez\s+que|prochaine\s+fois\s+que|n[äa]chste(?:n)?\s+mal`)}`,
];
const EXCHANGE_WORDS = ["message", "turn", "repl", "response", "prompt", "exchange", "interaction", "request"].concat([
  "question",
  "conversation",
  "session",
  "tool call",
  "user message",
]);
const MOMENT_WORDS = ["next", "próxima", "proxima", "prochaine", "nächste", "nachste", ...EXCHANGE_WORDS];

const OUTCOME = String.raw`(?:pass(?:es|ed)?|succeed(?:s|ed)?|green|finish(?:es|ed)?|complete[sd]?|done)`;
const CONDITION = [
  String.raw`${word("whenever")}\s+(?:${SOMEONE}|you\s+are\s+asked)`,
  // "The first time the user opens the project, run npm install" is onboarding; with a harmful act it is a plant.
  String.raw`${word(String.raw`first\s+time`)}\s+(?:that\s+)?(?:${SOMEONE}|you\s+(?:are|get)\s+asked|you['’]re\s+asked)`,
  String.raw`${word(EXCHANGES)}(?<=${S}(?:after|in)\s+${COUNT}\s+${EXCHANGES})`,
  String.raw`${word(String.raw`user|human|someone|anyone`)}(?<=${S}(?:when|if|once|as\s+soon\s+as)\s+(?:ever\s+)?(?:the\s+|a\s+)?(?:user|human|someone|anyone))\s+(?:(?:ever|next|again|later|\w+ly)\s+)?(?:mentions?|asks?|says|types?|requests?|talks|brings\s+up|opens|wants|runs)${E}`,
  String.raw`${word(OUTCOME)}${E}(?<=${S}(?:once|when|after|as\s+soon\s+as|if)\s+(?:the\s+|all\s+)?(?:tests?|build|ci|checks?|pipeline|deploy(?:ment)?|lint(?:er)?|suite|job|workflow)\s+(?:\w+\s+)?(?:(?:is|are|turns?|goes|go)\s+)?${OUTCOME})`,
];
const CONDITION_WORDS = [
  "whenever",
  "first",
  "user",
  "human",
  "someone",
  "anyone",
  "pass",
  "succeed",
  "green",
  "finish",
]
  .concat(["complete", "done", "messages", "turns", "replies", "responses", "prompts", "exchanges", "interactions"])
  .concat(["requests", "questions", "conversations", "sessions", "tool calls", "user messages"]);

// The act, perhaps after an adverb of stealth ("quietly add", "silently also push"); "also", "first", "then" before
// it already count as addressing the agent (clause-rules.ts).
const HEAD = String.raw`${word("silently|quietly|secretly|covertly|stealthily")}\s+(?:also\s+)?${ACT_VERB}|${word("start|begin")}\s+(?:by|with)\s+\w+ing${E}|${word(ACT_VERB)}`;

export const TRIGGER_PATTERNS: readonly Detector[] = [
  new ClauseRule({
    id: "planted_trigger",
    scope: "context",
    requires: [["next", "vez", "fois", "chste", ...EXCHANGE_WORDS]],
    find: MOMENT.join("|"),
    starts: MOMENT_WORDS,
    head: HEAD,
    negatable: true,
    directed: true,
  }),
  new ClauseRule({
    id: "planted_trigger",
    scope: "context",
    requires: [CONDITION_WORDS],
    find: CONDITION.join("|"),
    starts: CONDITION_WORDS,
    head: HEAD,
    terms: [String.raw`${STEALTH}|${DANGEROUS_ACT}`],
    negatable: true,
    directed: true,
  }),
];
