import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vscodeMcpServers } from "../../extension/acp/vscode-mcp-servers.js";

describe("VS Code's MCP configuration in ACP's form", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "hermes-vscode-mcp-"));
    mkdirSync(join(folder, ".vscode"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("reads .vscode/mcp.json with comments, fills the variables, and lets the workspace win a name clash", () => {
    writeFileSync(
      join(folder, ".vscode", "mcp.json"),
      `{
        // a comment
        "servers": {
          "files": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/srv.js", 3], "env": { "KEY": "\${env:MY_KEY}" } },
          "remote": { "type": "sse", "url": "https://mcp.example/sse", "headers": { "Authorization": "Bearer x" } },
          "asks": { "command": "x", "env": { "T": "\${input:token}" } },
        },
      }`,
    );
    const result = vscodeMcpServers(
      folder,
      { files: { command: "user-version" }, web: { type: "http", url: "https://user.example/mcp" } },
      { MY_KEY: "k1" },
    );
    assert.deepEqual(result.servers, [
      { name: "files", command: "node", args: [`${folder}/srv.js`, "3"], env: [{ name: "KEY", value: "k1" }] },
      { type: "http", name: "web", url: "https://user.example/mcp", headers: [] },
      {
        type: "sse",
        name: "remote",
        url: "https://mcp.example/sse",
        headers: [{ name: "Authorization", value: "Bearer x" }],
      },
    ]);
    assert.deepEqual(result.skipped, ["asks: needs ${input:token}, which VS Code asks for; not forwarded"]);
  });

  it("gives nothing without a configuration, and reports an entry with neither command nor url", () => {
    rmSync(join(folder, ".vscode"), { recursive: true });
    assert.deepEqual(vscodeMcpServers(folder, undefined), { servers: [], skipped: [] });
    assert.deepEqual(vscodeMcpServers(folder, { odd: { type: "stdio" } }).skipped, [
      "odd: neither a command nor a url",
    ]);
  });
});
