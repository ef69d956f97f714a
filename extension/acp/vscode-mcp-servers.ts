import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
// The ES module build: the package's UMD main requires its parts at run time, which a bundle cannot resolve.
import { type ParseError, parse } from "jsonc-parser/lib/esm/main.js";

/** One server as VS Code's MCP configuration writes it (`.vscode/mcp.json` "servers", the user's `mcp.servers`). */
interface VsCodeMcpServer {
  readonly type?: string;
  readonly command?: unknown;
  readonly args?: unknown;
  readonly env?: unknown;
  readonly url?: unknown;
  readonly headers?: unknown;
}

export interface ForwardedMcp {
  readonly servers: acp.McpServer[];
  /** Entries not forwarded, with the reason (an `${input:…}` the editor would prompt for, a missing command). */
  readonly skipped: string[];
}

/**
 * The MCP servers configured in VS Code, in ACP's form for `session/new`: the workspace's `.vscode/mcp.json` (JSON
 * with comments) over the user's `mcp.servers` setting (a workspace entry wins a name clash, as in VS Code).
 * `${workspaceFolder}` and `${env:NAME}` are filled in; an entry that needs `${input:…}` (VS Code asks the user for
 * those, through its own MCP UI) is skipped and said in the log rather than started with a placeholder.
 */
export function vscodeMcpServers(
  workspaceFolder: string,
  userServers: Readonly<Record<string, unknown>> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ForwardedMcp {
  const merged: Record<string, unknown> = { ...(userServers ?? {}), ...workspaceServers(workspaceFolder) };
  const servers: acp.McpServer[] = [];
  const skipped: string[] = [];
  for (const [name, entry] of Object.entries(merged)) {
    if (typeof entry !== "object" || entry === null) continue;
    const expanded = expand(entry as VsCodeMcpServer, workspaceFolder, env);
    if ("skip" in expanded) skipped.push(`${name}: ${expanded.skip}`);
    else {
      const server = toAcp(name, expanded.entry);
      if (typeof server === "string") skipped.push(`${name}: ${server}`);
      else servers.push(server);
    }
  }
  return { servers, skipped };
}

function workspaceServers(folder: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(join(folder, ".vscode", "mcp.json"), "utf8");
  } catch {
    return {};
  }
  const errors: ParseError[] = [];
  const parsed = parse(text, errors, { allowTrailingComma: true }) as { servers?: unknown } | undefined;
  const servers = parsed?.servers;
  return typeof servers === "object" && servers !== null ? (servers as Record<string, unknown>) : {};
}

/** Fills `${workspaceFolder}` and `${env:NAME}` in every string of the entry; `${input:…}` cannot be. */
function expand(
  entry: VsCodeMcpServer,
  folder: string,
  env: NodeJS.ProcessEnv,
): { entry: VsCodeMcpServer } | { skip: string } {
  const text = JSON.stringify(entry);
  const input = /\$\{input:([^}]+)\}/.exec(text);
  if (input) return { skip: `needs \${input:${input[1]}}, which VS Code asks for; not forwarded` };
  const filled = text
    .replace(/\$\{workspaceFolder\}/g, () => JSON.stringify(folder).slice(1, -1))
    .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => JSON.stringify(env[name] ?? "").slice(1, -1));
  return { entry: JSON.parse(filled) as VsCodeMcpServer };
}

function toAcp(name: string, entry: VsCodeMcpServer): acp.McpServer | string {
  const pairs = (value: unknown) =>
    typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([key, v]) => (typeof v === "string" ? [{ name: key, value: v }] : []))
      : [];
  if (typeof entry.url === "string") {
    const type = entry.type === "sse" ? "sse" : "http";
    return { type, name, url: entry.url, headers: pairs(entry.headers) };
  }
  if (typeof entry.command !== "string" || !entry.command) return "neither a command nor a url";
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return { name, command: entry.command, args, env: pairs(entry.env) };
}
