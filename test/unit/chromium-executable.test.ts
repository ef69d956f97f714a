import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { withoutUnavailableBrowser } from "../../agent/tools/browser/browser-availability.js";
import { findChromium } from "../../agent/tools/browser/chromium-executable.js";
import { sessionTools } from "../../agent/tools/registry.js";
import { TempDirs } from "../helpers/temp-dirs.js";

describe("finding a Chromium (no launch)", () => {
  const temp = new TempDirs();
  after(() => temp.cleanup());

  function fakeBrowser(name: string): string {
    const path = join(temp.make("hermes-chromium-"), name);
    writeFileSync(path, "#!/bin/sh\n");
    chmodSync(path, 0o755);
    return path;
  }

  it("prefers the configured browser, falls back to the search when it is missing, and finds on PATH", () => {
    const configured = fakeBrowser("my-chrome");
    const system = fakeBrowser("chromium");
    assert.equal(findChromium(configured, {}, [system]), configured);
    assert.equal(findChromium("/nowhere/chrome", {}, [system]), system);
    assert.equal(findChromium(undefined, {}, ["/nowhere/a", "/nowhere/b"]), undefined);
    const onPath = fakeBrowser("chromium-browser");
    assert.equal(findChromium(undefined, { PATH: join(onPath, "..") }), onPath);
  });

  it("offers the browser tools only when a browser is found", () => {
    const yaml = (text: string) => ({ yaml: parseYamlText("config.yaml", text), env: {} });
    const names = (tools: readonly { name: string }[]) =>
      tools.map((t) => t.name).filter((n) => n.startsWith("browser_"));
    const none = withoutUnavailableBrowser(sessionTools(), yaml(""), ["/nowhere/chromium"]);
    assert.deepEqual(names(none), []);
    assert.ok(
      none.some((t) => t.name === "web_extract"),
      "the other tools stay",
    );
    const configured = withoutUnavailableBrowser(
      sessionTools(),
      yaml(`browser:\n  executable_path: ${fakeBrowser("chrome")}\n`),
      ["/nowhere/chromium"],
    );
    assert.equal(names(configured).length, 11);
    // A mistake under browser: keeps the tools, whose first call then says what is wrong.
    assert.equal(names(withoutUnavailableBrowser(sessionTools(), yaml("browser: 3\n"), [])).length, 11);
  });
});
