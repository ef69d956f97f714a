import { strict as assert } from "node:assert";
import { readToolSettings } from "../../agent/config/tool-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";

const settings = (yaml: string, env: Record<string, string> = {}) =>
  readToolSettings(parseYamlText("/home/me/.hermes/config.yaml", yaml), env).sandbox;

describe("terminal.sandbox and the editor's network setting", () => {
  it("reads network from config.yaml, allow by default", () => {
    assert.equal(settings("").network, "allow");
    assert.equal(settings("terminal:\n  sandbox:\n    network: deny\n").network, "deny");
  });

  it("lets HERMES_SANDBOX_NETWORK=deny (the editor's setting) cut the network, but never open it", () => {
    assert.equal(settings("", { HERMES_SANDBOX_NETWORK: "deny" }).network, "deny");
    assert.equal(
      settings("terminal:\n  sandbox:\n    network: deny\n", { HERMES_SANDBOX_NETWORK: "allow" }).network,
      "deny",
      "an editor setting cannot loosen config.yaml",
    );
    assert.equal(settings("terminal:\n  sandbox: off\n", { HERMES_SANDBOX_NETWORK: "deny" }).enabled, false);
  });
});
