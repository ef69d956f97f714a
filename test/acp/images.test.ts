import { strict as assert } from "node:assert";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "../helpers/acp-harness.js";
import { ServerPool } from "../helpers/server-pool.js";
import { hermesHomeFor, TempDirs } from "../helpers/temp-dirs.js";

// A real 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const DATA_URL = `data:image/png;base64,${PNG}`;
const IMAGE: ContentBlock = { type: "image", mimeType: "image/png", data: PNG, uri: "file:///tmp/shot.png" };

type Json = Record<string, unknown>;

describe("hermes-acp: images in prompts", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  let harness: AcpHarness | undefined;

  beforeEach(async () => {
    llm = await ScriptedLlm.start();
  });

  afterEach(async () => {
    await harness?.closeAndCheck();
    harness = undefined;
    await llm.close();
    temp.cleanup();
  });

  async function session(model: string, extraYaml = ""): Promise<string> {
    harness = AcpHarness.spawn(
      serverEnv(hermesHomeFor(temp.make(), llm.baseUrl, model, extraYaml, 0), DISCARDED_HOME_ENV),
    );
    const init = await harness.initialize();
    assert.equal(init.agentCapabilities?.promptCapabilities?.image, true, "initialize advertises images");
    return harness.newSession(temp.make("hermes-ws-"));
  }

  async function ask(sessionId: string, prompt: ContentBlock[]): Promise<string> {
    const response = await harness!.agent.request("session/prompt", { sessionId, prompt });
    return response.stopReason;
  }

  const lastUser = (list: unknown): Json => (list as Json[]).filter((m) => m.role === "user").at(-1)!;

  it("reaches a chat-completions vision model as an image_url data URL", async () => {
    llm.enqueue({ kind: "text", chunks: ["A single pixel."] });
    const id = await session("gpt-4o");
    assert.equal(await ask(id, [{ type: "text", text: "What is in this picture?" }, IMAGE]), "end_turn");
    assert.deepEqual(lastUser(llm.requests[0]!.json.messages).content, [
      { type: "text", text: "What is in this picture?" },
      { type: "image_url", image_url: { url: DATA_URL } },
    ]);
    assert.equal(harness!.replyText(id), "A single pixel.");
  });

  it("reaches a Responses API model as an input_image", async () => {
    llm.enqueue({ kind: "text", chunks: ["A pixel."] });
    const id = await session("gpt-5", "  api_mode: codex_responses\n");
    await ask(id, [{ type: "text", text: "Describe it" }, IMAGE]);
    assert.equal(llm.requests[0]!.format, "responses");
    assert.deepEqual(lastUser(llm.requests[0]!.json.input).content, [
      { type: "input_text", text: "Describe it" },
      { type: "input_image", image_url: DATA_URL, detail: "auto" },
    ]);
  });

  it("reaches an Anthropic model as a base64 image block", async () => {
    llm.enqueue({ kind: "text", chunks: ["A pixel."] });
    const id = await session("claude-sonnet-4", "  api_mode: anthropic_messages\n");
    await ask(id, [{ type: "text", text: "Describe it" }, IMAGE]);
    assert.equal(llm.requests[0]!.format, "anthropic_messages");
    const blocks = lastUser(llm.requests[0]!.json.messages).content as Json[];
    assert.deepEqual(blocks[0], { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } });
    assert.deepEqual([blocks[1]!.type, blocks[1]!.text], ["text", "Describe it"], "the text follows the image");
  });

  it("tells a model without vision that an image was attached, and tells the user", async () => {
    llm.enqueue({ kind: "text", chunks: ["I cannot see it; please describe it."] });
    const id = await session("scripted-model");
    await ask(id, [{ type: "text", text: "What is this?" }, IMAGE]);
    const content = lastUser(llm.requests[0]!.body.messages).content;
    assert.equal(typeof content, "string", "no image part is sent to a text-only model");
    assert.match(
      content as string,
      /^What is this\?\n\n\[The user attached an image \(shot\.png, image\/png, 70 bytes\), but the current model cannot see images\./,
    );
    assert.match(
      harness!.replyText(id),
      /^⚠️ Images not shown to the model: scripted-model cannot see images, so it was only told that the image was attached\. .*model\.supports_vision: true/,
    );
  });

  it("sends images to a model the config declares vision-capable (model.supports_vision)", async () => {
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session("scripted-model", "  supports_vision: true\n");
    await ask(id, [IMAGE]);
    assert.deepEqual(
      lastUser(llm.requests[0]!.json.messages).content,
      [{ type: "image_url", image_url: { url: DATA_URL } }],
      "an image-only prompt is just the image",
    );
  });

  it("refuses an image that is not base64 or not an image, says why, and still sends the text", async () => {
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session("gpt-4o");
    const bad: ContentBlock[] = [
      { type: "text", text: "two pictures" },
      { type: "image", mimeType: "image/png", data: "%%% not base64 %%%", uri: "file:///tmp/broken.png" },
      { type: "image", mimeType: "image/svg+xml", data: Buffer.from("<svg/>").toString("base64") },
    ];
    assert.equal(await ask(id, bad), "end_turn");
    assert.equal(lastUser(llm.requests[0]!.body.messages).content, "two pictures");
    const reply = harness!.replyText(id);
    assert.match(reply, /Attachments not added: "broken\.png" could not be read: its data is not valid base64\./);
    assert.match(reply, /Attachments not added: The image \(image\/svg\+xml\) is not a PNG, JPEG, GIF or WebP image/);
  });

  it("refuses for an Anthropic session an image under 5 MB whose base64 is over Anthropic's 5 MB", async () => {
    llm.enqueue({ kind: "text", chunks: ["ok"] });
    const id = await session("claude-sonnet-4", "  api_mode: anthropic_messages\n");
    const bytes = Buffer.alloc(4 * 1024 * 1024);
    Buffer.from(PNG, "base64").copy(bytes);
    const big: ContentBlock = {
      type: "image",
      mimeType: "image/png",
      data: bytes.toString("base64"),
      uri: "file:///tmp/big.png",
    };
    assert.equal(await ask(id, [{ type: "text", text: "Describe it" }, big]), "end_turn");
    const blocks = lastUser(llm.requests[0]!.json.messages).content as Json[];
    assert.deepEqual(
      blocks.map((b) => b.type),
      ["text"],
      "no image block that the API would answer with a 400",
    );
    assert.match(
      harness!.replyText(id),
      /Attachments not added: "big\.png" is 4 MB, 5\.4 MB once encoded; Anthropic's API takes images up to 5 MB encoded/,
    );
  });

  it("does not call the model when the prompt was only a refused image", async () => {
    const id = await session("gpt-4o");
    assert.equal(await ask(id, [{ type: "image", mimeType: "image/png", data: "garbage!" }]), "end_turn");
    assert.equal(llm.requests.length, 0);
    assert.match(harness!.replyText(id), /not valid base64/);
  });
});

