/**
 * The subagent's own instructions, word for word the Python original's leaf prompt (`_build_child_system_prompt`):
 * the task, the context the parent passed, the workspace path, and what the final summary must contain. It follows
 * the base Hermes prompt (identity and tool guidance), as upstream's ephemeral system prompt does.
 */
export function buildChildTaskPrompt(
  goal: string,
  context: string | undefined,
  workspacePath: string | undefined,
): string {
  const parts = ["You are a focused subagent working on a specific delegated task.", "", `YOUR TASK:\n${goal}`];
  if (context?.trim()) parts.push(`\nCONTEXT:\n${context}`);
  if (workspacePath?.trim()) {
    parts.push(
      `\nWORKSPACE PATH:\n${workspacePath}\n` +
        "Use this exact path for local repository/workdir operations unless the task explicitly says otherwise.",
    );
  }
  parts.push(
    "\nComplete this task using the tools available to you. " +
      "When finished, provide a clear, concise summary of:\n" +
      "- What you did\n" +
      "- What you found or accomplished\n" +
      "- Any files you created or modified\n" +
      "- Any issues encountered\n\n" +
      "Important workspace rule: Never assume a repository lives at /workspace/... or any other container-style path unless the task/context explicitly gives that path. " +
      "If no exact local path is provided, discover it first before issuing git/workdir-specific commands.\n\n" +
      "Be thorough but concise -- your response is returned to the parent agent as a summary.",
  );
  return parts.join("\n");
}
