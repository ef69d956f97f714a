import type { ToolResult } from "../tool.js";

/**
 * What a hermes_tools function returns to the script: upstream's dict shapes (its stubs' docstrings and the
 * execute_code description promise them), made from our tools' results, whose text is written for a model. A
 * failure is upstream's `{"error": "..."}`; terminal already answers upstream's JSON; the web tools answer JSON that
 * may be wrapped as untrusted, which is unwrapped here (the script's stdout is scanned when it reaches the model).
 */
export function scriptResult(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  result: ToolResult,
): Record<string, unknown> {
  if (tool === "terminal") return terminalShape(result);
  if (result.isError) return { error: result.content };
  switch (tool) {
    case "read_file":
      return readFileShape(result.content);
    case "search_files":
      return searchShape(result.content, args.target === "files" ? "files" : String(args.output_mode ?? "content"));
    case "write_file":
    case "patch":
      return { status: "ok", message: result.content, files: (result.edits ?? []).map((e) => e.path) };
    default:
      return jsonShape(unwrapUntrusted(result.content));
  }
}

/** `{output, exit_code, error}`; the gate's note, when it added one after the JSON, rides along as `note`. */
function terminalShape(result: ToolResult): Record<string, unknown> {
  const newline = result.content.indexOf("}\n");
  const json = newline === -1 ? result.content : result.content.slice(0, newline + 1);
  const parsed = parseObject(json);
  if (!parsed) return result.isError ? { error: result.content } : { output: result.content, exit_code: 0 };
  const note = newline === -1 ? "" : result.content.slice(newline + 2).trim();
  return note ? { ...parsed, note } : parsed;
}

const MORE_LINES = /^\[\.\.\. (\d+) more lines; call read_file with offset=(\d+) to continue\]$/;

/** `{content, total_lines}`: the numbered lines as read_file shows them, and how many lines the file has. */
function readFileShape(content: string): Record<string, unknown> {
  if (/ is empty \(0 lines\)\.$/.test(content)) return { content: "", total_lines: 0 };
  const lines = content.split("\n");
  const more = MORE_LINES.exec(lines.at(-1) ?? "");
  if (more) return { content, total_lines: Number(more[2]) - 1 + Number(more[1]) };
  const last = /^(\d+)\|/.exec(lines.findLast((line) => /^\d+\|/.test(line)) ?? "");
  return { content, total_lines: last ? Number(last[1]) : lines.length };
}

/**
 * `{matches, total_count}` from search_files' lines: `{path, line, content}` for content, `{path, count}` for counts,
 * a path for names. Context lines (`path-line-text`) and separators are left out; paging notes become `note`.
 */
function searchShape(content: string, mode: string): Record<string, unknown> {
  if (/^No (matches|files matching) /.test(content) || /^No results at offset /.test(content))
    return { matches: [], total_count: 0, note: content };
  const notes: string[] = [];
  const matches: unknown[] = [];
  for (const line of content.split("\n")) {
    if (/^\[Showing results |^\(pattern is not a valid regular expression/.test(line)) {
      notes.push(line);
      continue;
    }
    if (mode === "files" || mode === "files_with_matches") {
      matches.push(line);
      continue;
    }
    const count = mode === "count" ? /^(.*):(\d+)$/.exec(line) : null;
    if (count) matches.push({ path: count[1], count: Number(count[2]) });
    const hit = mode === "content" ? /^(.*?):(\d+):(.*)$/.exec(line) : null;
    if (hit) matches.push({ path: hit[1], line: Number(hit[2]), content: hit[3] });
  }
  return { matches, total_count: matches.length, ...(notes.length > 0 ? { note: notes.join("\n") } : {}) };
}

const WRAPPED = /^<untrusted_tool_result source="[^"]*">\n([\s\S]*?)\n\n([\s\S]*)\n<\/untrusted_tool_result>$/;

/** The text inside the untrusted wrapper, with the wrapper's warnings kept apart (a flagged page says so). */
function unwrapUntrusted(content: string): { text: string; warning?: string } {
  const wrapped = WRAPPED.exec(content);
  return wrapped ? { text: wrapped[2]!, warning: wrapped[1]! } : { text: content };
}

function jsonShape({ text, warning }: { text: string; warning?: string }): Record<string, unknown> {
  const parsed = parseObject(text) ?? { output: text };
  return warning ? { ...parsed, untrusted_notice: warning } : parsed;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