describe("hermes-acp: images in saved sessions", () => {
  const temp = new TempDirs();
  const servers = new ServerPool();
  let llm: ScriptedLlm;

  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => {
    await servers.closeAll();
    await llm.close();
    temp.cleanup();
  });

  it("keeps a placeholder, not the bytes, and a reloaded session goes on without the image", async () => {
    llm.enqueue({ kind: "text", chunks: ["A pixel."] }, { kind: "text", chunks: ["Still a pixel."] });
    const home = hermesHomeFor(temp.make(), llm.baseUrl, "gpt-4o", "", 0);
    const workspace = temp.make("hermes-ws-");
    const first = await servers.start(home);
    const sessionId = await first.newSession(workspace);
    await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look" }, IMAGE] });
    await servers.closeAll();

    const second = await servers.start(home, DISCARDED_HOME_ENV);
    await second.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    const replayed = second.updates.find((u) => u.update.sessionUpdate === "user_message_chunk")!.update as {
      content: { text: string };
    };
    assert.equal(replayed.content.text, "look\n\n[image: shot.png, image/png, 70 bytes]");
    await second.prompt(sessionId, "and now?");
    const sent = JSON.stringify(llm.requests[1]!.json);
    assert.ok(!sent.includes(PNG.slice(0, 24)), "the image bytes were not kept");
    assert.ok(sent.includes("[image: shot.png, image/png, 70 bytes]"));
  });
});
