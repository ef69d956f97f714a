/**
 * Session and "always" approvals (issue 17): upstream's semantics are kept (the key is the rule's description, so
 * "for this session" on `rm -rf node_modules` also covers `rm -rf build`), the option's label says exactly that,
 * and no remembered approval covers a hardline command or one that changes files outside the workspace.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentContext, PermissionOption } from "@agentclientprotocol/sdk";
import { AcpApprover } from "../../acp-server/editor/acp-approver.js";
import type { Logger } from "../../acp-server/rpc/log.js";
import type { CommandApproval } from "../../agent/tools/approver.js";
import { gateCommand } from "../../agent/tools/safety/command-gate.js";
import type { ToolContext } from "../../agent/tools/tool.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { ScriptedUser, toolEnvironment, toolSettings } from "../helpers/tool-env.js";

const ROOT = "/srv/project";

describe("session and always command approvals", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function gate(answers: CommandApproval[], configPath = "/nonexistent/config.yaml") {
    const user = new ScriptedUser(answers);
    const env = toolEnvironment(ROOT, "/nonexistent/hermes-home", user, toolSettings({ configPath }));
    const ctx: ToolContext = {
      ...env,
      signal: new AbortController().signal,
      toolCallId: "call_approvals",
      progress: () => {},
    };
    return { user, env, run: (command: string) => gateCommand(command, ctx) };
  }

  it("'for this session' covers the rule inside the workspace, never a path outside it", async () => {
    const { user, run } = gate(["session"]);
    assert.equal((await run("rm -rf node_modules")).allowed, true);
    assert.equal(user.commandRequests[0]!.allowSession, true);
    assert.equal((await run("rm -rf build")).allowed, true, "upstream's semantics: the key is 'recursive delete'");
    assert.equal(user.commandRequests.length, 1);
    assert.equal(
      (await run(`rm -rf ${homedir()}/projects`)).allowed,
      false,
      "outside the workspace asks again (and is denied)",
    );
    assert.equal(user.commandRequests.length, 2);
    assert.equal(user.commandRequests[1]!.allowSession, false);
    assert.equal(user.commandRequests[1]!.allowPermanent, false);
    assert.equal((await run("rm -rf ~")).allowed, false, "hardline: refused without a question");
    assert.equal(user.commandRequests.length, 2);
  });

  it("a 'session' answer to a command outside the workspace allows it once and remembers nothing", async () => {
    const { user, env, run } = gate(["session"]);
    assert.equal((await run("truncate -s 0 /opt/app.log")).allowed, true);
    assert.equal(env.state.approvedForSession.size, 0);
    assert.equal((await run("truncate -s 0 /opt/app.log")).allowed, false);
    assert.equal(user.commandRequests.length, 2);
  });

  it("'always' saves the rule's key (upstream's semantics), not the command", async () => {
    const configPath = join(temp.make(), "config.yaml");
    const { run, user } = gate(["always"], configPath);
    assert.equal((await run("git push --force origin main")).allowed, true);
    assert.match(
      readFileSync(configPath, "utf8"),
      /command_allowlist:\n\s+- git force push \(rewrites remote history\)/,
    );
    assert.equal((await run("git push --force upstream other")).allowed, true);
    assert.equal(user.commandRequests.length, 1);
  });

  it("the editor's options name what they allow", async () => {
    let offered: PermissionOption[] = [];
    const client = {
      request: async (_method: string, params: { options: PermissionOption[] }) => {
        offered = params.options;
        return { outcome: { outcome: "selected", optionId: "deny" } };
      },
    } as unknown as AgentContext;
    const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } as unknown as Logger;
    const approver = new AcpApprover("s1", client, log);
    const signal = new AbortController().signal;
    await approver.approveCommand(
      { toolCallId: "t", command: "rm -rf build", description: "recursive delete", allowPermanent: true },
      signal,
    );
    assert.deepEqual(
      offered.map((o) => o.name),
      ["Allow once", "Allow recursive delete for this session", "Always allow recursive delete", "Deny"],
    );
    await approver.approveCommand(
      {
        toolCallId: "t",
        command: "rm -rf ~/x",
        description: "recursive delete",
        allowPermanent: false,
        allowSession: false,
      },
      signal,
    );
    assert.deepEqual(
      offered.map((o) => o.name),
      ["Allow once", "Deny"],
    );
  });
});
