import { homedir } from "node:os";
import {
  type Approver,
  type HintMemory,
  type PreparedConversation,
  type SessionStore,
  SessionToolState,
  SubdirectoryHintTracker,
  type TokenUsage,
  type ToolEnvironment,
  TurnCheckpoint,
  type Workspace,
} from "../../agent/index.js";

/** What a session lends its tools, from its own parts. */
export interface SessionToolParts {
  readonly id: string;
  readonly cwd: string;
  readonly prepared: PreparedConversation;
  readonly workspace: Workspace;
  readonly approver: Approver;
  readonly store?: Promise<SessionStore>;
  readonly log?: (message: string) => void;
  readonly hintMemory?: HintMemory;
  /** Counts subagents' model calls in the session's usage. */
  readonly recordChildUsage: (usage: TokenUsage) => void;
}

/**
 * The tools' environment of one session: its workspace and approver, its tool state (with the turn checkpoint), its
 * hint tracker, and what the prepared conversation offers (subagents, the smart judge, vision models). Made when the
 * session opens and again when /reset starts it afresh.
 */
export function sessionToolEnvironment(parts: SessionToolParts): ToolEnvironment {
  const { prepared, store } = parts;
  const home = prepared.config.home;
  const state = new SessionToolState(parts.id, prepared.toolSettings);
  state.checkpoint = new TurnCheckpoint({
    settings: prepared.checkpoints,
    workingDir: parts.cwd,
    hermesHome: home,
    sessionId: parts.id,
    ...(parts.log ? { log: parts.log } : {}),
  });
  return {
    workspace: parts.workspace,
    approver: parts.approver,
    home,
    state,
    hints: new SubdirectoryHintTracker(parts.cwd, { userHome: homedir(), hermesHome: home, memory: parts.hintMemory }),
    ...(store
      ? {
          sessions: {
            currentSessionId: parts.id,
            database: async () => {
              const s = await store;
              await s.refresh();
              return s.database;
            },
          },
        }
      : {}),
    ...(prepared.ok ? { delegation: prepared.delegationHost(parts.recordChildUsage) } : {}),
    ...(prepared.ok && prepared.commandJudge ? { judge: prepared.commandJudge } : {}),
    ...(prepared.ok ? { vision: prepared.vision } : {}),
  };
}
