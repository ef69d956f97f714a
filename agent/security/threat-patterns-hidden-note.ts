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

/** A comment is read this far; one left open reads as the rest of a page would, to this length. */
const MAX_COMMENT = 3_000;

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
      const end = close >= 0 && close - open <= MAX_COMMENT ? close + 3 : Math.min(text.length, open + MAX_COMMENT);
      const body = text.slice(open, end);
      if (toAgent.test(body) && fetches.test(body)) return { index: open, end };
      open = text.indexOf("<!--", end);
    }
    return undefined;
  }

  regexesFor(variant: Variant): readonly [RegExp, RegExp] {
    return (this.compiled[variant] ??= [
      compilePythonPattern(TO_AGENT, "iu", variant),
      compilePythonPattern(FETCHES, "iu", variant),
    ]);
  }
}

export const HIDDEN_NOTE_PATTERNS: readonly Detector[] = [new HiddenNoteRule()];
