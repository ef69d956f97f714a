import type { FileEdit } from "./tool.js";

/**
 * The only way tools ask the user. The ACP server answers through `session/request_permission`; a front end that
 * cannot ask says so (`canAsk` false), and tools tell the model plainly instead of waiting.
 */
export type CommandApproval = "once" | "session" | "always" | "deny";

export interface CommandApprovalRequest {
  readonly toolCallId: string;
  readonly command: string;
  /** Why it needs approval, e.g. "recursive delete". */
  readonly description: string;
  /**
   * Offer "always": the description (the approval key, upstream's semantics) is saved to command_allowlist, so every
   * later command matching the same rule runs without asking.
   */
  readonly allowPermanent: boolean;
  /**
   * Offer "for this session" (the description is remembered until the session ends). False when the command changes
   * files outside the workspace: such a command asks every time. Absent means true.
   */
  readonly allowSession?: boolean;
  /**
   * The smart-approval judge said DENY and the user may override it for this one run only: offer just "once" and
   * "deny" (upstream's `smart_denied` prompt).
   */
  readonly smartDenied?: boolean;
  /**
   * The command failed on the OS sandbox's walls and would run again outside it: offer only "once" and "deny"
   * ("Run outside the sandbox?"). Nothing is remembered: each escape from containment is asked about.
   */
  readonly outsideSandbox?: boolean;
}

export interface EditApprovalRequest {
  readonly toolCallId: string;
  /** The proposed changes, whole-file texts before and after, for the diff shown with the question. */
  readonly edits: readonly FileEdit[];
  /** Why accept-edits could not write it alone (outside the workspace, inside .git, ...), to show with the question. */
  readonly reason?: string;
}

/** The answer to a read outside the workspace: this read only, or the folder for the rest of the session. */
export type ReadApproval = "once" | "session" | "deny";

export interface ReadApprovalRequest {
  readonly toolCallId: string;
  /** The tool that reads (read_file, search_files). */
  readonly tool: string;
  /** What is read, symlinks resolved. */
  readonly path: string;
  /** The folder a "session" answer allows: the file's folder, or the folder a search walks. */
  readonly folder: string;
  /** Whether a "session" answer covers the folder's subfolders too (a search reads the whole tree). */
  readonly recursive: boolean;
}

export interface ClarifyRequest {
  readonly toolCallId: string;
  readonly question: string;
  readonly choices: readonly string[];
}

export interface Approver {
  readonly canAsk: boolean;
  approveCommand(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandApproval>;
  /** True only when the user allowed the edit. */
  approveEdit(request: EditApprovalRequest, signal: AbortSignal): Promise<boolean>;
  /** A read outside the workspace (not on the allowlist); anything but an answer is "deny". */
  approveRead(request: ReadApprovalRequest, signal: AbortSignal): Promise<ReadApproval>;
  /** The user's answer, or undefined when they dismissed the question. */
  clarify(request: ClarifyRequest, signal: AbortSignal): Promise<string | undefined>;
}

/** For front ends that cannot ask anyone (one-shot runs without a client that answers). */
export const NON_INTERACTIVE_APPROVER: Approver = {
  canAsk: false,
  approveCommand: async () => "deny",
  approveEdit: async () => false,
  approveRead: async () => "deny",
  clarify: async () => undefined,
};
