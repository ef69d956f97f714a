import { strict as assert } from "node:assert";
import { estimateMessageTokens } from "../../agent/compress/token-estimate.js";
import { knownVisionSupport } from "../../agent/config/model-metadata.js";
import { readModelSettings } from "../../agent/config/model-settings.js";
import { type RuntimeProvider, resolveRuntimeProvider } from "../../agent/config/runtime-provider.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { toAnthropicMessages } from "../../agent/providers/anthropic-messages.js";
import { createModelClient } from "../../agent/providers/create-model-client.js";
import {
  checkImage,
  IMAGE_TOKEN_ESTIMATE,
  type ImageCheck,
  MAX_IMAGE_BYTES,
  withImagesAsNotes,
} from "../../agent/providers/image-parts.js";
import type { ChatMessage, ImageAttachment } from "../../agent/providers/messages.js";
import { toResponsesInput } from "../../agent/providers/responses.js";
import { fromStoredMessages, toStoredMessages } from "../../agent/session/history-codec.js";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";

// A real 1×1 PNG and the first bytes of a JPEG: the checks look at the bytes, not the label.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PNG_BYTES = Buffer.from(PNG, "base64").length;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString("base64");

function accepted(check: ImageCheck): ImageAttachment {
  assert.ok(check.ok, check.ok ? "" : check.reason);
  return check.image;
}

function refusal(check: ImageCheck): string {
  assert.ok(!check.ok, "expected the image to be refused");
  return check.reason;
}

const shot = (): ImageAttachment => accepted(checkImage({ data: PNG, mimeType: "image/png", name: "shot.png" }));

describe("images: checking what a client sends", () => {
  it("accepts a PNG and measures its decoded size", () => {
    assert.deepEqual(shot(), { mimeType: "image/png", data: PNG, bytes: PNG_BYTES, name: "shot.png" });
  });

  it("trusts the bytes over the label, and takes a data URL as well as bare base64", () => {
    assert.equal(accepted(checkImage({ data: PNG, mimeType: "image/jpeg" })).mimeType, "image/png");
    const fromUrl = accepted(checkImage({ data: `data:image/jpeg;base64,${JPEG}`, mimeType: "" }));
    assert.deepEqual([fromUrl.mimeType, fromUrl.data], ["image/jpeg", JPEG]);
  });

  it("refuses garbage that is not base64, with a reason instead of a crash", () => {
    assert.match(
      refusal(checkImage({ data: "this is %%% not base64!", mimeType: "image/png", name: "x.png" })),
      /^"x\.png" could not be read: its data is not valid base64\.$/,
    );
    assert.match(refusal(checkImage({ data: "", mimeType: "image/png" })), /without any data/);
  });

  it("refuses formats the models do not take, naming what was sent", () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString("base64");
    assert.match(
      refusal(checkImage({ data: svg, mimeType: "image/svg+xml", name: "logo.svg" })),
      /"logo\.svg" \(image\/svg\+xml\) is not a PNG, JPEG, GIF or WebP image/,
    );
  });

  it("refuses an image over 5 MB and says how big it was", () => {
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1024);
    Buffer.from(PNG, "base64").copy(big);
    assert.match(
      refusal(checkImage({ data: big.toString("base64"), mimeType: "image/png", name: "huge.png" })),
      /^"huge\.png" is 5\.1 MB; images are limited to 5 MB\. Send a smaller or compressed image\.$/,
    );
  });
});

