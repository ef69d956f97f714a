/**
 * Behaviour guidance of the stable layer. Upstream's exact wording is not part of our reference; these say the
 * same things in our words, and are included under the same conditions (hermes-behaviour.md §3).
 */
export const HERMES_HELP_GUIDANCE =
  "If the user asks how to configure or use Hermes Agent itself (providers, config.yaml, SOUL.md, memory, skills, " +
  "editor setup), answer from what you know of it and point them to https://hermes-agent.nousresearch.com/docs " +
  "(or the `hermes-agent` skill when it is installed).";

export const TASK_COMPLETION_GUIDANCE =
  "# Finishing the job\nKeep working until the user's request is fully done: make the change, check it (run the " +
  "tests or the command that proves it), and only then reply. If you are blocked, say exactly what blocks you.";

export const PARALLEL_TOOL_CALL_GUIDANCE =
  "# Parallel tool calls\nWhen several tool calls do not depend on each other (reading a few files, independent " +
  "searches), make them in the same reply so they run together.";

export const MEMORY_GUIDANCE =
  "You have persistent memory across sessions: save durable facts about the user and their projects with the " +
  "memory tool, and keep entries short; do not save what is only relevant to the current task.";

export const SESSION_SEARCH_GUIDANCE =
  "When the user refers to earlier work or conversations, search past sessions with session_search before asking them.";

/** Guidance for the tools a session offers, joined with single spaces as upstream. */
export function toolGuidance(toolNames: ReadonlySet<string>): string {
  const parts: string[] = [];
  if (toolNames.has("memory")) parts.push(MEMORY_GUIDANCE);
  if (toolNames.has("session_search")) parts.push(SESSION_SEARCH_GUIDANCE);
  return parts.join(" ");
}
