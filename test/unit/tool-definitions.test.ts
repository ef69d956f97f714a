import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as z from "zod/v4";
import { availableToolsets, childTools } from "../../agent/delegation/child-toolsets.js";
import { createDelegateTool } from "../../agent/delegation/delegate-tool.js";
import { createMcpTool } from "../../agent/mcp/mcp-tool.js";
import { defineTool } from "../../agent/tools/define-tool.js";
import { builtInTool, sessionTools } from "../../agent/tools/registry.js";
import { toolsetsOf } from "../../agent/tools/toolsets.js";
import { parseToolArguments } from "../../agent/tools/validate-args.js";

/**
 * What the model was told before the tools described themselves (the hand-written JSON Schemas), kept so the zod
 * definitions are checked to say the same. A deliberate change to a tool's description or schema updates the file.
 */
const BEFORE = JSON.parse(readFileSync(new URL("../fixtures/tool-schemas.json", import.meta.url), "utf8")) as unknown[];

/** `required: []` and no `required` mean the same to every provider; zod writes the latter. */
function withoutEmptyRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyRequired);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, inner]) => !(key === "required" && Array.isArray(inner) && inner.length === 0))
      .map(([key, inner]) => [key, withoutEmptyRequired(inner)]),
  );
}

describe("tool definitions", () => {
  it("send providers the same names, descriptions, schemas and flags as the hand-written tools did", () => {
    const tools = [...sessionTools(), createDelegateTool({ maxConcurrentChildren: 3, toolsets: ["file", "terminal"] })];
    const now = tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      interactive: t.interactive ?? false,
      untrustedOutput: t.untrustedOutput ?? null,
    }));
    assert.deepEqual(withoutEmptyRequired(now), withoutEmptyRequired(BEFORE));
  });

  it("derive upstream's toolsets from the definitions", () => {
    assert.deepEqual([...toolsetsOf(["web_search"])].sort(), ["search", "web"]);
    assert.deepEqual([...toolsetsOf(["read_file", "process", "mcp_github_issues", "browser_click"])].sort(), [
      "browser",
      "file",
      "mcp-github",
      "terminal",
    ]);
    assert.deepEqual(availableToolsets(sessionTools()), [
      "file",
      "search",
      "session_search",
      "skills",
      "terminal",
      "todo",
      "vision",
      "web",
    ]);
  });

  it("keep blocked tools from subagents and narrow the rest to the toolsets asked for", () => {
    const parent = [...sessionTools(), createDelegateTool({ maxConcurrentChildren: 3, toolsets: [] })];
    const all = childTools(parent, undefined).map((t) => t.name);
    for (const name of ["delegate_task", "clarify", "memory"]) assert.ok(!all.includes(name), name);
    assert.deepEqual(
      childTools(parent, ["terminal", " WEB "]).map((t) => t.name),
      ["terminal", "process", "web_search", "web_extract"],
    );
  });

  it("check arguments against the zod-derived schema with the runner's wording", () => {
    const read = builtInTool("read_file")!;
    assert.deepEqual(parseToolArguments("read_file", "{}", read.parameters), {
      ok: false,
      error: "Missing required argument for read_file: path.",
    });
    const quoted = parseToolArguments("read_file", '{"path":"a","offset":"3"}', read.parameters);
    assert.ok(quoted.ok);
    assert.equal(quoted.args.offset, 3);
    const process = builtInTool("process")!;
    assert.deepEqual(parseToolArguments("process", '{"action":"stop"}', process.parameters), {
      ok: false,
      error: "Argument 'action' of process must be one of 'list', 'poll', 'log', 'wait', 'kill', 'write'.",
    });
  });

  it("give run typed arguments, and default to the tool's name as its title", async () => {
    const echo = defineTool({
      name: "echo_twice",
      toolsets: ["test"],
      kind: "other",
      description: "Echo.",
      parameters: z.object({ text: z.string().describe("What to echo."), times: z.int().optional() }),
      // `args.text` is a string and `args.times` a number or undefined: no re-checks here.
      run: async (args) => ({ content: args.text.repeat(args.times ?? 2) }),
    });
    assert.deepEqual(echo.parameters, {
      type: "object",
      properties: { text: { type: "string", description: "What to echo." }, times: { type: "integer" } },
      required: ["text"],
    });
    assert.equal(echo.describe?.({ path: "a.txt" }, "/p").title, "echo_twice");
    assert.deepEqual(echo.describe?.({ path: "a.txt" }, "/p").locations, [{ path: "/p/a.txt" }]);
  });

  it("make MCP tools definitions with the server's schema as given and the server's toolset", () => {
    const tool = createMcpTool({
      server: "github",
      name: "mcp_github_issues",
      tool: { name: "issues", inputSchema: { type: "object", properties: { repo: { type: "string" } } } },
      client: { callTool: async () => ({ content: [] }) },
    });
    assert.deepEqual(tool.parameters, { type: "object", properties: { repo: { type: "string" } } });
    assert.deepEqual(tool.toolsets, ["mcp-github"]);
    assert.equal(tool.kind, "other");
    assert.equal(tool.untrustedOutput, "mcp");
  });
});
