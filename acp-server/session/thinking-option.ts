import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { type Conversation, type ReasoningEffort, reasoningSupportOf, shownEffort } from "../../agent/index.js";

/** The config option's id and category, as upstream's ACP adapter names them. */
export const THINKING_OPTION_ID = "reasoning_effort";

const LABELS: Readonly<Record<ReasoningEffort, string>> = {
  none: "None",
  minimal: "Minimal",
  low: "Low",
  medium: "Medium",
  high: "High",
  xhigh: "Extra high",
};

/**
 * The "Thinking" select (category `thought_level`) for the session's current model, listing the levels that model
 * accepts; undefined for a model not known to take reasoning parameters (upstream: "unknown capability is not
 * permission to advertise a generic effort ladder"). The current value is the chosen level as this model gets it,
 * or, with none chosen, what the model does by default.
 */
export function thinkingOption(conversation: Conversation): SessionConfigOption | undefined {
  const support = reasoningSupportOf(conversation.runtime);
  if (support.status !== "supported") return undefined;
  return {
    id: THINKING_OPTION_ID,
    name: "Thinking",
    description: "How hard the model reasons before it answers",
    category: "thought_level",
    type: "select",
    currentValue: shownEffort(support, conversation.reasoningEffort),
    options: support.efforts.map((effort) => ({ value: effort, name: LABELS[effort] })),
  };
}

/** The level a client chose, if the current model offers it. */
export function thinkingChoice(conversation: Conversation, value: unknown): ReasoningEffort | undefined {
  const support = reasoningSupportOf(conversation.runtime);
  if (support.status !== "supported") return undefined;
  return support.efforts.find((effort) => effort === value);
}
