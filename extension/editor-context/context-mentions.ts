import type * as acp from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { FileMatch } from "../../webview-ui/protocol.js";
import type { TerminalOutput } from "./terminal-output.js";

/** The most problems one `@problems` sends (the first ones, errors first): a broken build can have thousands. */
const MAX_PROBLEMS = 200;
const MAX_SYMBOLS = 20;
const SEVERITY = ["error", "warning", "info", "hint"] as const;

/**
 * Editor context the composer offers after `@` besides files: `@problems` (the workspace's diagnostics),
 * `@terminal` (the active terminal's recent output) and `@symbol:<name>` (a workspace symbol, inserted as the
 * server's own `@file:path:start-end` reference, so the server reads those lines itself).
 */
export async function contextMatches(query: string): Promise<FileMatch[]> {
  const needle = query.trim().toLowerCase();
  if (needle.startsWith("symbol:")) return symbolMatches(needle.slice("symbol:".length));
  const fixed: FileMatch[] = [
    { uri: "hermes-context:/problems", path: "problems · errors and warnings", reference: "@problems " },
    { uri: "hermes-context:/terminal", path: "terminal · recent output", reference: "@terminal " },
    { uri: "hermes-context:/symbol", path: "symbol: · find by name", reference: "@symbol:" },
  ];
  return needle ? fixed.filter((m) => m.path.startsWith(needle)) : fixed;
}

async function symbolMatches(name: string): Promise<FileMatch[]> {
  if (!name) return [];
  const symbols =
    (await vscode.commands.executeCommand<vscode.SymbolInformation[]>("vscode.executeWorkspaceSymbolProvider", name)) ??
    [];
  return symbols.slice(0, MAX_SYMBOLS).map((symbol) => {
    const path = vscode.workspace.asRelativePath(symbol.location.uri, false);
    const { start, end } = symbol.location.range;
    const lines = `${start.line + 1}-${end.line + 1}`;
    const target = /\s/.test(path) ? `\`${path}\`` : path;
    return {
      uri: symbol.location.uri.toString(),
      path: `${symbol.name} (${path}:${start.line + 1})`,
      reference: `@file:${target}:${lines} `,
    };
  });
}

/**
 * The blocks a prompt's `@problems` and `@terminal` stand for, sent with it as embedded text (the server shows each
 * as an attached file named after it). Nothing for a prompt that names neither.
 */
export function contextBlocks(text: string, terminal: TerminalOutput): acp.ContentBlock[] {
  const blocks: acp.ContentBlock[] = [];
  if (/(^|\s)@problems\b/.test(text)) blocks.push(embedded("problems", problemsText()));
  if (/(^|\s)@terminal\b/.test(text)) blocks.push(embedded("terminal", terminal.recent()));
  return blocks;
}

function embedded(name: string, text: string): acp.ContentBlock {
  return { type: "resource", resource: { uri: `hermes-context:/${name}`, text, mimeType: "text/plain" } };
}

/** `path:line:col severity source code: message`, errors first, one a line. */
export function problemsText(): string {
  const rows = vscode.languages
    .getDiagnostics()
    .flatMap(([uri, diagnostics]) => diagnostics.map((d) => ({ uri, d })))
    .sort((a, b) => a.d.severity - b.d.severity);
  if (rows.length === 0) return "No problems are reported in the workspace.";
  const lines = rows.slice(0, MAX_PROBLEMS).map(({ uri, d }) => {
    const code = typeof d.code === "object" ? d.code.value : d.code;
    const origin = [d.source, code === undefined ? undefined : String(code)].filter(Boolean).join(" ");
    const where = `${vscode.workspace.asRelativePath(uri, false)}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
    return `${where} ${SEVERITY[d.severity]}${origin ? ` ${origin}` : ""}: ${d.message.replace(/\s*\n\s*/g, " ")}`;
  });
  const more = rows.length > MAX_PROBLEMS ? [`… and ${rows.length - MAX_PROBLEMS} more`] : [];
  return [...lines, ...more].join("\n");
}
