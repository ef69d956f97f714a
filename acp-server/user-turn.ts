import { homedir } from "node:os";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { expandContextReferences } from "../agent/context/context-references.js";
import type { AcpSession } from "./acp-session.js";
import { promptFilePaths } from "./prompt-files.js";
import { promptToText } from "./prompt-text.js";

// When the model's window is unknown, budget @ references as for a 128k-token model.
const DEFAULT_CONTEXT_TOKENS = 128_000;

export interface UserTurn {
  readonly text: string;
  /** Things the user should hear about their prompt (a refused or oversized @ reference). */
  readonly warnings: readonly string[];
}

/**
 * Builds the user's message from an ACP prompt: the text and attachments, @ references expanded, and the
 * subdirectory hints of every file the prompt names (attached, selected, referenced) added to this turn.
 */
export async function buildUserTurn(session: AcpSession, blocks: readonly ContentBlock[], signal: AbortSignal): Promise<UserTurn> {
  const ready = session.ready;
  const expansion = await expandContextReferences(promptToText(blocks), {
    cwd: session.cwd,
    contextLength: (ready.ok ? ready.conversation.runtime.contextLength : undefined) ?? DEFAULT_CONTEXT_TOKENS,
    userHome: homedir(),
    hermesHome: ready.config.home,
    signal,
  });
  const hints = session.hints.checkPaths([...promptFilePaths(blocks), ...expansion.paths]);
  return {
    text: hints ? expansion.message + hints : expansion.message,
    warnings: expansion.blocked ? expansion.warnings : [],
  };
}
