import { E, pattern, S } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";

/**
 * A note for AI agents hidden in an HTML comment (issue #23): the person reading the rendered README, issue or page
 * never sees it, the agent reading the source does. Published cases (a README's "Hello, agent. A human is probably
 * reading this README, but you might be too …", a bot's "For AI coding agents: … run `curl … | sh`") point the agent
 * at a link or a remote command; upstream's html_comment_injection looks only for a few words (ignore, system,
 * secret) inside a comment. The comment must speak to the agent (agent, AI, assistant, LLM, or one by name) and hold
 * a link or a command that fetches something; a comment for people ("<!-- prettier-ignore -->", "<!-- AI agents: do
 * not edit this generated table -->") holds neither.
 */
const TO_AGENT = String.raw`${S}(?:(?:hello|hi|hey|dear|attention|note\s+(?:to|for))\s*,?\s+(?:the\s+|any\s+|all\s+|fellow\s+)?(?:ai\s+(?:coding\s+)?)?(?:agents?|ai|assistants?|llms?|language\s+models?|bots?|claude|copilot|cursor|codex|gemini|chatgpt|gpt)|(?:for|to)\s+(?:the\s+|any\s+|all\s+)?(?:ai|llm)\s+(?:coding\s+)?(?:agents?|assistants?|models?)|(?:ai|llm)\s+(?:coding\s+)?(?:agents?|assistants?)\s*[:,]|if\s+you(?:['’]re|\s+are)\s+(?:an?\s+)?(?:ai|llm|agent|assistant|bot|language\s+model)|you\s+might\s+be\s+(?:too|reading|an?\s+(?:ai|agent|bot)))${E}`;
const FETCHES = String.raw`https?://|${S}(?:curl|wget|iwr|invoke-webrequest|npx|uvx|pipx?\s+install|npm\s+(?:i|install)|git\s+clone)${E}`;

export const HIDDEN_NOTE_PATTERNS: readonly Detector[] = [
  pattern(
    "hidden_agent_note",
    [["<!--"]],
    String.raw`<!--(?:(?!-->)[\s\S]){0,1500}?(?:${TO_AGENT}(?:(?!-->)[\s\S]){0,1200}?(?:${FETCHES})|(?:${FETCHES})(?:(?!-->)[\s\S]){0,1200}?${TO_AGENT})`,
    { starts: ["<!--"] },
  ),
];
