import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ToolContext } from "../../agent/tools/tool.js";
import { type ImageSourceOptions, resolveImageSource } from "../../agent/tools/vision/image-source.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { ScriptedUser, toolEnvironment } from "../helpers/tool-env.js";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("vision_analyze's image sources", () => {
  const temp = new TempDirs();
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    temp.cleanup();
  });

  function setup(user = new ScriptedUser()) {
    const root = temp.make();
    const home = temp.make();
    const ctx: ToolContext = {
      ...toolEnvironment(root, temp.make(), user),
      signal: new AbortController().signal,
      toolCallId: "call_1",
      progress: () => {},
    };
    const options: ImageSourceOptions = {
      userHome: home,
      env: {},
      downloadTimeoutMs: 5000,
      allowPrivateUrls: true,
      maxBytes: 1000,
    };
    return { root, home, ctx, options, user };
  }

  async function serve(contentType: string, body: Buffer): Promise<string> {
    server = createServer((_req, res) => res.writeHead(200, { "content-type": contentType }).end(body));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/images/pixel.png`;
  }

  it("downloads an image URL (when private addresses are allowed) with its type and name", async () => {
    const { ctx, options } = setup();
    const resolved = await resolveImageSource(ctx, await serve("image/png", PNG), options);
    assert.deepEqual(resolved, {
      ok: true,
      image: { mimeType: "image/png", data: PNG.toString("base64"), name: "pixel.png" },
    });
  });

  it("refuses a page where an image was expected, and an image over the cap", async () => {
    const { ctx, options } = setup();
    const page = await resolveImageSource(ctx, await serve("text/html; charset=utf-8", Buffer.from("<html>")), options);
    assert.match(!page.ok ? page.error : "", /is not an image \(content type text\/html\)/);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const big = await resolveImageSource(ctx, await serve("image/png", Buffer.alloc(5000)), options);
    assert.match(!big.ok ? big.error : "", /^Image too large \(over 1000 bytes\); images are limited to 1000 bytes/);
  });

  it("refuses private addresses unless security.allow_private_urls, and unknown schemes", async () => {
    const { ctx, options } = setup();
    const url = await serve("image/png", PNG);
    const refused = await resolveImageSource(ctx, url, { ...options, allowPrivateUrls: false });
    assert.match(!refused.ok ? refused.error : "", /Blocked: URL targets a private or internal network address/);
    const ftp = await resolveImageSource(ctx, "ftp://example.com/a.png", options);
    assert.match(!ftp.ok ? ftp.error : "", /^Unrecognized image source scheme/);
  });

  it("reads a workspace file, and asks before reading one outside the workspace", async () => {
    const { root, ctx, options, user } = setup();
    writeFileSync(join(root, "pixel.png"), PNG);
    const inside = await resolveImageSource(ctx, "pixel.png", options);
    assert.equal(inside.ok && inside.image.data, PNG.toString("base64"));
    const elsewhere = temp.make();
    writeFileSync(join(elsewhere, "pixel.png"), PNG);
    const outside = await resolveImageSource(ctx, join(elsewhere, "pixel.png"), options);
    assert.match(!outside.ok ? outside.error : "", /^Read denied by the user: .* is outside the workspace/);
    assert.equal(user.readRequests.length, 1);
    assert.equal(user.readRequests[0]!.tool, "vision_analyze");
  });

  it("says when a file is missing", async () => {
    const { ctx, options } = setup();
    const missing = await resolveImageSource(ctx, "nope.png", options);
    assert.deepEqual(missing, { ok: false, error: "image file not found: 'nope.png'" });
  });
});
