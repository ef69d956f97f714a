import { strict as assert } from "node:assert";
import type { RuntimeProvider } from "../../agent/config/runtime-provider.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import type { ToolContext } from "../../agent/tools/tool.js";
import { analyzeImage } from "../../agent/tools/vision/analyze-image.js";
import { createVisionModels } from "../../agent/tools/vision/vision-models.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { toolEnvironment } from "../helpers/tool-env.js";

// A real 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

type Part = { type: string; text?: string; image_url?: { url: string } };

describe("the vision seam (analyzeImage)", () => {
  const temp = new TempDirs();
  let llm: ScriptedLlm;
  beforeEach(async () => {
    llm = await ScriptedLlm.start();
  });
  afterEach(async () => {
    await llm.close();
    temp.cleanup();
  });

  const session = (model: string, supportsVision?: boolean): RuntimeProvider => ({
    providerId: "custom",
    providerLabel: "Scripted",
    model,
    baseUrl: llm.baseUrl,
    apiMode: "chat_completions",
    apiKey: "sk-session",
    keySource: "CUSTOM_API_KEY",
    keyVariables: ["CUSTOM_API_KEY"],
    keyOptional: true,
    contextLength: undefined,
    ...(supportsVision === undefined ? {} : { supportsVision }),
  });

  function context(yaml: string, runtime: RuntimeProvider, signal = new AbortController().signal): ToolContext {
    const vision = createVisionModels({
      config: { yaml: parseYamlText("/h/config.yaml", yaml), env: {}, configPath: "/h/config.yaml" },
      sessionRuntime: () => runtime,
      openClient: createModelClient,
    });
    const env = toolEnvironment(temp.make(), temp.make());
    return { ...env, vision, signal, toolCallId: "call_1", progress: () => {} };
  }

  function sentParts(index = 0): Part[] {
    const message = llm.requests[index]!.body.messages.at(-1)!;
    return message.content as unknown as Part[];
  }

  it("sends the image and the question to auxiliary.vision and returns its answer", async () => {
    llm.enqueue({ kind: "text", chunks: ["A red ", "square."] });
    const yaml = `auxiliary:\n  vision:\n    base_url: ${llm.baseUrl}\n    model: eye-1\n    api_key: sk-vision\n`;
    const answer = await analyzeImage(
      context(yaml, session("text-only-model")),
      { mimeType: "image/png", data: PNG },
      "What is it?",
    );
    assert.deepEqual(answer, { ok: true, text: "A red square.", model: "eye-1", source: "auxiliary.vision" });
    const request = llm.requests[0]!;
    assert.equal(request.body.model, "eye-1");
    assert.equal(request.headers.authorization, "Bearer sk-vision");
    assert.equal((request.json as { temperature?: number }).temperature, 0.1);
    assert.deepEqual(
      sentParts().map((p) => p.text ?? p.image_url?.url),
      ["What is it?", `data:image/png;base64,${PNG}`],
    );
  });

  it("falls back to the session's model when it sees images", async () => {
    llm.enqueue({ kind: "text", chunks: ["A pixel."] });
    const answer = await analyzeImage(context("", session("gpt-4o")), { mimeType: "image/png", data: PNG }, "Describe");
    assert.deepEqual(answer, { ok: true, text: "A pixel.", model: "gpt-4o", source: "session" });
    assert.equal(sentParts()[1]!.image_url?.url, `data:image/png;base64,${PNG}`);
  });

  it("says how to configure auxiliary.vision when no model sees images, and asks no one", async () => {
    const answer = await analyzeImage(
      context("", session("text-only-model", false)),
      { mimeType: "image/png", data: PNG },
      "?",
    );
    assert.equal(answer.ok, false);
    assert.match(
      !answer.ok ? answer.error : "",
      /text-only-model\) does not accept images and auxiliary\.vision is not configured\. Set auxiliary\.vision in \/h\/config\.yaml/,
    );
    assert.equal(llm.requests.length, 0);
  });

  it("refuses what is not an image before any request, and reports a provider failure as an error", async () => {
    const ctx = context("", session("gpt-4o"));
    const bad = await analyzeImage(
      ctx,
      { mimeType: "image/png", data: Buffer.from("plain text").toString("base64") },
      "?",
    );
    assert.match(!bad.ok ? bad.error : "", /not a PNG, JPEG, GIF or WebP image/);
    assert.equal(llm.requests.length, 0);
    llm.enqueue({ kind: "error", status: 400, message: "model does not support image input" });
    const failed = await analyzeImage(ctx, { mimeType: "image/png", data: PNG }, "?");
    assert.equal(failed.ok, false);
    assert.match(!failed.ok ? failed.error : "", /does not support image input/);
  });

  it("gives up at auxiliary.vision.timeout", async () => {
    llm.enqueue({ kind: "hang" });
    const yaml = "auxiliary:\n  vision:\n    timeout: 0.3\n";
    const answer = await analyzeImage(context(yaml, session("gpt-4o")), { mimeType: "image/png", data: PNG }, "?");
    assert.deepEqual(answer, {
      ok: false,
      error: "gpt-4o did not answer within 0.3 s (auxiliary.vision.timeout).",
      model: "gpt-4o",
    });
  });

  it("reports a wrong auxiliary.vision value with its line", async () => {
    const answer = await analyzeImage(
      context("auxiliary:\n  vision:\n    timeout: -1\n", session("gpt-4o")),
      { mimeType: "image/png", data: PNG },
      "?",
    );
    assert.match(!answer.ok ? answer.error : "", /auxiliary\.vision\.timeout must be a positive number of seconds/);
  });
});
