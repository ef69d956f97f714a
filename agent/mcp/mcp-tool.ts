import { USUAL_PATH_ARGUMENTS } from "../context/hint-candidates.js";
import { defineTool } from "../tools/define-tool.js";
import type { Tool, ToolParameters, ToolResult } from "../tools/tool.js";
import { mcpToolset } from "../tools/toolsets.js";
import { readOnlyRefusal } from "./mcp-read-only.js";

/**
 * What an MCP tool wrapper needs from a connected client. The SDK's `Client` fits it; keeping it structural means
 * this file imports nothing from the SDK at run time, and tests can hand in a fake.
 */
export interface McpToolCaller {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number; resetTimeoutOnProgress?: boolean },
  ): Promise<unknown>;
}

/** A tool as `tools/list` describes it (only the fields we use). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  /** Hints the server gives about the tool; only `readOnlyHint` is read (read-only mode lets such tools run). */
  readonly annotations?: { readonly readOnlyHint?: boolean };
}

/** Tool names the model sees must match what every provider accepts: `^[A-Za-z0-9_-]{1,64}$`. */
const MAX_TOOL_NAME = 64;

/** MCP calls may legitimately run long (builds, browsers); upstream Hermes allows five minutes. */
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 300_000;

function sanitize(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * `mcp_<server>_<tool>`, made safe for providers and unique among `taken` (which it extends): a name cut to 64
 * characters or clashing with another server's tool gets `_2`, `_3`, ... in place of its last characters.
 */
export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  const base = `mcp_${sanitize(server)}_${sanitize(tool)}`.slice(0, MAX_TOOL_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = base.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
  }
  taken.add(name);
  return name;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The MCP input schema as our tool parameters. It is passed on whole (nested schemas, anyOf, descriptions), only
 * made into the object shape every provider demands: `type: "object"`, a `properties` map whose entries are
 * objects, `required` naming only declared properties (Gemini rejects others). `$schema` is dropped because some
 * providers refuse unknown top-level keywords. Our argument check reads only the top-level `type`s it knows and
 * passes other shapes through, so the cast to `ToolParameters` is safe.
 */
export function mcpToolParameters(inputSchema: unknown): ToolParameters {
  const { $schema: _dropped, ...schema } = isRecord(inputSchema) ? inputSchema : {};
  const declared = isRecord(schema.properties) ? schema.properties : {};
  const properties = Object.fromEntries(
    Object.entries(declared).map(([key, value]) => [key, isRecord(value) ? value : {}]),
  );
  const parameters: Record<string, unknown> = { ...schema, type: "object", properties };
  if (Array.isArray(schema.required)) {
    parameters.required = schema.required.filter(
      (key): key is string => typeof key === "string" && Object.hasOwn(properties, key),
    );
  } else {
    delete parameters.required;
  }
  return parameters as unknown as ToolParameters;
}

function decodedBytes(base64: unknown): number {
  if (typeof base64 !== "string") return 0;
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** One content block as text the model can read; binary payloads become a short placeholder, never base64. */
function describeContent(block: unknown): { text: string; isText: boolean } {
  if (!isRecord(block)) return { text: "[unreadable content]", isText: false };
  const mime = typeof block.mimeType === "string" ? block.mimeType : "unknown type";
  switch (block.type) {
    case "text":
      return { text: typeof block.text === "string" ? block.text : "", isText: true };
    case "image":
    case "audio":
      return { text: `[${block.type}: ${mime}, ${decodedBytes(block.data)} bytes]`, isText: false };
    case "resource": {
      const resource = isRecord(block.resource) ? block.resource : {};
      const uri = String(resource.uri ?? "");
      const resourceMime = typeof resource.mimeType === "string" ? `, ${resource.mimeType}` : "";
      if (typeof resource.text === "string")
        return { text: `[resource: ${uri}${resourceMime}]\n${resource.text}`, isText: true };
      return { text: `[resource: ${uri}${resourceMime}, ${decodedBytes(resource.blob)} bytes]`, isText: false };
    }
    case "resource_link": {
      const about = typeof block.description === "string" ? ` - ${block.description}` : "";
      return {
        text: `[resource link: ${String(block.name ?? "")} <${String(block.uri ?? "")}>${about}]`,
        isText: false,
      };
    }
    default:
      return { text: `[${String(block.type)} content]`, isText: false };
  }
}

/** Turns a `tools/call` result into our ToolResult: text joined, other blocks summarised, `isError` kept. */
export function mcpCallResult(result: unknown): ToolResult {
  if (!isRecord(result)) return { content: "(the MCP server returned no result)", isError: true };
  // Servers on the 2024-10-07 protocol answer `{toolResult}` instead of content blocks.
  if (!Array.isArray(result.content) && "toolResult" in result) {
    return {
      content: typeof result.toolResult === "string" ? result.toolResult : (JSON.stringify(result.toolResult) ?? ""),
    };
  }
  const blocks = (Array.isArray(result.content) ? result.content : []).map(describeContent);
  const parts = blocks.map((b) => b.text);
  if (!blocks.some((b) => b.isText) && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  const content = parts.join("\n") || "(no output)";
  return result.isError === true ? { content, isError: true } : { content };
}

/** Wraps one MCP tool of a connected server as a Tool the conversation can offer to the model. */
export function createMcpTool(options: {
  server: string;
  tool: McpToolInfo;
  client: McpToolCaller;
  name: string;
  timeoutMs?: number;
}): Tool {
  const { server, tool, client, name } = options;
  const summary = tool.description?.trim() || tool.title || tool.name;
  return defineTool({
    name,
    // Upstream's `mcp-<server>` toolset (exact unless the server's name has an underscore).
    toolsets: [mcpToolset(name)],
    kind: "other",
    description: `[MCP server ${server}] ${summary}`,
    parameters: mcpToolParameters(tool.inputSchema),
    // A server's tool may take a file: the usual argument names count for the subdirectory hints.
    pathArguments: USUAL_PATH_ARGUMENTS,
    // Whatever the server answers is its text, not the user's: scanned and flagged by the tool runner.
    untrustedOutput: "mcp",
    async run(args, ctx): Promise<ToolResult> {
      if (ctx.signal.aborted) return { content: "Cancelled by the user before it ran.", isError: true };
      const refused = await readOnlyRefusal({ server, tool, name, args }, ctx);
      if (refused) return refused;
      try {
        const result = await client.callTool({ name: tool.name, arguments: { ...args } }, undefined, {
          signal: ctx.signal,
          timeout: options.timeoutMs ?? DEFAULT_MCP_TOOL_TIMEOUT_MS,
          // A server reporting progress is alive; only silence should time it out.
          resetTimeoutOnProgress: true,
        });
        return mcpCallResult(result);
      } catch (error) {
        // The SDK has already told the server (notifications/cancelled); the model only needs to know it stopped.
        if (ctx.signal.aborted)
          return {
            content: `Cancelled by the user: ${tool.name} on MCP server '${server}' was stopped.`,
            isError: true,
          };
        const message = error instanceof Error ? error.message : String(error);
        return { content: `MCP server '${server}' failed to run ${tool.name}: ${message}`, isError: true };
      }
    },
  });
}
