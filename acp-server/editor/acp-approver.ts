import type {
  AgentContext,
  PermissionOption,
  RequestPermissionResponse,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import type {
  Approver,
  ClarifyRequest,
  CommandApproval,
  CommandApprovalRequest,
  EditApprovalRequest,
  ReadApproval,
  ReadApprovalRequest,
} from "../../agent/index.js";
import type { Logger } from "../rpc/log.js";

/** What /rollback asks before it restores: the files it will change, each with what happens to it. */
export interface RestoreRequest {
  readonly toolCallId: string;
  readonly title: string;
  /** Absolute paths, and in words what restoring does to each ("removed", "brought back", "edits undone"). */
  readonly files: readonly { readonly path: string; readonly effect: string }[];
}

/** Asks the user before files are restored from a checkpoint; only a selected allow restores. */
export interface RestoreApprover {
  approveRestore(request: RestoreRequest, signal: AbortSignal): Promise<boolean>;
}

/** A user who walked away does not leave a turn hanging forever: unanswered requests count as "deny". */
const ANSWER_TIMEOUT_MS = 10 * 60_000;

const COMMAND_OPTIONS: Readonly<Record<string, CommandApproval>> = {
  allow_once: "once",
  allow_session: "session",
  allow_always: "always",
  deny: "deny",
};

/**
 * Asks the editor's user through `session/request_permission`, attached to the tool call being approved so the
 * client shows the question on that call's card. Options as the Python adapter offers them (hermes-behaviour.md
 * §8.3); anything but a selected allow option is a denial, and the turn's cancellation cancels the question.
 */
export class AcpApprover implements Approver, RestoreApprover {
  readonly canAsk = true;

  constructor(
    private readonly sessionId: string,
    private readonly client: AgentContext,
    private readonly log: Logger,
  ) {}

  async approveCommand(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandApproval> {
    // Overriding a smart-approval DENY is for this one run: upstream offers only "Allow once" and "Deny" then.
    // So is running a command again outside the OS sandbox: each escape from containment is its own question.
    const once = request.smartDenied === true || request.outsideSandbox === true;
    // A session or permanent answer covers every command of the same rule (upstream's key is the rule's
    // description), so the label names the rule, not this command: "Allow recursive delete for this session".
    const session = !once && request.allowSession !== false;
    const options: PermissionOption[] = [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      ...(session
        ? [
            {
              optionId: "allow_session",
              name: `Allow ${request.description} for this session`,
              kind: "allow_always" as const,
            },
          ]
        : []),
      ...(request.allowPermanent && session
        ? [{ optionId: "allow_always", name: `Always allow ${request.description}`, kind: "allow_always" as const }]
        : []),
      { optionId: "deny", name: "Deny", kind: "reject_once" },
    ];
    const why = request.outsideSandbox
      ? "It failed on the sandbox's walls (it writes outside the workspace, or into a protected file). Allowing runs it once more, outside the sandbox, with your permissions."
      : request.smartDenied
        ? `${request.description}\nSmart approval said DENY: allowing overrides it for this one run only.`
        : request.description;
    const response = await this.ask(
      {
        toolCallId: request.toolCallId,
        title: request.outsideSandbox
          ? `Run outside the sandbox? ${request.command}`
          : `${request.description}: ${request.command}`,
        kind: "execute",
        status: "pending",
        content: [{ type: "content", content: { type: "text", text: `${why}\n$ ${request.command}` } }],
        rawInput: { command: request.command, description: request.description },
      },
      options,
      signal,
    );
    if (response?.outcome.outcome !== "selected") return "deny";
    // An option we did not offer (a confused or hostile client) is a denial, as upstream maps it.
    const chosen = response.outcome.optionId;
    return options.some((o) => o.optionId === chosen) ? (COMMAND_OPTIONS[chosen] ?? "deny") : "deny";
  }

  /** Upstream's edit approval: the diff on the tool call, "Allow edit" or "Deny"; only a selected allow approves. */
  async approveEdit(request: EditApprovalRequest, signal: AbortSignal): Promise<boolean> {
    const paths = request.edits.map((e) => e.path);
    const response = await this.ask(
      {
        toolCallId: request.toolCallId,
        title: `Approve edit: ${paths.length === 1 ? paths[0] : `${paths.length} files`}${request.reason ? ` (${request.reason})` : ""}`,
        kind: "edit",
        status: "pending",
        content: request.edits.map((e) => ({
          type: "diff" as const,
          path: e.path,
          oldText: e.oldText,
          newText: e.newText ?? "",
        })),
        locations: paths.map((path) => ({ path })),
      },
      [
        { optionId: "allow_once", name: "Allow edit", kind: "allow_once" },
        { optionId: "deny", name: "Deny", kind: "reject_once" },
      ],
      signal,
    );
    return response?.outcome.outcome === "selected" && response.outcome.optionId === "allow_once";
  }

  /** /rollback: the list of files on the question, "Restore" or "Cancel". */
  async approveRestore(request: RestoreRequest, signal: AbortSignal): Promise<boolean> {
    const lines = request.files.map((f) => `- ${f.path} (${f.effect})`);
    const response = await this.ask(
      {
        toolCallId: request.toolCallId,
        title: request.title,
        kind: "edit",
        status: "pending",
        content: [
          { type: "content", content: { type: "text", text: `Restoring changes these files:\n${lines.join("\n")}` } },
        ],
        locations: request.files.map((f) => ({ path: f.path })),
      },
      [
        { optionId: "allow_once", name: "Restore", kind: "allow_once" },
        { optionId: "deny", name: "Cancel", kind: "reject_once" },
      ],
      signal,
    );
    return response?.outcome.outcome === "selected" && response.outcome.optionId === "allow_once";
  }

  /**
   * A read outside the workspace: "Allow once", "Allow reading <folder> for this session" (the label says exactly
   * what the session answer covers), or "Deny"; only a selected allow option allows.
   */
  async approveRead(request: ReadApprovalRequest, signal: AbortSignal): Promise<ReadApproval> {
    const scope = request.recursive ? `${request.folder} and its subfolders` : request.folder;
    const options: PermissionOption[] = [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_session", name: `Allow reading ${scope} for this session`, kind: "allow_always" },
      { optionId: "deny", name: "Deny", kind: "reject_once" },
    ];
    const text = `${request.tool} wants to read ${request.path}, which is outside the workspace.`;
    const response = await this.ask(
      {
        toolCallId: request.toolCallId,
        title: `Read outside the workspace: ${request.path}`,
        kind: "read",
        status: "pending",
        content: [{ type: "content", content: { type: "text", text } }],
        locations: [{ path: request.path }],
      },
      options,
      signal,
    );
    if (response?.outcome.outcome !== "selected") return "deny";
    const chosen = response.outcome.optionId;
    return chosen === "allow_once" ? "once" : chosen === "allow_session" ? "session" : "deny";
  }

  async clarify(request: ClarifyRequest, signal: AbortSignal): Promise<string | undefined> {
    // ACP v1 has no free-text question: choices become the options; without choices the user answers in chat.
    if (request.choices.length === 0) return undefined;
    const options: PermissionOption[] = [
      ...request.choices.map((choice, i) => ({ optionId: `choice-${i}`, name: choice, kind: "allow_once" as const })),
      { optionId: "dismiss", name: "None of these", kind: "reject_once" },
    ];
    const response = await this.ask(
      {
        toolCallId: request.toolCallId,
        title: request.question,
        kind: "think",
        status: "pending",
        content: [{ type: "content", content: { type: "text", text: request.question } }],
      },
      options,
      signal,
    );
    if (response?.outcome.outcome !== "selected") return undefined;
    const index = Number(response.outcome.optionId.replace("choice-", ""));
    return request.choices[index];
  }

  private async ask(
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse | undefined> {
    const timeout = AbortSignal.timeout(ANSWER_TIMEOUT_MS);
    const combined = AbortSignal.any([signal, timeout]);
    try {
      return await this.client.request(
        "session/request_permission",
        { sessionId: this.sessionId, toolCall, options },
        { cancellationSignal: combined, stopWaitingOnCancel: true },
      );
    } catch (error) {
      this.log.debug(`permission request ended without an answer: ${(error as Error).message}`);
      return undefined;
    }
  }
}
