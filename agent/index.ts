// biome-ignore-all assist/source/organizeImports: grouped by purpose, one comment per group
/**
 * The engine's front door: everything a front end (acp-server today, any other editor protocol tomorrow) may use,
 * and nothing else. A front end imports agent/ through this file and the two side entries beside it, never a deep
 * module, so the engine can move its modules between folders without touching a front end.
 *
 * Loading this file loads the whole engine (config, YAML, prompt builder, scanner, tools): that is why it is never
 * imported on a path that runs before the ACP `initialize` reply. Two side entries serve those paths:
 * - index-redaction.ts: the log's redaction, needed from the first line the process writes (and by the extension,
 *   which must not bundle the engine);
 * - index-mcp.ts: the MCP client, loaded with `import()` only by a session that has MCP servers;
 * - index-store.ts: the session store (sql.js and search), loaded with `import()` after the session/new reply.
 * The provider SDKs and sql.js stay behind the engine's own `import()`s, so importing this file does not load them.
 * Type-only imports of this file cost nothing at run time and may come from anywhere.
 *
 * The exports are grouped by what a front end does with them, not sorted: Biome's import sorting is off here.
 */

// Configuration: HERMES_HOME, config.yaml and what it says about tools, skills, the provider and its models.
export { ConfigError, type ConfigProblem, formatConfigProblem } from "./config/config-error.js";
export { type Env, resolveHermesHome } from "./config/hermes-home.js";
export { type HermesConfig, loadHermesConfig } from "./config/load-config.js";
export { type McpServerSettings, readMcpServerSettings } from "./config/mcp-server-settings.js";
export {
  isReasoningEffort,
  type ReasoningEffort,
  reasoningSupportOf,
  shownEffort,
} from "./config/model-reasoning.js";
export type { ApiMode } from "./config/provider-catalog.js";
export { resolveRuntimeProvider } from "./config/runtime-provider.js";
export { readSkillSettings } from "./config/skill-settings.js";
export { readToolSettings } from "./config/tool-settings.js";

// First-run setup (`--setup`): the providers to choose from, writing config.yaml and .env, one test call to the model.
export { configPathOf, dotenvPathOf } from "./config/hermes-home.js";
export { defaultModelOf } from "./config/default-models.js";
export { readDotenvValues, setDotenvValue } from "./config/dotenv-writer.js";
export { isHttpUrl } from "./config/http-url.js";
export { assertConfigEditable, writeModelChoice } from "./config/model-choice-writer.js";
export { findProvider, knownProviderIds, type ProviderInfo } from "./config/provider-catalog.js";
export { probeModel } from "./providers/model-probe.js";
export { listServerModels } from "./providers/server-models.js";

// Opening a session: the conversation with its system prompt, tools and model, its mode, and the saved history.
export { fromStoredMessages, toolNamesOf, toStoredMessages } from "./session/history-codec.js";
export {
  buildSessionPrompt,
  type PreparedConversation,
  prepareConversation,
  primeSessionOpening,
} from "./session/open-conversation.js";
export { isSessionMode, SESSION_MODES, type SessionMode } from "./tools/safety/session-mode.js";

// Running turns: the conversation, the events a turn streams, and what its tools run with.
export type { Conversation } from "./loop/conversation.js";
export { SessionToolState, type TodoItem } from "./tools/session-tool-state.js";
export type { Tool, ToolResult } from "./tools/tool.js";
export type { ToolEnvironment } from "./tools/tool-environment.js";
export type { AgentEvent, AgentEventSink, StopReason } from "./tools/turn-events.js";

// Checkpoints: the snapshot before a turn's first change, and what /rollback lists, diffs and restores.
export type { CheckpointStore } from "./checkpoints/checkpoint-store.js";
export { CheckpointError, GitMissingError } from "./checkpoints/git.js";
export type { CheckpointEntry } from "./checkpoints/history.js";
export type { FileChange } from "./checkpoints/restore.js";
export { TurnCheckpoint } from "./tools/turn-checkpoint.js";

// How a tool call reads in a front end, asked of the tool's own definition (title, kind, files, running text).
export { describeToolCall, describeToolResult, type ToolCallView } from "./session/tool-catalog.js";
export { displayPath } from "./workspace/resolve-path.js";

// Models: messages and images, token use.
export { checkImage, IMAGE_TOKEN_ESTIMATE, runtimeSeesImages } from "./providers/image-parts.js";
export type { ChatMessage, ImageAttachment } from "./providers/messages.js";
export type { TokenUsage } from "./providers/model-client.js";

// The user's message: attached files, @ references and the subdirectory hints of the files a prompt names.
export { decodeAttachmentText, MAX_ATTACHMENT_BYTES, readAttachedFile } from "./context/attached-file.js";
export { contextBudget, expandContextReferences } from "./context/context-references.js";
export { estimateTokens } from "./context/reference-parser.js";
export { type HintMemory, SubdirectoryHintTracker } from "./context/subdirectory-hints.js";

// Reports the user can ask for: the context that was loaded, the hints injected, memory.
export { formatContextReport } from "./prompt/format-context-report.js";
export { formatInjectedHints } from "./prompt/format-hint-report.js";
export type { ContextReport } from "./prompt/system-prompt.js";
export { type MemoryTarget, memoryFilePath, memoryUsage, readMemoryEntries } from "./store/memory-entries.js";

// Skills: the catalogue, loading one, and the message that invokes it.
export { blockedSkillFindings, discoverSkills, type SkillCatalog, type SkillEntry } from "./skills/skill-catalog.js";
export { loadSkillFile } from "./skills/skill-loader.js";
export { buildSkillInvocationMessage, describeSkillInvocation } from "./skills/skill-message.js";

// Saved sessions (the type only: the class is loaded through index-store.ts, after the session/new reply).
export type { SessionStore } from "./store/session-store.js";

// The seams a front end implements: the Workspace (files and commands through the editor) and the Approver.
export type {
  Approver,
  ClarifyRequest,
  CommandApproval,
  CommandApprovalRequest,
  EditApprovalRequest,
  ReadApproval,
  ReadApprovalRequest,
} from "./tools/approver.js";
export { editorTerminalArgv } from "./workspace/command-argv.js";
export { LocalWorkspace, QUIET_ENV } from "./workspace/local-workspace.js";
export {
  type CommandExit,
  type CommandSpec,
  type DirEntry,
  type FileStat,
  type RunningCommand,
  type Workspace,
  WorkspaceError,
  type WriteResult,
} from "./workspace/workspace.js";

// Safety: the sandbox's state, redaction of secrets, and the scanner's warm-up (run while the editor is idle).
export { redactSecrets } from "./index-redaction.js";
export { sandboxStatus } from "./sandbox/sandbox-status.js";
export { SCANNER_WARM_UP_PACE, warmUpScannerInSlices } from "./security/scanner-warm-up.js";
