import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { displayPath, type ToolResult } from "../agent/index.js";
import { delegateStartText, delegateTitle } from "./delegation-view.js";

/** How a tool call looks in an editor: the kind drives the icon, the title is what the user reads. */
export interface ToolCallView {
  readonly title: string;
  readonly kind: ToolKind;
  readonly locations: ToolCallLocation[];
  readonly content: ToolCallContent[];
}

type Args = Readonly<Record<string, unknown>> | undefined;

const KINDS: Readonly<Record<string, ToolKind>> = {
  read_file: "read",
  write_file: "edit",
  patch: "edit",
  search_files: "search",
  terminal: "execute",
  process: "execute",
};

/** Text content shown for a finished call is capped like upstream's (5,000 characters). */
const MAX_SHOWN_CHARS = 5000;

const str = (value: unknown) => (typeof value === "string" ? value : "");
const shorten = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

export function toolCallStartView(name: string, args: Args, cwd: string): ToolCallView {
  const path = str(args?.path);
  const shown = path ? displayPath(absolute(path, cwd), cwd) : "";
  const locations: ToolCallLocation[] = path
    ? [{ path: absolute(path, cwd), ...(typeof args?.offset === "number" ? { line: args.offset } : {}) }]
    : [];
  const text = (t: string): ToolCallContent[] => [{ type: "content", content: { type: "text", text: t } }];
  switch (name) {
    case "read_file":
      return { title: `Read ${shown}`, kind: "read", locations, content: [] };
    case "write_file":
      return { title: `Write ${shown}`, kind: "edit", locations, content: [] };
    case "patch":
      return {
        title: str(args?.mode) === "patch" ? "Apply patch" : `Edit ${shown}`,
        kind: "edit",
        locations,
        content: [],
      };
    case "search_files":
      return {
        title: `Search for '${shorten(str(args?.pattern), 60)}'${path ? ` in ${shown}` : ""}`,
        kind: "search",
        locations: [],
        content: [],
      };
    case "terminal": {
      const command = str(args?.command);
      return { title: `Run ${shorten(command)}`, kind: "execute", locations: [], content: text(`$ ${command}`) };
    }
    case "process":
      return {
        title: `Process ${str(args?.action)}${args?.session_id ? ` ${str(args.session_id)}` : ""}`,
        kind: "execute",
        locations: [],
        content: [],
      };
    case "todo":
      return {
        title: Array.isArray(args?.todos)
          ? `Update plan (${args.todos.length} item${args.todos.length === 1 ? "" : "s"})`
          : "Read plan",
        kind: "other",
        locations: [],
        content: [],
      };
    case "memory": {
      const operations = Array.isArray(args?.operations) ? args.operations.length : 0;
      const what = operations > 0 ? `batch (${operations} operation${operations === 1 ? "" : "s"})` : str(args?.action);
      return { title: `Memory ${what}: ${str(args?.target) || "memory"}`, kind: "other", locations: [], content: [] };
    }
    case "skill_view": {
      // Upstream's ACP title: `skill view (name[/file])`; a skill's files are read, so the kind is `read`.
      const file = str(args?.file_path).trim();
      return {
        title: `skill view (${str(args?.name).trim() || "?"}${file ? `/${file}` : ""})`,
        kind: "read",
        locations: [],
        content: [],
      };
    }
    case "skills_list":
      return {
        title: str(args?.category).trim() ? `skills list (${str(args?.category).trim()})` : "skills list",
        kind: "read",
        locations: [],
        content: [],
      };
    case "clarify":
      return { title: `Ask: ${shorten(str(args?.question))}`, kind: "other", locations: [], content: [] };
    case "delegate_task":
      return { title: delegateTitle(args), kind: "execute", locations: [], content: text(delegateStartText(args)) };
    case "web_search":
      return { title: `web search: ${shorten(str(args?.query))}`, kind: "fetch", locations: [], content: [] };
    case "web_extract": {
      // Upstream: `extract: {first url}` and ` (+N)` for the others.
      const urls = Array.isArray(args?.urls) ? args.urls.filter((u): u is string => typeof u === "string") : [];
      return {
        title: `extract: ${shorten(urls[0] ?? "")}${urls.length > 1 ? ` (+${urls.length - 1})` : ""}`,
        kind: "fetch",
        locations: [],
        content: [],
      };
    }
    default:
      return { title: name || "Unknown tool", kind: KINDS[name] ?? "other", locations, content: [] };
  }
}

/** The finished call: diffs for edits (whole-file texts), then the result text. */
export function toolCallEndContent(result: ToolResult): ToolCallContent[] {
  const content: ToolCallContent[] = (result.edits ?? []).map((edit) => ({
    type: "diff",
    path: edit.path,
    oldText: edit.oldText,
    newText: edit.newText ?? "",
  }));
  const text =
    result.content.length > MAX_SHOWN_CHARS
      ? `${result.content.slice(0, MAX_SHOWN_CHARS)}\n... (${result.content.length} chars total, truncated)`
      : result.content;
  if (text) content.push({ type: "content", content: { type: "text", text } });
  return content;
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
