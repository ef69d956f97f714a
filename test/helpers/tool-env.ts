import { DEFAULT_SANDBOX_SETTINGS, type ToolSettings } from "../../agent/config/tool-settings.js";
import type {
  Approver,
  ClarifyRequest,
  CommandApproval,
  CommandApprovalRequest,
  EditApprovalRequest,
  ReadApproval,
  ReadApprovalRequest,
} from "../../agent/tools/approver.js";
import { SessionToolState } from "../../agent/tools/session-tool-state.js";
import type { Tool, ToolContext, ToolResult } from "../../agent/tools/tool.js";
import type { ToolEnvironment } from "../../agent/tools/tool-environment.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";

export function toolSettings(overrides: Partial<ToolSettings> = {}): ToolSettings {
  return {
    configPath: "/nonexistent/config.yaml",
    commandAllowlist: [],
    denyGlobs: [],
    approvalsMode: "manual",
    maxTurns: 90,
    memoryCharLimit: 2200,
    userCharLimit: 1375,
    terminalTimeoutSeconds: 180,
    sandbox: DEFAULT_SANDBOX_SETTINGS,
    envPassthrough: [],
    ...overrides,
  };
}

/** Stands in for the person at the editor: answers from a script and remembers what it was asked. */
export class ScriptedUser implements Approver {
  readonly commandRequests: CommandApprovalRequest[] = [];
  readonly questions: ClarifyRequest[] = [];
  readonly editRequests: EditApprovalRequest[] = [];
  readonly readRequests: ReadApprovalRequest[] = [];
  constructor(
    private readonly commandAnswers: CommandApproval[] = [],
    private readonly clarifyAnswers: Array<string | undefined> = [],
    readonly canAsk = true,
    private readonly editAnswers: boolean[] = [],
    private readonly readAnswers: ReadApproval[] = [],
  ) {}
  async approveRead(request: ReadApprovalRequest): Promise<ReadApproval> {
    this.readRequests.push(request);
    return this.readAnswers.shift() ?? "deny";
  }
  async approveEdit(request: EditApprovalRequest): Promise<boolean> {
    this.editRequests.push(request);
    return this.editAnswers.shift() ?? true;
  }
  async approveCommand(request: CommandApprovalRequest): Promise<CommandApproval> {
    this.commandRequests.push(request);
    return this.commandAnswers.shift() ?? "deny";
  }
  async clarify(request: ClarifyRequest): Promise<string | undefined> {
    this.questions.push(request);
    return this.clarifyAnswers.shift();
  }
}

export function toolEnvironment(
  root: string,
  home: string,
  approver: Approver = new ScriptedUser(),
  settings = toolSettings(),
): ToolEnvironment {
  return { workspace: new LocalWorkspace(root), approver, home, state: new SessionToolState("test-session", settings) };
}

/** Runs one tool directly, as the loop would, and returns its result. */
export function runTool(
  tool: Tool,
  args: Record<string, unknown>,
  env: ToolEnvironment,
  signal = new AbortController().signal,
  progress: (t: string) => void = () => {},
): Promise<ToolResult> {
  const ctx: ToolContext = { ...env, signal, toolCallId: "call_test", progress };
  return tool.run(args, ctx);
}
