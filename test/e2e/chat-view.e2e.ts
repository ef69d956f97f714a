/**
 * The chat view as a new user meets it: real VS Code (code-server) in headless Chromium, driven by Playwright through
 * the page a person would look at; the real extension, the real hermes-acp and the scripted LLM endpoint. Opens the
 * Hermes view, sends a prompt and watches the reply stream, sees a tool card, answers a permission card, accepts a
 * diff from the chat and finds the file changed. Every state is saved as a screenshot in test-results/e2e/.
 *
 *   npm run test:e2e     (needs `npm run e2e:setup` once)
 */
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { ScriptedLlm, scriptedCall } from "../fixtures/scripted-llm.js";
import {
  type CodeServer,
  type CodeServerState,
  launchChromium,
  makeState,
  missingPrerequisites,
  repoRoot,
  startCodeServer,
  stopCodeServerAndWait,
  workbenchUrl,
} from "../helpers/code-server.js";

const SHOTS = join(repoRoot, "test-results/e2e");
const log = (message: string) => process.stdout.write(`      [e2e] ${message}\n`);

describe("the chat view in real VS Code", function () {
  this.timeout(120_000);
  let llm: ScriptedLlm;
  let state: CodeServerState;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let chat: FrameLocator;
  let shot = 0;
  let home: string;
  let configText: string;

  const screenshot = async (name: string) => {
    // Away from the activity bar, whose hover would otherwise show a tooltip in every picture.
    await page.mouse.move(700, 450);
    const file = join(SHOTS, `${String(++shot).padStart(2, "0")}-${name}.png`);
    await page.screenshot({ path: file });
    log(`screenshot ${file}`);
  };
  const composer = () => chat.getByRole("textbox", { name: /message hermes/i });
  const send = async (text: string) => {
    await composer().fill(text);
    await composer().press("Enter");
  };
  const idle = () =>
    chat.getByRole("button", { name: /^send/i }).and(chat.locator(":enabled")).waitFor({ timeout: 30_000 });

  before(async function () {
    const missing = missingPrerequisites();
    if (missing.length) {
      log(`skipped: ${missing.join("; ")}`);
      this.skip();
    }
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    llm = await ScriptedLlm.start();
    home = mkdtempSync(join(tmpdir(), "hermes-e2e-home-"));
    // Written after the first-run test: until then HERMES_HOME has no model, as on a first run.
    configText = `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${llm.baseUrl}\n  max_retries: 0\n`;
    // code-server passes HERMES_* on to the extension host, and so to the server the extension spawns.
    process.env.HERMES_HOME = home;
    state = makeState();
    writeFileSync(join(state.workspace, "greeting.txt"), "hello\nworld\n");
    server = await startCodeServer(state, join(state.root, "code-server.log"), log);
    browser = await launchChromium(state);
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(workbenchUrl(server.port, state), { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    if (server) await stopCodeServerAndWait(server);
    await llm?.close();
    if (state && process.env.HERMES_E2E_KEEP !== "1") rmSync(state.root, { recursive: true, force: true });
  });

  it("opens the Hermes view from the activity bar", async () => {
    await page
      .locator(".activitybar")
      .getByRole("tab", { name: /Hermes/ })
      .click({ timeout: 30_000 });
    // The view's page lives two frames down: the webview host, then its active frame.
    chat = page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");
    await composer().waitFor({ timeout: 30_000 });
    await screenshot("empty-chat");
  });

  it("meets a first run without a model with the setup card", async () => {
    await send("hello");
    await chat.getByText("Hermes needs a model").waitFor({ timeout: 30_000 });
    await chat.getByRole("button", { name: "Choose a provider, a model and a key, then test them" }).waitFor();
    await screenshot("setup-card");
    // What "Set up here" writes (its whole run is tested in the extension suite): from here on a model is configured.
    writeFileSync(join(home, "config.yaml"), configText);
    await chat.getByRole("button", { name: "New chat" }).click();
    await chat.getByText("Hermes needs a model").waitFor({ state: "detached", timeout: 10_000 });
  });

  it("streams a reply as Markdown, sanitised", async () => {
    const pieces = [
      "Hello",
      " from",
      " **Hermes**",
      ".\n\n",
      "```ts\nconst x",
      " = 1;\n```\n",
      "<img src=x onerror=\"document.title='pwned'\">",
      " [docs](javascript:alert(1))",
    ];
    llm.enqueue({ kind: "text", chunks: pieces, chunkDelayMs: 250 });
    await send("say hello");
    await chat.getByText("Hello from", { exact: false }).waitFor({ timeout: 30_000 });
    await screenshot("streaming");
    await idle();
    await chat.locator("strong", { hasText: "Hermes" }).waitFor();
    await chat.locator("pre code").filter({ hasText: "const x = 1;" }).waitFor();
    await screenshot("reply");
    const vectors = await chat
      .getByRole("log", { name: "Conversation" })
      .evaluate((root) =>
        [...root.querySelectorAll("[onerror], [onload], [onclick], script, iframe, a[href^='javascript' i]")].map(
          (e) => e.outerHTML,
        ),
      );
    assert.deepEqual(vectors, [], "no executable vector reached the conversation");
    assert.notEqual(await page.title(), "pwned");
  });

  it("shows a tool card and answers a permission card", async () => {
    mkdirSync(join(state.workspace, "scratch"), { recursive: true });
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [scriptedCall("t1", "terminal", { command: "rm -rf scratch && echo scratch-is-gone" })],
      },
      { kind: "text", chunks: ["Removed the scratch folder."] },
    );
    await send("clean up scratch");
    const allow = chat.getByRole("button", { name: /^Allow once$/ });
    await allow.waitFor({ timeout: 30_000 });
    await chat.getByText("rm -rf scratch", { exact: false }).first().waitFor();
    await screenshot("permission-card");
    await allow.click();
    await chat.getByText("Removed the scratch folder.").waitFor({ timeout: 30_000 });
    await idle();
    assert.equal(existsSync(join(state.workspace, "scratch")), false, "the command ran once allowed");
    // It ran in a VS Code terminal; its card shows what it printed.
    await chat.getByText("Output", { exact: false }).last().click();
    await chat.getByText("scratch-is-gone", { exact: false }).first().waitFor({ timeout: 10_000 });
    await screenshot("tool-card-done");
  });

  it("accepts an edit from the chat and the file changes", async () => {
    llm.enqueue(
      {
        kind: "tool_calls",
        calls: [scriptedCall("w1", "write_file", { path: "greeting.txt", content: "hello\nWORLD\n" })],
      },
      { kind: "text", chunks: ["Capitalised it."] },
    );
    await send("capitalise world in greeting.txt");
    const accept = chat.getByRole("button", { name: /^Accept/ });
    await accept.first().waitFor({ timeout: 30_000 });
    await chat.getByText("WORLD").first().waitFor();
    await screenshot("diff-pending");
    assert.equal(
      readFileSync(join(state.workspace, "greeting.txt"), "utf8"),
      "hello\nworld\n",
      "nothing written before the user accepts",
    );
    await accept.first().click();
    await chat.getByText("Capitalised it.").waitFor({ timeout: 30_000 });
    await idle();
    assert.equal(readFileSync(join(state.workspace, "greeting.txt"), "utf8"), "hello\nWORLD\n");
    await screenshot("diff-accepted");
  });

  it("offers to restore the files of a turn that changed them, and shows the model in the status bar", async () => {
    await chat.getByRole("button", { name: "Restore files to before this turn" }).last().waitFor({ timeout: 10_000 });
    await page.locator(".statusbar-item", { hasText: "Hermes: scripted-model" }).first().waitFor({ timeout: 10_000 });
    await screenshot("restore-action");
  });

  it("completes slash commands and @ files in the composer", async () => {
    await composer().fill("/comp");
    const suggestions = chat.getByRole("listbox", { name: "Suggestions" });
    await suggestions.getByRole("option", { name: /compress/ }).waitFor({ timeout: 10_000 });
    await screenshot("slash-completion");
    await composer().press("Tab");
    assert.match(await composer().inputValue(), /^\/compress\b/);
    await composer().fill("what is wrong? @pro");
    await suggestions.getByRole("option", { name: /problems · errors and warnings/ }).waitFor();
    await screenshot("context-completion");
    await composer().fill("look at @greet");
    await suggestions.getByRole("option", { name: /greeting\.txt/ }).waitFor({ timeout: 10_000 });
    await composer().press("Enter");
    assert.match(await composer().inputValue(), /^look at @file:greeting\.txt/);
    await composer().fill("");
  });

  it("starts a new chat and reopens the earlier session from the list", async () => {
    await chat.getByRole("button", { name: "New chat" }).click();
    await chat.getByText("Hello from", { exact: false }).waitFor({ state: "detached", timeout: 10_000 });
    await chat.getByRole("button", { name: "Earlier sessions" }).click();
    const list = chat.getByRole("dialog", { name: "Earlier sessions" });
    await list
      .getByRole("button", { name: /say hello/ })
      .first()
      .waitFor({ timeout: 10_000 });
    await screenshot("session-list");
    await list
      .getByRole("button", { name: /say hello/ })
      .first()
      .click();
    await chat.getByText("Hello from", { exact: false }).waitFor({ timeout: 15_000 });
    await chat.getByText("Capitalised it.").waitFor();
    await screenshot("session-reopened");
  });

  it("badges the hidden view and offers to open it while a permission waits", async () => {
    mkdirSync(join(state.workspace, "scratch2"), { recursive: true });
    llm.enqueue(
      { kind: "tool_calls", calls: [scriptedCall("b1", "terminal", { command: "rm -rf scratch2" })] },
      { kind: "text", chunks: ["Done again."] },
    );
    await send("clean up scratch2");
    // Hide the chat (the Explorer takes the sidebar) before the request arrives.
    await page
      .locator(".activitybar")
      .getByRole("tab", { name: /Explorer/ })
      .click();
    const notification = page
      .locator(".notification-toast")
      .filter({ hasText: "Hermes is waiting for your permission" });
    await notification.waitFor({ timeout: 30_000 });
    await page
      .locator(".activitybar")
      .getByRole("tab", { name: /Hermes/ })
      .locator(".badge")
      .filter({ hasText: "1" })
      .waitFor({ timeout: 10_000 });
    await screenshot("permission-badge");
    await notification.getByRole("button", { name: "Open Chat" }).click();
    const allow = chat.getByRole("button", { name: /^Allow once$/ });
    await allow.waitFor({ timeout: 15_000 });
    await allow.click();
    await chat.getByText("Done again.").waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(state.workspace, "scratch2")), false);
  });
});
