import { SESSION_MODES, sandboxStatus } from "../../agent/index.js";
import type { AcpSession } from "../session/acp-session.js";

/** `/tools` (upstream's command): the session's tools by toolset, and what the current mode lets them do. */
export async function formatTools(session: AcpSession): Promise<string> {
  const ready = session.ready;
  if (!ready.ok) return `Hermes is not ready: ${ready.problem}`;
  const byToolset = new Map<string, string[]>();
  for (const tool of ready.conversation.tools) {
    const toolset = tool.toolsets[0];
    byToolset.set(toolset, [...(byToolset.get(toolset) ?? []), tool.name]);
  }
  const mode = SESSION_MODES.find((m) => m.id === session.mode);
  return [
    `Tools (${ready.conversation.tools.length}), by toolset:`,
    ...[...byToolset].map(([toolset, names]) => `  ${toolset.padEnd(12)}  ${names.join(", ")}`),
    "",
    `Mode: ${mode?.name ?? session.mode}: ${mode?.description ?? ""}`,
    MODE_EFFECTS[session.mode],
    `Sandbox: ${(await sandboxStatus(ready.toolSettings.sandbox)).summary}`,
  ].join("\n");
}

/** What each mode means for the tools, in the words of the gate's rules (README, Safety model). */
const MODE_EFFECTS: Readonly<Record<AcpSession["mode"], string>> = {
  read_only: "read_file, search_files and read-only commands run; write_file, patch and other commands are refused.",
  default: "Reads run; edits ask before they are written; dangerous commands ask; hardline commands never run.",
  accept_edits:
    "Reads and edits in the workspace run; edits outside it and dangerous commands ask; hardline commands never run.",
  yolo: "Everything runs without asking, except hardline commands, which never run.",
};
