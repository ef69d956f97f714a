import { strict as assert } from "node:assert";
import { homedir } from "node:os";
import { expandVariables } from "../../agent/config/config-variables.js";
import { readMcpServerSettings } from "../../agent/config/mcp-server-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";

const FILE = "/home/u/.hermes/config.yaml";
const read = (text: string, env: Record<string, string> = {}) =>
  readMcpServerSettings(parseYamlText(FILE, text), env, "/work/project");

describe("config.yaml mcp_servers (readMcpServerSettings)", () => {
  it("reads upstream's stdio and http entries, with their timeouts and tool filters", () => {
    const settings = read(
      [
        "mcp_servers:",
        "  github:",
        "    command: npx",
        '    args: ["-y", "@modelcontextprotocol/server-github", 3]',
        "    env: { GITHUB_PERSONAL_ACCESS_TOKEN: ghp_example, DEBUG: 1 }",
        "    timeout: 120",
        "    connect_timeout: '30'",
        "    tools: { include: [list_issues, create_issue], exclude: delete_repo }",
        "  remote:",
        "    url: https://mcp.example.com/mcp",
        "    headers: { Authorization: Bearer abc }",
        "    tools: { exclude: delete_customer, resources: false }",
        "  legacy:",
        "    url: http://localhost:9000/sse",
        "    transport: sse",
      ].join("\n"),
    );
    assert.deepEqual(settings.problems, []);
    assert.deepEqual(settings.servers, [
      {
        name: "github",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github", "3"],
        env: [
          { name: "GITHUB_PERSONAL_ACCESS_TOKEN", value: "ghp_example" },
          { name: "DEBUG", value: "1" },
        ],
        environment: "safe",
        policy: {
          connectTimeoutMs: 30_000,
          toolTimeoutMs: 120_000,
          include: ["list_issues", "create_issue"],
          exclude: ["delete_repo"],
        },
      },
      {
        type: "http",
        name: "remote",
        url: "https://mcp.example.com/mcp",
        headers: [{ name: "Authorization", value: "Bearer abc" }],
        sseFallback: true,
        policy: { exclude: ["delete_customer"] },
      },
      {
        type: "sse",
        name: "legacy",
        url: "http://localhost:9000/sse",
        headers: [],
        sseFallback: false,
        policy: {},
      },
    ]);
  });

  it("skips `enabled: false` entries (upstream's words for false too) and reads nothing when there is no section", () => {
    const settings = read(
      "mcp_servers:\n  a: { command: a, enabled: false }\n  b: { command: b, enabled: 'off' }\n  c: { command: c, enabled: true }\n",
    );
    assert.deepEqual(settings.disabled, ["a", "b"]);
    assert.deepEqual(
      settings.servers.map((s) => s.name),
      ["c"],
    );
    assert.deepEqual(read("model:\n  default: x\n"), { servers: [], disabled: [], problems: [], unsetVariables: [] });
  });

  it("expands ${VAR}, ${env:VAR} and the workspace variables, and names the variables that have no value", () => {
    const settings = read(
      [
        "mcp_servers:",
        "  s:",
        "    command: ${workspaceFolder}/bin/server",
        "    args: ['--home=${userHome}', '--token=${env:TOKEN}', '--missing=${NOPE}', '${workspaceFolderBasename}']",
        "    env: { KEY: '${TOKEN}', EMPTY: '${EMPTY_ONE}' }",
      ].join("\n"),
      { TOKEN: "t-123", EMPTY_ONE: "" },
    );
    const server = settings.servers[0]!;
    assert.ok(!("url" in server));
    assert.equal(server.command, "/work/project/bin/server");
    assert.deepEqual(server.args, [`--home=${homedir()}`, "--token=t-123", "--missing=${NOPE}", "project"]);
    assert.deepEqual(server.env, [
      { name: "KEY", value: "t-123" },
      { name: "EMPTY", value: "${EMPTY_ONE}" },
    ]);
    assert.deepEqual(settings.unsetVariables, [{ server: "s", variables: ["NOPE", "EMPTY_ONE"] }]);
  });

  it("turns each wrong entry into a problem on its line, and keeps the others", () => {
    const settings = read(
      [
        "mcp_servers:",
        "  good: { command: ok }",
        "  slow:",
        "    command: x",
        "    timeout: soon",
        "  nothing: {}",
        "  badtools:",
        "    command: x",
        "    tools: { include: [1, 2] }",
        "  badurl: { url: 'ftp://example.com' }",
        "  badtransport: { url: 'https://example.com', transport: websocket }",
        "  badenv: { command: x, env: [A, B] }",
        "  empty:",
        "  flag: { command: x, enabled: maybe }",
      ].join("\n"),
    );
    assert.deepEqual(
      settings.servers.map((s) => s.name),
      ["good"],
    );
    const problems = settings.problems.map((p) => `${p.line}: ${p.message}`);
    assert.deepEqual(problems, [
      "5: mcp_servers.slow: `timeout` must be a number of seconds above 0",
      "6: mcp_servers.nothing: needs `command` (a local server) or `url` (a remote one)",
      "9: mcp_servers.badtools: `tools.include` must be a tool name or a list of them",
      "10: mcp_servers.badurl: `url` must be an http:// or https:// address",
      "11: mcp_servers.badtransport: `transport` must be sse or http",
      "12: mcp_servers.badenv: `env` must be a mapping of names to values",
      "13: mcp_servers.empty: must be a mapping with `command` (a local server) or `url` (a remote one)",
      "14: mcp_servers.flag: `enabled` must be true or false",
    ]);
    assert.ok(settings.problems.every((p) => p.file === FILE));
    const notMapping = read("mcp_servers: [a, b]\n");
    assert.equal(notMapping.problems[0]?.line, 1);
    assert.match(notMapping.problems[0]!.message, /`mcp_servers` must be a mapping/);
  });

  it("expandVariables keeps a placeholder it cannot fill, once per name", () => {
    assert.deepEqual(expandVariables("${A}-${A}-${ B }", { B: "b" }, "/w"), { text: "${A}-${A}-b", unset: ["A"] });
  });
});
