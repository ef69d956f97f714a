import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";

/** The script's first non-blank line: the card's title, as upstream's ACP title `python: {first line}`. */
export function firstLine(code: string): string {
  return (
    code
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? ""
  );
}

/** Shown on the card while the script runs, above the calls it makes; a long script is cut. */
const MAX_SHOWN_SCRIPT_CHARS = 2000;

export const executeCodeTool = defineTool({
  name: "execute_code",
  toolsets: ["code_execution"],
  kind: "execute",
  // Only stdout comes back, and it carries whatever the script read: files, command output, web pages.
  untrustedOutput: "command",
  blockedInSubagents: true,
  description:
    "Run a Python script that calls Hermes tools programmatically. Use when you need 3+ tool calls with logic " +
    "between them: filtering/reducing large outputs before they enter context, branching, or loops (N pages/files, " +
    "retry on failure). Use normal tool calls for single calls, results you must reason over in full, or anything " +
    "needing user interaction. Each call runs a fresh interpreter: nothing survives between calls.\n\n" +
    "Available via `from hermes_tools import ...`:\n\n" +
    "  web_search(query: str, limit: int = 5) -> dict\n" +
    '    Returns {"data": {"web": [{"url", "title", "description"}, ...]}}\n' +
    "  web_extract(urls: list[str], char_limit: int = None) -> dict\n" +
    '    Returns {"results": [{"url", "title", "content", "error"}, ...]} where content is markdown.\n' +
    "  read_file(path: str, offset: int = 1, limit: int = 2000) -> dict\n" +
    '    Lines are 1-indexed and numbered ("N|text"). Returns {"content": "...", "total_lines": N}\n' +
    "  write_file(path: str, content: str) -> dict\n    Always overwrites the entire file.\n" +
    '  search_files(pattern: str, target="content", path=".", file_glob=None, limit=50) -> dict\n' +
    '    target: "content" (search inside files) or "files" (find files by name). Returns {"matches": [...]}\n' +
    "  patch(path: str, old_string: str, new_string: str, replace_all: bool = False) -> dict\n" +
    "    Replaces old_string with new_string in the file.\n" +
    "  terminal(command: str, timeout=None, workdir=None) -> dict\n" +
    '    Foreground only (no background). Returns {"output": "...", "exit_code": N}\n\n' +
    'A failed call returns {"error": "..."}. Every call is checked and approved like a direct tool call.\n\n' +
    "Limits: 5-minute timeout, max 50 tool calls per script. Stdout over 50KB shows head/tail inline; the FULL text " +
    "is auto-saved to a file whose path rides in the result.\n\n" +
    "Scripts run in the session's working directory with the system's python3 (stdlib only; check `import x` " +
    "before relying on project packages), usually inside the same sandbox as terminal commands.\n\n" +
    "Helpers require imports: `from hermes_tools import json_parse, shell_quote, retry`. json_parse(text) — " +
    "tolerant json.loads for terminal() output; shell_quote(s) — shlex.quote for dynamic shell args; " +
    "retry(fn, max_attempts=3, delay=2) — exponential backoff.",
  parameters: () =>
    z.object({
      code: z
        .string()
        .describe(
          "Python code to execute. Import tools with `from hermes_tools import web_search, terminal, ...` and print your final result to stdout.",
        ),
    }),
  describe: (args) => {
    const code = str(args?.code);
    const shown =
      code.length > MAX_SHOWN_SCRIPT_CHARS ? `${code.slice(0, MAX_SHOWN_SCRIPT_CHARS)}\n# … (script cut)` : code;
    return { title: `python: ${shorten(firstLine(code))}`, locations: [], runningText: shown };
  },
  async run(args, ctx) {
    // The socket server, the interpreter search and the output handling load with the first script.
    const { runExecuteCode } = await import("./run-script.js");
    return runExecuteCode(args.code, firstLine(args.code), ctx);
  },
});
