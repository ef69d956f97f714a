import { scanToolOutput, type UntrustedOutputKind } from "../security/tool-output-scan.js";
import type { Tool, ToolResult } from "../tools/tool.js";
import type { AgentEventSink } from "../tools/turn-events.js";
import { findingsSummary, findingsWarning, UNTRUSTED_OUTPUT_NOTICE, wrapUntrusted } from "../web/untrusted-content.js";

/**
 * Item 8 of the containment work: text from files, commands and MCP servers is scanned like fetched pages. Done once
 * here, by the tool's declared kind (`Tool.untrustedOutput`), rather than in each tool. Flagged output still reaches
 * the model, whole: a coding agent must be able to read a hostile file (to delete it, or explain it), just never as
 * instructions. So it is wrapped as untrusted data with the findings (which pattern, which line), and the user gets a
 * notice saying where it came from. Unflagged output is returned as it was: a notice per clean file would train
 * users to ignore notices.
 */
export function flagUntrustedOutput(
  tool: Tool,
  args: Readonly<Record<string, unknown>> | undefined,
  result: ToolResult,
  emit: AgentEventSink,
): ToolResult {
  const kind = tool.untrustedOutput;
  if (!kind || alreadyWrapped(kind, result.content)) return result;
  const findings = scanToolOutput(result.content, kind);
  if (findings.length === 0) return result;
  const subject = describeCall(tool.name, args);
  const content = wrapUntrusted(
    tool.name,
    result.content,
    [findingsWarning(`this ${KIND_WORDS[kind]} (${subject})`, findings)],
    UNTRUSTED_OUTPUT_NOTICE,
  );
  emit({
    type: "notice",
    title: "Possible prompt injection",
    message: `${subject}: ${findingsSummary(findings)}. The model was given it as untrusted data, not as instructions.`,
  });
  return { ...result, content };
}

const KIND_WORDS: Readonly<Record<UntrustedOutputKind, string>> = {
  file: "file content",
  command: "command output",
  mcp: "MCP tool result",
  image: "image description",
};

/**
 * read_file and search_files already wrap the pages web_extract saved (saved-pages.ts), scanned as web text. Only
 * their own output can start with the wrapper (a file's lines start with `N|`, a match with its path), so this cannot
 * be used by a file to skip the scan. Command and MCP output are never taken as wrapped: their text is the command's
 * or the server's from the first character.
 */
function alreadyWrapped(kind: UntrustedOutputKind, content: string): boolean {
  return kind === "file" && content.startsWith("<untrusted_tool_result source=");
}

const MAX_SUBJECT_CHARS = 80;

/** The call in a few words for the user: the tool and the path, command or first string argument it was given. */
function describeCall(name: string, args: Readonly<Record<string, unknown>> | undefined): string {
  const pick =
    args &&
    (["path", "command", "pattern", "session_id"].map((k) => args[k]).find((v) => typeof v === "string") as
      | string
      | undefined);
  if (!pick) return name;
  const short = pick.length > MAX_SUBJECT_CHARS ? `${pick.slice(0, MAX_SUBJECT_CHARS - 1)}…` : pick;
  return `${name} ${short.replace(/\s+/g, " ")}`;
}
