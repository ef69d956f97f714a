import { createInterface } from "node:readline/promises";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";

/**
 * Answers a permission request in `chat` mode: on a terminal, the user picks an option by number; without one
 * (a pipe, CI) nobody can consent, so the first reject option is chosen.
 */
export async function askOnTerminal(
  request: RequestPermissionRequest,
  write: (text: string) => void,
): Promise<RequestPermissionResponse> {
  const reject = request.options.find((o) => o.kind === "reject_once" || o.kind === "reject_always");
  if (!process.stdin.isTTY) {
    write(`\n[permission needed: ${request.toolCall.title ?? "tool call"} — denied, no terminal to ask on]\n`);
    return reject
      ? { outcome: { outcome: "selected", optionId: reject.optionId } }
      : { outcome: { outcome: "cancelled" } };
  }
  write(`\n${request.toolCall.title ?? "The agent asks for permission"}\n`);
  request.options.forEach((option, i) => write(`  ${i + 1}) ${option.name}\n`));
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = Number((await rl.question("Choose: ")).trim());
    const chosen = request.options[answer - 1] ?? reject;
    return chosen
      ? { outcome: { outcome: "selected", optionId: chosen.optionId } }
      : { outcome: { outcome: "cancelled" } };
  } finally {
    rl.close();
  }
}
