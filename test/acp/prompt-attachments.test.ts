import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { hermesHomeFor, TempDirs, writeTree } from "../helpers/temp-dirs.js";

// A real 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

type Json = Record<string, unknown>;

describe("hermes-acp: attached files are inlined as upstream does, under the @file guards", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let harness: AcpHarness | undefined;
  let workspace: string;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
    workspace = temp.make("hermes-ws-");
    writeTree(workspace, {
      "notes.md": "# Notes\nship on Friday\n",
      ".env": "OPENAI_API_KEY=sk-secret-value-123\n",
    });
  });

  afterEach(async () => {
    await harness?.closeAndCheck();
    harness = undefined;
    await llm.close();
    temp.cleanup();
  });

  /** A session on `model` (with `extraYaml` under `model:`), the client offering `fs` when `client` is given. */
  async function session(
    model = "scripted-model",
    extraYaml = "",
    client?: acp.ClientApp,
    capabilities: acp.ClientCapabilities = {},
  ): Promise<string> {
    harness = AcpHarness.spawn(
      serverEnv(hermesHomeFor(temp.make(), llm.baseUrl, model, extraYaml, 0), DISCARDED_HOME_ENV),
      client ? { client } : {},
    );
    await harness.initialize(capabilities);
    return harness.newSession(workspace);
  }

  async function ask(sessionId: string, prompt: acp.ContentBlock[]): Promise<string> {
    return (await harness!.agent.request("session/prompt", { sessionId, prompt })).stopReason;
  }

  const link = (path: string, extra: Partial<acp.ResourceLink> = {}): acp.ContentBlock => ({
    type: "resource_link",
    uri: pathToFileURL(join(workspace, path)).href,
    name: path.split("/").pop()!,
    ...extra,
  });
  const userMessage = (request = 0): string => String(llm.requests[request]!.body.messages.at(-1)!.content);

  it("inlines a text file under its header, in the order the blocks came", async () => {
    llm.enqueue({ kind: "text", chunks: ["Friday."] });
    const id = await session();
    assert.equal(
      await ask(id, [
        { type: "text", text: "when do we ship?" },
        link("notes.md"),
        { type: "text", text: "answer briefly" },
      ]),
      "end_turn",
    );
    const uri = pathToFileURL(join(workspace, "notes.md")).href;
    assert.equal(
      userMessage(),
      `when do we ship?\n\n[Attached file: notes.md]\nURI: ${uri}\n\n# Notes\nship on Friday\n\n\nanswer briefly`,
    );
    assert.equal(harness!.replyText(id), "Friday.", "nothing to warn about");
  });

  it("reads the editor's unsaved buffer when the client offers fs", async () => {
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const client = acp.client({ name: "editor" }).onRequest("fs/read_text_file", async ({ params }) => ({
      content:
        params.path === join(workspace, "notes.md")
          ? "# Notes\nship on Monday (unsaved)\n"
          : readFileSync(params.path, "utf8"),
    }));
    const id = await session("scripted-model", "", client, { fs: { readTextFile: true } });
    await ask(id, [{ type: "text", text: "when?" }, link("notes.md")]);
    assert.match(userMessage(), /\n\n# Notes\nship on Monday \(unsaved\)\n$/);
  });

  it("inlines the first 512 KiB of a larger file and says it was truncated", async () => {
    const size = 600 * 1024;
    writeFileSync(join(workspace, "big.log"), "x".repeat(size - 4) + "END\n");
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session("scripted-model", "  context_length: 1000000\n");
    await ask(id, [{ type: "text", text: "summarise" }, link("big.log")]);
    const message = userMessage();
    assert.ok(
      message.includes(`[Attached file: big.log] (truncated to 524288 of ${size} bytes)\nURI: `),
      message.slice(0, 300),
    );
    assert.ok(message.endsWith(`\n\n${"x".repeat(524288)}`), "exactly the first 524288 bytes");
    assert.ok(!message.includes("END"));
  });

  it("names a binary file instead of inlining it", async () => {
    writeFileSync(join(workspace, "data.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02, 0x03, 0xff]));
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session();
    await ask(id, [{ type: "text", text: "what is it?" }, link("data.bin", { mimeType: "application/octet-stream" })]);
    assert.match(
      userMessage(),
      /\[Attached file: data\.bin\]\nURI: file:\/\/.*data\.bin\n\n\[Binary file omitted: 9 bytes, mime=application\/octet-stream\]$/,
    );
  });

  it("links a non-file URI without reading it", async () => {
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session();
    await ask(id, [
      { type: "text", text: "see" },
      { type: "resource_link", uri: "https://example.com/spec.html", name: "spec.html", title: "The spec" },
    ]);
    assert.equal(
      userMessage(),
      "see\n\n[Attached file: The spec (spec.html)]\nURI: https://example.com/spec.html\n\n[Resource link only; Hermes cannot read non-file ACP resource URIs directly.]",
    );
  });

  it("refuses a .env file: the secret never reaches the model and the user is told", async () => {
    llm.enqueue({ kind: "text", chunks: ["I cannot see it."] });
    const id = await session();
    await ask(id, [{ type: "text", text: "check my keys" }, link(".env")]);
    const message = userMessage();
    assert.ok(!message.includes("sk-secret-value-123"), "the secret was not sent");
    assert.match(
      message,
      /\[Attached file: \.env\]\nURI: file:\/\/.*\.env\n\n\[Not attached: path is a sensitive credential or internal Hermes path and cannot be attached\]$/,
    );
    assert.match(
      harness!.replyText(id),
      /^⚠️ Attachments not added: \.env: path is a sensitive credential or internal Hermes path and cannot be attached/,
    );
  });

  it("refuses a file outside the workspace", async () => {
    const outside = join(temp.make("hermes-outside-"), "private.txt");
    writeFileSync(outside, "not yours\n");
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session();
    await ask(id, [
      { type: "text", text: "read" },
      { type: "resource_link", uri: pathToFileURL(outside).href, name: "private.txt" },
    ]);
    assert.ok(!userMessage().includes("not yours"));
    assert.match(harness!.replyText(id), /Attachments not added: private\.txt: path is outside the allowed workspace/);
  });

  it("sends an attached image file to a vision model as an image", async () => {
    writeFileSync(join(workspace, "shot.png"), Buffer.from(PNG, "base64"));
    llm.enqueue({ kind: "text", chunks: ["A pixel."] });
    const id = await session("gpt-4o");
    await ask(id, [{ type: "text", text: "what is this?" }, link("shot.png")]);
    const user = (llm.requests[0]!.json.messages as Json[]).filter((m) => m.role === "user").at(-1)!;
    const uri = pathToFileURL(join(workspace, "shot.png")).href;
    assert.deepEqual(user.content, [
      { type: "text", text: `what is this?\n\n[Attached image: shot.png]\nURI: ${uri}` },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it("refuses attachments over half the model's window, and warns over a quarter", async () => {
    writeFileSync(join(workspace, "medium.txt"), "word ".repeat(1000)); // 5,000 chars ≈ 1,250 tokens
    llm.enqueue({ kind: "text", chunks: ["ok"] }, { kind: "text", chunks: ["ok"] });
    // A tiny window, so a small file crosses the limits (compression off: it would act on a window this small).
    const id = await session("scripted-model", "  context_length: 2000\ncompression:\n  enabled: false\n");
    await ask(id, [{ type: "text", text: "too much" }, link("medium.txt")]);
    assert.ok(!userMessage(0).includes("word word"), "nothing of the file was sent");
    assert.match(
      userMessage(0),
      /\[Attached file: medium\.txt\]\nURI: .*\n\n\[Not attached: the attachments come to 1250 tokens, over the 50% limit \(1000\) of the model's context window\]$/,
    );
    assert.match(
      harness!.replyText(id),
      /Attachments not added: 1250 tokens of attachments exceed the 50% hard limit \(1000\) of the model's context window\./,
    );

    writeFileSync(join(workspace, "medium.txt"), "word ".repeat(500)); // ≈ 625 tokens: over 500, under 1,000
    await ask(id, [{ type: "text", text: "this much" }, link("medium.txt")]);
    assert.ok(userMessage(1).includes("word word"));
    assert.match(
      harness!.replyText(id),
      /Large attachments: The attachments come to 625 tokens, over a quarter \(500\) of the model's context window/,
    );
  });

  it("takes @ references from what the user typed, never from an attached file", async () => {
    writeTree(workspace, { "quoted.md": "see @file:notes.md for details\n" });
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session();
    await ask(id, [{ type: "text", text: "read this" }, link("quoted.md")]);
    assert.ok(!userMessage().includes("--- Attached Context ---"), "the attached file's @file was not expanded");
    assert.ok(!userMessage().includes("ship on Friday"));
  });
});
