import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import { AcpHarness, serverEnv } from "../helpers/acp-harness.js";
import { TempDirs } from "../helpers/temp-dirs.js";

/** What the ACP Registry's check and an editor's sign-in see: auth methods, auth_required, authenticate. */
describe("hermes-acp: authentication (the ACP Registry's check)", () => {
  const temp = new TempDirs();
  let harness: AcpHarness;
  let home: string;

  beforeEach(() => {
    home = temp.make();
    // A model but no key: what a first run with a provider chosen and no key looks like.
    writeFileSync(join(home, "config.yaml"), "model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4\n");
    harness = AcpHarness.spawn(serverEnv(home));
  });

  afterEach(async () => {
    await harness.close();
    assert.deepEqual(harness.violations, [], "every message the agent wrote must be valid ACP");
    temp.cleanup();
  });

  it("offers the terminal setup to clients that run it, and the configuration method to every client", async () => {
    const plain = await harness.initialize();
    assert.deepEqual(
      plain.authMethods?.map((m) => m.id),
      ["hermes-config"],
      "no terminal method without auth.terminal",
    );
    const withTerminal = await harness.initialize({ auth: { terminal: true } });
    const [setup, config] = withTerminal.authMethods ?? [];
    assert.deepEqual(
      {
        type: setup && "type" in setup ? setup.type : undefined,
        id: setup?.id,
        args: setup && "args" in setup ? setup.args : undefined,
      },
      { type: "terminal", id: "hermes-setup", args: ["--setup"] },
    );
    assert.equal(config?.id, "hermes-config");
    assert.match(config?.description ?? "", /hermes-editor --setup/);
  });

  it("answers session/new with auth_required naming what to set, and authenticate passes once the key is there", async () => {
    await harness.initialize();
    const refused = await harness.newSession(home).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof RequestError, String(refused));
    assert.equal(refused.code, -32000);
    assert.match(refused.message, /No API key for OpenRouter: set OPENROUTER_API_KEY/);
    assert.match(refused.message, /Run "hermes-editor --setup" in a terminal/);

    const early = await harness.agent.request("authenticate", { methodId: "hermes-config" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.equal((early as RequestError | undefined)?.code, -32000, "still no key: still auth_required");

    // The user runs the setup (or edits .env) meanwhile: no restart needed.
    writeFileSync(join(home, ".env"), "OPENROUTER_API_KEY=sk-or-test-key\n", { mode: 0o600 });
    assert.deepEqual(await harness.agent.request("authenticate", { methodId: "hermes-config" }), {});
    assert.match(await harness.newSession(home), /^[0-9a-f-]{36}$/);
    assert.doesNotMatch(harness.stderr, /sk-or-test-key/, "the key never reaches the log");
  });

  it("refuses an unknown auth method with invalid params", async () => {
    await harness.initialize();
    const error = await harness.agent.request("authenticate", { methodId: "nope" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal((error as RequestError | undefined)?.code, -32602);
  });
});
