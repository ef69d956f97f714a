import { E, S } from "./pattern-kit.js";
import { compilePythonPattern, type TextView, textViewOf, type Variant } from "./python-regex.js";
import type { Detector, Hit, ThreatScope } from "./threat-patterns.js";

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

/**
 * A comment left open is read this far, as the rest of a page would be. A closed one is read whole, to the length of
 * the scanner's window (threat-scanner.ts: padding a note past a few thousand characters must not hide it), and its
 * address to the agent and its link must stand within this distance of each other: a long commented-out section that
 * names an AI somewhere and links elsewhere is no note.
 */
const MAX_COMMENT = 3_000;
const NEAR = 3_000;

/**
 * Each comment's body read once, with two linear regexes: the comments are found by `indexOf` and never overlap, so a
 * page of 6,000 unclosed "<!--" costs one pass (a single regex over them took 2.5 s on 100 KB).
 */
class HiddenNoteRule implements Detector {
  readonly id = "hidden_agent_note";
  readonly scope: ThreatScope = "context";
  readonly requires: ReadonlyArray<readonly string[]> = [["<!--"]];
  readonly starts = ["<!--"];
  private readonly compiled: Partial<Record<Variant, readonly [RegExp, RegExp]>> = {};

  find(original: string, _at?: readonly number[], view: TextView = textViewOf(original)): Hit | undefined {
    // As the clause rules do: in the ASCII variant every regex reads the lower-cased text (same offsets).
    const text = view.variant === "ascii" ? view.lower : original;
    const [toAgent, fetches] = this.regexesFor(view.variant);
    for (let open = text.indexOf("<!--"); open >= 0; ) {
      const close = text.indexOf("-->", open + 4);
      const end = close >= 0 ? close + 3 : Math.min(text.length, open + MAX_COMMENT);
      const body = text.slice(open, end);
      if (addressNearLink(body, toAgent, fetches)) return { index: open, end };
      open = text.indexOf("<!--", end);
    }
    return undefined;
  }

  regexesFor(variant: Variant): readonly [RegExp, RegExp] {
    return (this.compiled[variant] ??= [
      // Global, for addressNearLink's walk; read with `search` (which ignores lastIndex) or from lastIndex 0.
      compilePythonPattern(TO_AGENT, "giu", variant),
      compilePythonPattern(FETCHES, "giu", variant),
    ]);
  }
}

/**
 * Whether the comment's body speaks to an agent within NEAR characters of a link or a fetch. The two kinds of place
 * are walked together in text order, each regex once over the body, keeping the last place of each kind.
 */
function addressNearLink(body: string, toAgent: RegExp, fetches: RegExp): boolean {
  if (body.length <= NEAR) return body.search(toAgent) >= 0 && body.search(fetches) >= 0;
  toAgent.lastIndex = 0;
  fetches.lastIndex = 0;
  const agents = body.matchAll(toAgent);
  const links = body.matchAll(fetches);
  let agent = agents.next();
  let link = links.next();
  let lastAgent = -Infinity;
  let lastLink = -Infinity;
  while (!agent.done || !link.done) {
    if (!agent.done && (link.done || agent.value.index <= link.value.index)) {
      lastAgent = agent.value.index;
      if (lastAgent - lastLink <= NEAR) return true;
      agent = agents.next();
    } else if (!link.done) {
      lastLink = link.value.index;
      if (lastLink - lastAgent <= NEAR) return true;
      link = links.next();
    }
  }
  return false;
}

export const HIDDEN_NOTE_PATTERNS: readonly Detector[] = [new HiddenNoteRule()];
