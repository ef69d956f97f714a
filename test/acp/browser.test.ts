import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import {
  call,
  refIn,
  resultJson,
  scriptSteps,
  snapshotOf,
  toolEnds,
  toolResults,
  type Update,
  useLocalSite,
} from "../helpers/browser-steps.js";
import { useScriptedServer } from "../helpers/scripted-server.js";

/*
 * The browser tools driving the machine's real Chromium (/usr/bin/chromium; CI installs it) against a local site, as
 * a model would use them: each scripted reply reads the refs out of the last snapshot it was given.
 */

/** Pids of the Chromium processes started for the server of `home` (their environment names its HERMES_HOME). */
function chromiumsOf(home: string): number[] {
  const marker = `HERMES_HOME=${home}\0`;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return (
          /chrom/i.test(readFileSync(`/proc/${pid}/comm`, "utf8")) &&
          readFileSync(`/proc/${pid}/environ`, "latin1").includes(marker)
        );
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

describe("hermes-acp: browser tools over ACP (real Chromium)", function () {
  this.timeout(60_000);
  const site = useLocalSite();

  describe("with local dev servers allowed (the default)", () => {
    const server = useScriptedServer();

    it("navigates, reads the heading, types and clicks by ref, and reads the console and images back", async () => {
      let navigated = "";
      scriptSteps(server, [
        () => call("nav", "browser_navigate", { url: `${site.baseUrl}/` }),
        (request) => {
          navigated = snapshotOf(request);
          return call("type", "browser_type", { ref: refIn(navigated, 'textbox "Harbour name"'), text: "Whitby" });
        },
        () => call("click", "browser_click", { ref: refIn(navigated, 'button "Plan"') }),
        () => call("snap", "browser_snapshot", {}),
        () => call("console", "browser_console", {}),
        () => call("images", "browser_get_images", {}),
        () => call("eval", "browser_console", { expression: "document.getElementById('harbour').value" }),
        () => call("stale", "browser_click", { ref: "@e999" }),
        () => ({ kind: "text", chunks: ["Planned."] }),
      ]);
      const sessionId = await server.harness.newSession(server.workspace);
      assert.equal((await server.harness.prompt(sessionId, "plan the tides for Whitby")).stopReason, "end_turn");

      const results = toolResults(server);
      const nav = results.get("nav")!;
      assert.match(nav, /^<untrusted_tool_result source="browser_navigate">/, "page text is wrapped as untrusted");
      const navJson = resultJson(nav);
      assert.equal(navJson.success, true);
      assert.equal(navJson.title, "Tide planner");
      assert.equal(navJson.url, `${site.baseUrl}/`);
      assert.match(String(navJson.snapshot), /heading "Tide planner" \[level=1\] \[ref=e\d+\]/);
      assert.ok(Number(navJson.element_count) >= 4, `element_count ${navJson.element_count}`);

      assert.deepEqual(resultJson(results.get("type")!), {
        success: true,
        typed: "Whitby",
        element: refIn(navigated, 'textbox "Harbour name"'),
      });
      assert.deepEqual(resultJson(results.get("click")!), {
        success: true,
        clicked: refIn(navigated, 'button "Plan"'),
      });
      // The click ran the page's own script, which read what was typed.
      assert.match(String(resultJson(results.get("snap")!).snapshot), /heading "Planned for Whitby"/);

      const consoleJson = resultJson(results.get("console")!) as {
        console_messages: { type: string; text: string }[];
        js_errors: { message: string }[];
      };
      assert.deepEqual(
        consoleJson.console_messages.filter((m) => m.type !== "error").map((m) => [m.type, m.text]),
        [
          ["log", "planner ready"],
          ["warning", "tide data is 2 days old"],
        ],
      );
      assert.deepEqual(
        consoleJson.js_errors.map((e) => e.message),
        ["almanac failed to load"],
      );

      const images = resultJson(results.get("images")!) as { images: Record<string, unknown>[]; count: number };
      assert.deepEqual(images.images, [{ src: `${site.baseUrl}/chart.png`, alt: "Tide chart", width: 1, height: 1 }]);
      assert.deepEqual(resultJson(results.get("eval")!), { success: true, result: "Whitby", result_type: "str" });

      // A ref the page does not have fails at once (not after the command timeout), saying what to do.
      assert.match(
        String(resultJson(results.get("stale")!).error),
        /^No element @e999 on the page: .*new browser_snapshot/,
      );

      const ends = toolEnds(server);
      assert.deepEqual(
        ends.map((e) => [e.toolCallId, e.status]),
        [
          ...["nav", "type", "click", "snap", "console", "images", "eval"].map((id) => [id, "completed"]),
          ["stale", "failed"],
        ],
      );
      // One browser for the session, gone once the session is closed.
      assert.ok(chromiumsOf(server.home).length > 0, "the session's Chromium runs");
      await server.harness.agent.request("session/close", { sessionId });
      assert.ok(
        await waitUntil(() => chromiumsOf(server.home).length === 0, 10_000),
        "Chromium ended with the session",
      );

      const starts = server.harness.updates
        .map((u) => u.update)
        .filter((u): u is Extract<Update, { sessionUpdate: "tool_call" }> => u.sessionUpdate === "tool_call");
      assert.deepEqual(starts[0] && [starts[0].title, starts[0].kind], [`navigate: ${site.baseUrl}/`, "fetch"]);
    });

    it("refuses cloud metadata and private addresses, directly and as a redirect's next hop", async () => {
      scriptSteps(server, [
        () => call("meta", "browser_navigate", { url: "http://169.254.169.254/latest/meta-data/" }),
        () => call("redirect_meta", "browser_navigate", { url: `${site.baseUrl}/to-metadata` }),
        () => call("redirect_private", "browser_navigate", { url: `${site.baseUrl}/to-private` }),
        () => call("file", "browser_navigate", { url: "file:///etc/passwd" }),
        () => ({ kind: "text", chunks: ["Refused."] }),
      ]);
      const sessionId = await server.harness.newSession(server.workspace);
      await server.harness.prompt(sessionId, "look around");

      const results = toolResults(server);
      const error = (id: string) => {
        const json = resultJson(results.get(id)!);
        assert.equal(json.success, false, id);
        return String(json.error);
      };
      assert.match(error("meta"), /^Blocked: URL targets a cloud metadata or link-local address/);
      assert.match(error("redirect_meta"), /cloud metadata .*redirect landed on http:\/\/169\.254\.169\.254\//);
      assert.match(error("redirect_private"), /private or internal .*redirect landed on http:\/\/10\.0\.0\.1\/admin/);
      assert.match(error("file"), /only http and https pages can be opened \(got file\)/);
      assert.deepEqual(
        toolEnds(server).map((e) => e.status),
        ["failed", "failed", "failed", "failed"],
      );
    });
  });

  describe("with auxiliary.vision configured", () => {
    const server = useScriptedServer({
      config: (s) =>
        `auxiliary:\n  vision:\n    base_url: ${s.llm.baseUrl}\n    model: eye-1\n    api_key: sk-vision-key\n`,
    });

    it("sends a labelled screenshot to the vision model and shows it in the tool card", async () => {
      let navigated = "";
      scriptSteps(server, [
        () => call("nav", "browser_navigate", { url: `${site.baseUrl}/` }),
        (request) => {
          navigated = snapshotOf(request);
          return call("look", "browser_vision", { question: "Is there a Plan button?", annotate: true });
        },
        () => ({ kind: "text", chunks: ["Yes: a Plan button under the harbour field, labelled [7]."] }),
        () => ({ kind: "text", chunks: ["There is."] }),
      ]);
      const sessionId = await server.harness.newSession(server.workspace);
      assert.equal((await server.harness.prompt(sessionId, "is there a plan button?")).stopReason, "end_turn");

      const vision = server.llm.requests[2]!;
      assert.equal(vision.body.model, "eye-1");
      const parts = vision.body.messages.at(-1)!.content as unknown as {
        type: string;
        text?: string;
        image_url?: { url: string };
      }[];
      assert.match(
        parts[0]!.text!,
        /^You are analyzing a screenshot of a web browser\.\n\nUser's question: Is there a Plan button\?/,
      );
      const url = parts[1]!.image_url!.url;
      assert.match(url, /^data:image\/png;base64,/);
      const png = Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
      assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
      assert.equal(png.readUInt32BE(16), 1280, "the page at the browser's width");

      const result = resultJson(toolResults(server).get("look")!) as Record<string, unknown> & {
        annotations: { ref: string; label: string }[];
      };
      assert.equal(result.analysis, "Yes: a Plan button under the harbour field, labelled [7].");
      assert.match(String(result.screenshot_path), /cache\/screenshots\/browser_screenshot_\w+\.png$/);
      assert.deepEqual(
        result.annotations.find((a) => a.label === 'button "Plan"'),
        { ref: refIn(navigated, 'button "Plan"'), label: 'button "Plan"' },
      );
      const end = toolEnds(server).find((e) => e.toolCallId === "look")!;
      assert.equal(end.status, "completed");
      const shown = end.content!.flatMap((c) =>
        c.type === "content" && c.content.type === "image" ? [c.content] : [],
      );
      assert.deepEqual(
        shown.map((image) => [image.mimeType, image.data]),
        [["image/png", url.slice(url.indexOf(",") + 1)]],
      );
    });
  });

  describe("in read-only mode", () => {
    const server = useScriptedServer({ permission: "deny" });

    it("looks without asking, and asks before acting on the page (a denial leaves the page as it was)", async () => {
      let navigated = "";
      scriptSteps(server, [
        () => call("nav", "browser_navigate", { url: `${site.baseUrl}/` }),
        (request) => {
          navigated = snapshotOf(request);
          return call("click", "browser_click", { ref: refIn(navigated, 'button "Plan"') });
        },
        () => call("snap", "browser_snapshot", {}),
        () => ({ kind: "text", chunks: ["Not clicked."] }),
      ]);
      const sessionId = await server.harness.newSession(server.workspace);
      await server.harness.agent.request("session/set_mode", { sessionId, modeId: "read_only" });
      await server.harness.prompt(sessionId, "plan it");

      const results = toolResults(server);
      assert.equal(resultJson(results.get("nav")!).success, true);
      assert.match(
        String(resultJson(results.get("click")!).error),
        /^Read-only mode: browser_click @e\d+ acts on the page/,
      );
      assert.match(String(resultJson(results.get("snap")!).snapshot), /heading "Tide planner"/);
      assert.deepEqual(
        server.permissions.map((p) => [p.toolCall.toolCallId, p.toolCall.title]),
        [
          [
            "click",
            `Read-only mode: browser actions may change things: browser_click ${refIn(navigated, 'button "Plan"')}`,
          ],
        ],
      );
    });
  });

  describe("with browser.allow_localhost: false", () => {
    const server = useScriptedServer({ config: "browser:\n  allow_localhost: false\n" });

    it("refuses the local site, and a page's own requests to it never reach it", async () => {
      scriptSteps(server, [
        () => call("local", "browser_navigate", { url: `${site.baseUrl}/` }),
        () => call("blank", "browser_navigate", { url: "about:blank" }),
        () =>
          call("fetch", "browser_console", {
            expression: `fetch("${site.baseUrl}/secret").then(r => r.text(), e => "refused: " + e.message)`,
          }),
        () => ({ kind: "text", chunks: ["Done."] }),
      ]);
      const before = site.visits.length;
      const sessionId = await server.harness.newSession(server.workspace);
      await server.harness.prompt(sessionId, "try the local site");

      const results = toolResults(server);
      assert.match(String(resultJson(results.get("local")!).error), /private or internal network address/);
      assert.equal(resultJson(results.get("blank")!).success, true);
      assert.deepEqual(resultJson(results.get("fetch")!), {
        success: true,
        result: "refused: Failed to fetch",
        result_type: "str",
      });
      assert.deepEqual(site.visits.slice(before), [], "no request reached the local site");
    });
  });
});
