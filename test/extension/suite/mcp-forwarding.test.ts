/**
 * The MCP servers of VS Code's own configuration reach the agent: a server in the workspace's `.vscode/mcp.json`
 * (JSON with comments, as VS Code writes it) is started by the real server for the chat's session and its tools are
 * offered to the model; an entry that needs an `${input:…}` VS Code would prompt for is not forwarded.
 */
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as vscode from "vscode";
import type { HermesApi } from "../../../extension/extension.js";
import type { ScriptedLlm } from "../../fixtures/scripted-llm.js";
import { startScriptedHermes } from "../helpers/scripted-hermes.js";

// The bundle runs from dist-test/extension/: the repository is two folders up.
const repo = join(__dirname, "../..");

describe("MCP servers from VS Code's configuration", function () {
  this.timeout(60_000);
  let api: HermesApi;
  let llm: ScriptedLlm;
  let workspace: string;
  let config: string;

  before(async () => {
    workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    mkdirSync(join(workspace, ".vscode"), { recursive: true });
    config = join(workspace, ".vscode", "mcp.json");
    const loader = pathToFileURL(join(repo, "node_modules/tsx/dist/loader.mjs")).href;
    const fixture = join(repo, "test/fixtures/mcp-echo-server.ts");
    writeFileSync(
      config,
      `{
  // VS Code's format: "servers", each stdio or http
  "servers": {
    "echo": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": ["--import", ${JSON.stringify(loader)}, ${JSON.stringify(fixture)}] },
    "asks": { "command": "some-server", "env": { "TOKEN": "\${input:token}" } },
  },
}
`,
    );
    // A server an earlier suite started is ended here; the next prompt starts one that reads this configuration.
    ({ api, llm } = await startScriptedHermes());
    await api.chat.newChat();
  });

  after(async () => {
    rmSync(config, { force: true });
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await llm.close();
  });

  it("offers the tools of a server in .vscode/mcp.json to the model", async () => {
    llm.enqueue(
      { kind: "tool_calls", calls: [{ id: "m1", name: "mcp_echo_add", argumentPieces: ['{"a": 20, "b": 22}'] }] },
      { kind: "text", chunks: ["It is 42."] },
    );
    await api.chat.prompt("add 20 and 22 with the MCP tool");
    const offered = llm.requests.at(-2)!.body.tools!.map((t) => t.function.name);
    assert.ok(offered.includes("mcp_echo_add"), offered.join(", "));
    assert.ok(!offered.some((name) => name.startsWith("mcp_asks_")), "the entry that needs an input is not forwarded");
    assert.equal(String(llm.requests.at(-1)!.body.messages.at(-1)!.content), "42");
  });
});
