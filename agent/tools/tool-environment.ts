import type { PathArguments } from "../context/hint-candidates.js";
import type { Workspace } from "../workspace/workspace.js";
import type { Approver } from "./approver.js";
import type { DelegationHost } from "./delegation-host.js";
import type { CommandJudge } from "./safety/command-judge.js";
import type { SessionToolState } from "./session-tool-state.js";
import type { SessionDatabaseAccess } from "./tool.js";
import type { VisionModels } from "./vision/vision-models.js";

/** Finds context files in the folders a tool call touched (the session's subdirectory-hint tracker). */
export interface HintSource {
  checkToolCall(
    toolName: string,
    args: Readonly<Record<string, unknown>> | undefined,
    pathArguments: PathArguments,
  ): string | undefined;
}

/**
 * What tools of one session run against. Here beside the tool contract rather than in loop/, because a subagent's
 * conversation (tools/delegation-host.ts) runs its turn against one too.
 */
export interface ToolEnvironment {
  readonly workspace: Workspace;
  readonly approver: Approver;
  readonly home: string;
  readonly state: SessionToolState;
  readonly hints?: HintSource;
  readonly sessions?: SessionDatabaseAccess;
  readonly delegation?: DelegationHost;
  /** The smart-approval judge (`approvals.mode: smart`). */
  readonly judge?: CommandJudge;
  /** The models that look at images (vision_analyze). */
  readonly vision?: VisionModels;
}
