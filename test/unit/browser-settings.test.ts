import assert from "node:assert/strict";
import { readBrowserSettings } from "../../agent/config/browser-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";

const read = (text: string, env: Record<string, string> = {}) =>
  readBrowserSettings(parseYamlText("/h/config.yaml", text), env);

describe("browser settings", () => {
  it("defaults: the system's browser, local dev servers allowed, other private addresses not, 30 s an action", () => {
    assert.deepEqual(read(""), {
      executablePath: undefined,
      allowLocalhost: true,
      allowPrivateUrls: false,
      commandTimeoutMs: 30_000,
      inactivityTimeoutMs: 120_000,
    });
  });

  it("reads browser: and upstream's variables, with upstream's floor on the timeout", () => {
    const settings = read(
      "browser:\n  executable_path: /opt/chrome/chrome\n  allow_localhost: false\n  allow_private_urls: true\n  command_timeout: 2\n  inactivity_timeout: 10\n",
    );
    assert.deepEqual(settings, {
      executablePath: "/opt/chrome/chrome",
      allowLocalhost: false,
      allowPrivateUrls: true,
      commandTimeoutMs: 5_000,
      inactivityTimeoutMs: 30_000,
    });
    assert.equal(read("", { BROWSER_INACTIVITY_TIMEOUT: "600" }).inactivityTimeoutMs, 600_000);
    assert.equal(read("", { AGENT_BROWSER_EXECUTABLE_PATH: "/x/chrome" }).executablePath, "/x/chrome");
    assert.equal(read("security:\n  allow_private_urls: true\n").allowPrivateUrls, true);
    assert.equal(
      read("browser:\n  allow_private_urls: true\n", { HERMES_ALLOW_PRIVATE_URLS: "false" }).allowPrivateUrls,
      false,
    );
  });

  it("names the line of a wrong value", () => {
    assert.throws(
      () => read("browser:\n  allow_localhost: maybe\n"),
      /config\.yaml:2.*allow_localhost must be true or false/,
    );
    assert.throws(() => read("browser: [1]\n"), /`browser` must be a mapping/);
    assert.throws(() => read("browser:\n  command_timeout: soon\n"), /command_timeout must be a number/);
  });
});