describe("images: Anthropic's limit counts base64 characters", () => {
  // 4 MiB of PNG: under the 5 MB decoded cap, but about 5.6 MB once base64-encoded.
  const fourMiB = (() => {
    const bytes = Buffer.alloc(4 * 1024 * 1024);
    Buffer.from(PNG, "base64").copy(bytes);
    return bytes.toString("base64");
  })();

  it("refuses for a session on the Messages API an image whose base64 is over 5,242,880 characters", () => {
    assert.ok(fourMiB.length > 5_242_880);
    assert.match(
      refusal(checkImage({ data: fourMiB, mimeType: "image/png", name: "big.png" }, "anthropic_messages")),
      /^"big\.png" is 4 MB, 5\.4 MB once encoded; Anthropic's API takes images up to 5 MB encoded \(about 3\.75 MB\)\. Send a smaller or compressed image\.$/,
    );
    const atLimit = Buffer.alloc(3.75 * 1024 * 1024);
    Buffer.from(PNG, "base64").copy(atLimit);
    assert.ok(
      checkImage({ data: atLimit.toString("base64"), mimeType: "image/png" }, "anthropic_messages").ok,
      "3.75 MiB encodes to exactly the limit",
    );
    const overLimit = Buffer.concat([atLimit, Buffer.alloc(3)]).toString("base64");
    assert.ok(!checkImage({ data: overLimit, mimeType: "image/png" }, "anthropic_messages").ok);
  });

  it("keeps the 5 MB decoded cap for the OpenAI APIs", () => {
    for (const api of ["chat_completions", "codex_responses", undefined] as const) {
      assert.equal(accepted(checkImage({ data: fourMiB, mimeType: "image/png" }, api)).bytes, 4 * 1024 * 1024);
    }
  });

  it("sends Claude a note, not a 400, for an over-limit image already in the history", () => {
    const image = accepted(checkImage({ data: fourMiB, mimeType: "image/png", name: "big.png" }));
    const [message] = toAnthropicMessages([{ role: "user", content: "what is this?", images: [image, shot()] }]);
    const blocks = message!.content as Array<{ type: string; text?: string; source?: { data: string } }>;
    assert.deepEqual(
      blocks.map((b) => b.type),
      ["image", "text"],
    );
    assert.equal(blocks[0]!.source!.data, PNG, "the image that fits still goes");
    assert.match(
      blocks[1]!.text!,
      /^what is this\?\n\n\[The user attached an image \(big\.png, image\/png, 4 MB\) that is over this API's 5 MB limit once encoded, so it was not sent\./,
    );
  });
});

describe("images: on the wire and in words", () => {
  const messages: ChatMessage[] = [{ role: "user", content: "what is this?", images: [shot()] }];

  it("becomes input_text + input_image for the Responses API", () => {
    assert.deepEqual(toResponsesInput(messages), [
      {
        role: "user",
        content: [
          { type: "input_text", text: "what is this?" },
          { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
        ],
      },
    ]);
  });

  it("becomes a base64 image block, before the text, for Anthropic", () => {
    assert.deepEqual(toAnthropicMessages(messages), [
      {
        role: "user",
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          { type: "text", text: "what is this?" },
        ],
      },
    ]);
  });

  it("is replaced by a note for a model that cannot see it", () => {
    assert.deepEqual(withImagesAsNotes(messages), [
      {
        role: "user",
        content: `what is this?\n\n[The user attached an image (shot.png, image/png, ${PNG_BYTES} bytes), but the current model cannot see images. Do not guess what it shows; say so, and ask the user to describe it or to switch to a vision-capable model.]`,
      },
    ]);
  });

  it("is saved as a placeholder, never as bytes", () => {
    const [row] = toStoredMessages(messages, 1, new Map());
    assert.equal(row!.content, `what is this?\n\n[image: shot.png, image/png, ${PNG_BYTES} bytes]`);
    assert.ok(!JSON.stringify(row).includes(PNG.slice(0, 20)));
    assert.deepEqual(fromStoredMessages([row!]), [{ role: "user", content: row!.content }]);
  });

  it("counts a fixed cost toward the context window", () => {
    assert.equal(
      estimateMessageTokens(messages[0]!) - estimateMessageTokens({ role: "user", content: "what is this?" }),
      IMAGE_TOKEN_ESTIMATE,
    );
  });
});

describe("images: which models see them", () => {
  it("knows the vision families and the text-only ones", () => {
    for (const model of [
      "gpt-4o",
      "openai/gpt-4.1-mini",
      "gpt-5",
      "o3",
      "anthropic/claude-sonnet-4",
      "claude-3-5-haiku",
      "gemini-2.5-pro",
      "qwen2.5-vl-72b-instruct",
      "llama-3.2-11b-vision-instruct",
      "deepseek-vl2",
    ]) {
      assert.equal(knownVisionSupport(model), true, model);
    }
    for (const model of ["deepseek-chat", "o3-mini", "gpt-3.5-turbo", "hermes-4-70b", "qwen3-coder-480b", "kimi-k2"])
      assert.equal(knownVisionSupport(model), false, model);
    assert.equal(knownVisionSupport("my-local-model"), undefined);
  });

  it("lets model.supports_vision decide, as upstream's config override does", () => {
    const settingsOf = (text: string) => readModelSettings(parseYamlText("/h/config.yaml", text));
    const runtime = (yaml: string) => {
      const r = resolveRuntimeProvider(settingsOf(yaml), {}, "/h/config.yaml");
      assert.ok(r.ok);
      return r.runtime;
    };
    assert.equal(
      runtime("model:\n  provider: custom\n  base_url: http://127.0.0.1:1/v1\n  default: my-local-model\n")
        .supportsVision,
      false,
    );
    assert.equal(
      runtime(
        "model:\n  provider: custom\n  base_url: http://127.0.0.1:1/v1\n  default: my-local-model\n  supports_vision: true\n",
      ).supportsVision,
      true,
    );
    assert.equal(
      runtime(
        'model:\n  provider: custom\n  base_url: http://127.0.0.1:1/v1\n  default: gpt-4o\n  supports_vision: "no"\n',
      ).supportsVision,
      false,
    );
    assert.throws(
      () => settingsOf("model:\n  default: x\n  supports_vision: maybe\n"),
      /model\.supports_vision must be true or false/,
    );
  });
});

describe("images: through a real client (chat completions)", () => {
  let llm: ScriptedLlm;
  beforeEach(async () => (llm = await ScriptedLlm.start()));
  afterEach(async () => llm.close());

  const runtime = (model: string): RuntimeProvider => ({
    providerId: "custom",
    providerLabel: "Scripted",
    model,
    baseUrl: llm.baseUrl,
    apiMode: "chat_completions",
    apiKey: "k",
    keySource: undefined,
    keyVariables: [],
    keyOptional: true,
    contextLength: undefined,
  });

  async function send(model: string, images: readonly ImageAttachment[]): Promise<unknown> {
    llm.enqueue({ kind: "text", chunks: ["seen"] });
    const client = await createModelClient(runtime(model));
    for await (const event of client.stream(
      { model, systemPrompt: "", messages: [{ role: "user", content: "look", images }], tools: [] },
      new AbortController().signal,
    ))
      void event;
    return (llm.requests.at(-1)!.json.messages as Array<{ content: unknown }>).at(-1)!.content;
  }

  it("sends a vision model text and image_url data URL parts", async () => {
    assert.deepEqual(await send("gpt-4o", [shot()]), [
      { type: "text", text: "look" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it("sends a text-only model the note instead, so the request is never rejected", async () => {
    const content = await send("deepseek-chat", [shot(), shot()]);
    assert.equal(typeof content, "string");
    assert.match(
      content as string,
      /^look\n\n\[The user attached 2 images \(shot\.png, image\/png, \d+ bytes; shot\.png, image\/png, \d+ bytes\), but the current model cannot see images\./,
    );
  });
});
