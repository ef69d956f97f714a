import { isReasoningEffort, REASONING_EFFORTS, type ReasoningEffort } from "./model-reasoning.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/**
 * `agent.reasoning_effort` in config.yaml: how hard models that can reason should think. Unset (or an empty string,
 * as upstream writes it) leaves each model its default. Upstream quietly falls back to its default on a value it does
 * not know; we point at the line instead, since a typo would otherwise silently cost (or save) thinking.
 */
export function readReasoningEffort(yaml: YamlFile): ReasoningEffort | undefined {
  const agent = yaml.data.agent;
  if (agent === undefined || agent === null) return undefined;
  if (typeof agent !== "object" || Array.isArray(agent))
    throw configErrorAt(yaml, ["agent"], "`agent` must be a mapping");
  const value = (agent as Record<string, unknown>).reasoning_effort;
  if (value === undefined || value === null) return undefined;
  const choices = REASONING_EFFORTS.join(", ");
  if (typeof value !== "string")
    throw configErrorAt(yaml, ["agent", "reasoning_effort"], `agent.reasoning_effort must be one of ${choices}`);
  const effort = value.trim().toLowerCase();
  if (!effort) return undefined;
  if (!isReasoningEffort(effort))
    throw configErrorAt(
      yaml,
      ["agent", "reasoning_effort"],
      `agent.reasoning_effort must be one of ${choices}, not '${value}'`,
    );
  return effort;
}
