import assert from "node:assert/strict";
import { createServer, get, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { type GuardProxy, startGuardProxy } from "../../agent/tools/browser/guard-proxy.js";
import { checkHost, type RequestPolicy, requestBlockReason } from "../../agent/tools/browser/request-guard.js";

const LOCAL_ONLY: RequestPolicy = { allowLocalhost: true, allowPrivateUrls: false };
const STRICT: RequestPolicy = { allowLocalhost: false, allowPrivateUrls: false };

/** What the proxy answers a raw CONNECT to `target`, read until it closes the socket. */
function connectThrough(proxy: GuardProxy, target: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("the browser's request guard", () => {
  it("allows loopback only with allow_localhost, private ranges only with allow_private_urls, metadata never", async () => {
    assert.equal(await requestBlockReason("http://127.0.0.1:3000/", LOCAL_ONLY), undefined);
    assert.equal(await requestBlockReason("http://localhost:3000/", LOCAL_ONLY), undefined);
    assert.equal(await requestBlockReason("http://[::1]:3000/", LOCAL_ONLY), undefined);
    assert.match(String(await requestBlockReason("http://127.0.0.1:3000/", STRICT)), /private or internal/);
    assert.match(String(await requestBlockReason("http://localhost/", STRICT)), /localhost resolves to/);
    assert.match(String(await requestBlockReason("http://192.168.1.10/", LOCAL_ONLY)), /private or internal/);
    assert.equal(await requestBlockReason("http://192.168.1.10/", { ...STRICT, allowPrivateUrls: true }), undefined);
    const everything = { allowLocalhost: true, allowPrivateUrls: true };
    assert.match(String(await requestBlockReason("http://169.254.169.254/", everything)), /cloud metadata/);
    assert.match(String(await requestBlockReason("http://metadata.google.internal/", everything)), /cloud metadata/);
    assert.match(String(await requestBlockReason("http://[::ffff:169.254.169.254]/", everything)), /cloud metadata/);
    assert.match(String(await requestBlockReason("file:///etc/passwd", everything)), /only http and https/);
    assert.equal(await requestBlockReason("about:blank", STRICT), undefined);
  });

  it("says what a host resolves to, and which address to dial", async () => {
    assert.deepEqual(await checkHost("127.0.0.1", LOCAL_ONLY), { ok: true, address: "127.0.0.1", family: 4 });
    const refused = await checkHost("10.1.2.3", LOCAL_ONLY);
    assert.equal(refused.ok, false);
  });

  it("allows loopback only by a local name: a public name that resolves to 127.0.0.1 is DNS rebinding", async () => {
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 }];
    const rebound = await checkHost("rebind.attacker.example", LOCAL_ONLY, toLoopback);
    assert.equal(rebound.ok, false);
    assert.match(rebound.ok ? "" : rebound.reason, /rebind\.attacker\.example resolves to 127\.0\.0\.1/);
    assert.deepEqual(await checkHost("app.localhost", LOCAL_ONLY, toLoopback), {
      ok: true,
      address: "127.0.0.1",
      family: 4,
    });
    assert.equal((await checkHost("localhost", LOCAL_ONLY, toLoopback)).ok, true);
    assert.equal(
      (await checkHost("a%zz", LOCAL_ONLY, toLoopback)).ok,
      false,
      "a malformed host is refused, not thrown",
    );
  });

  describe("the guard proxy", () => {
    let site: Server;
    let proxy: GuardProxy;
    const blocked: { url: string; reason: string }[] = [];
    let policy: RequestPolicy = LOCAL_ONLY;

    before(async () => {
      site = createServer((_req, res) => res.end("hello from the site"));
      await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
      proxy = await startGuardProxy(
        () => policy,
        (b) => blocked.push(b),
      );
    });
    after(async () => {
      await proxy.close();
      site.close();
    });

    const viaProxy = (url: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { port } = new URL(proxy.url);
        get({ host: "127.0.0.1", port, path: url, headers: { host: new URL(url).host } }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        }).on("error", reject);
      });

    it("forwards an allowed request and answers 403 with the reason for a refused one", async () => {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`;
      policy = LOCAL_ONLY;
      assert.deepEqual(await viaProxy(url), { status: 200, body: "hello from the site" });
      policy = STRICT;
      const refused = await viaProxy(url);
      assert.equal(refused.status, 403);
      assert.match(refused.body, /private or internal network address/);
      assert.deepEqual(blocked.at(-1)?.url, url);
    });

    it("refuses a CONNECT tunnel to a metadata address before any byte goes through", async () => {
      policy = { allowLocalhost: true, allowPrivateUrls: true };
      const answer = await connectThrough(proxy, "169.254.169.254:443");
      assert.match(answer, /^HTTP\/1\.1 403 Forbidden/);
      assert.match(blocked.at(-1)!.reason, /cloud metadata/);
    });

    it("answers a CONNECT to a malformed host instead of leaving the socket open", async () => {
      policy = LOCAL_ONLY;
      const answer = await connectThrough(proxy, "a%zz:443");
      assert.match(answer, /^HTTP\/1\.1 403 Forbidden/);
    });
  });
});
