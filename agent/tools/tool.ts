import type { Database } from "sql.js";
import type { UntrustedOutputKind } from "../security/tool-output-scan.js";
import type { Workspace } from "../workspace/workspace.js";
import type { Approver } from "./approver.js";
import type { DelegationHost } from "./delegation-host.js";
import type { CommandJudge } from "./safety/command-judge.js";
import type { SessionToolState, TodoItem } from "./session-tool-state.js";
import type { VisionModels } from "./vision/vision-models.js";

/** JSON Schema of a tool's arguments, as sent to the model (an object schema). */
export interface ToolParameters {
  readonly type: "object";
  readonly properties: Readonly<Record<string, ParameterSchema>>;
  readonly required?: readonly string[];
}

export interface ParameterSchema {
  readonly type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly items?: ParameterSchema | Readonly<Record<string, unknown>>;
  readonly properties?: Readonly<Record<string, ParameterSchema>>;
  readonly required?: readonly string[];
  readonly default?: unknown;
}

/** A file the tool changed, with whole-file texts before and after, so front ends can show and review a diff. */
export interface FileEdit {
  readonly path: string;
  /** Null for a file the tool created. */
  readonly oldText: string | null;
  /** Null for a file the tool deleted. */
  readonly newText: string | null;
}

export interface FileLocation {
  readonly path: string;
  readonly line?: number;
}

/** What a tool returns: text for the model, plus structured facts for front ends. */
export interface ToolResult {
  readonly content: string;
  /** The call failed (the model still sees `content`, which says why). */
  readonly isError?: boolean;
  readonly edits?: readonly FileEdit[];
  readonly locations?: readonly FileLocation[];
  /** The session's task list after this call (the todo tool), for front ends that show a plan. */
  readonly plan?: readonly TodoItem[];
  /** Pictures for the user's tool card (a browser screenshot); the model is given `content` only. */
  readonly images?: readonly ToolImage[];
}

/** An image a tool shows: its bytes in base64 and their type. */
export interface ToolImage {
  readonly mimeType: string;
  readonly data: string;
}

/** How a front end lends its session store to session_search (front ends without one leave it out). */
export interface SessionDatabaseAccess {
  database(): Promise<Database>;
  /** The session the tool runs in: left out of search results, since the model already has it. */
  readonly currentSessionId: string;
}

export interface ToolContext {
  readonly workspace: Workspace;
  readonly approver: Approver;
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  /** HERMES_HOME: memory files, config.yaml (command_allowlist), protected paths. */
  readonly home: string;
  readonly state: SessionToolState;
  /** Streams progress (terminal output as it arrives) to front ends while the tool runs. */
  readonly progress: (text: string) => void;
  /** The session store, for session_search; absent in front ends without one. */
  readonly sessions?: SessionDatabaseAccess;
  /** Starts subagents, for delegate_task; absent in front ends without one (and in subagents themselves). */
  readonly delegation?: DelegationHost;
  /** Reviews flagged commands first when `approvals.mode` is smart; absent otherwise (then smart asks as manual). */
  readonly judge?: CommandJudge;
  /**
   * Runs another of the session's tools inside this call (execute_code's scripts): checked as the runner checks
   * arguments, run with this same context (workspace, approver, gate, checkpoint, judge), but with no card or event
   * of its own. Absent inside such a call, so calls nest one level only.
   */
  readonly callTool?: NestedToolCall;
  /** A model that sees images (auxiliary.vision or the session's), for analyzeImage (tools/vision/analyze-image.ts). */
  readonly vision?: VisionModels;
}

/** `signal` ends the inner call sooner than the turn's (execute_code aborts what its script left in flight). */
export type NestedToolCall = (
  name: string,
  args: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
) => Promise<ToolResult>;

/** What a call does, for front ends' icons: the Agent Client Protocol's tool kinds, which every front end maps. */
export const TOOL_KINDS = [
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** How one call reads to the user: upstream's ACP title, the files it touches, and the text shown while it runs. */
export interface ToolCallDescription {
  readonly title: string;
  /** Absolute paths (the front end's cwd resolved), with the first line when the call names one. */
  readonly locations: readonly FileLocation[];
  /** Shown while the call runs and above its live output (a command, a subagent's goals); absent for most tools. */
  readonly runningText?: string;
}

/**
 * Arguments as a front end sees them when it describes a call: the validated ones, or whatever a stored history
 * holds (possibly malformed), or none; descriptions read them defensively.
 */
export type DescribedArgs = Readonly<Record<string, unknown>> | undefined;

/** A tool as the loop runs it, made with `defineTool` (agent/tools/define-tool.ts) from its definition. */
export interface Tool {
  readonly name: string;
  /** Upstream's toolsets (toolsets.py) the tool belongs to; skills and subagents name toolsets, not tools. */
  readonly toolsets: readonly string[];
  /** Drives the front end's icon. */
  readonly kind: ToolKind;
  readonly description: string;
  readonly parameters: ToolParameters;
  /** Which arguments hold paths (upstream's SubdirectoryHintTracker reads them), and which a shell command. */
  readonly pathArguments?: { readonly paths: readonly string[]; readonly command?: string };
  /** Subagents never get this tool (upstream's DELEGATE_BLOCKED_TOOLS). */
  readonly blockedInSubagents?: boolean;
  describe(args: DescribedArgs, cwd: string): ToolCallDescription;
  /** The finished call as the user reads it, when that differs from what the model got (delegate_task's JSON). */
  describeResult?(result: ToolResult): string | undefined;
  /** Interactive tools (clarify) run one at a time, after the others of the same reply. */
  readonly interactive?: boolean;
  /**
   * The output carries text the user did not write (a file's lines, a command's output, an MCP server's result):
   * the tool runner scans it and, when it looks like a prompt injection, wraps it as untrusted data with the findings
   * and tells the user (agent/loop/untrusted-output.ts). Web tools wrap their own output and leave this unset.
   */
  readonly untrustedOutput?: UntrustedOutputKind;
  /** Arguments have been checked against `parameters` (required fields present, types right) before this runs. */
  run(args: Readonly<Record<string, unknown>>, ctx: ToolContext): Promise<ToolResult>;
}

export function toolError(message: string): ToolResult {
  return { content: message, isError: true };
}
