import { strict as assert } from "node:assert";
import { displayName } from "../../acp-server/turn/prompt-attachments.js";
import { pathFromFileUri } from "../../acp-server/turn/prompt-files.js";
import { decodeAttachmentText } from "../../agent/context/attached-file.js";

describe("prompt attachments: URIs, names and decoding", () => {
  it("turns file URIs and bare paths into local paths, and other schemes into nothing", () => {
    assert.equal(pathFromFileUri("file:///home/me/a%20b.ts"), "/home/me/a b.ts");
    assert.equal(pathFromFileUri("file://localhost/etc/hosts"), "/etc/hosts");
    assert.equal(pathFromFileUri("/home/me/x.ts"), "/home/me/x.ts");
    assert.equal(pathFromFileUri("file://server/share/x.ts"), undefined, "a remote host is not local");
    assert.equal(pathFromFileUri("https://example.com/x.ts"), undefined);
    assert.equal(pathFromFileUri("zed://thread/1"), undefined);
    assert.equal(pathFromFileUri("  "), undefined);
  });

  it("maps Windows drive paths to WSL's /mnt (Zed launched through wsl.exe)", function () {
    if (process.platform === "win32") this.skip();
    assert.equal(pathFromFileUri("file:///C:/Users/me/app.ts"), "/mnt/c/Users/me/app.ts");
    assert.equal(pathFromFileUri("D:\\work\\src\\main.rs"), "/mnt/d/work/src/main.rs");
  });

  it("names an attachment as upstream does", () => {
    assert.equal(displayName("file:///a/b.ts", "b.ts", "Main file"), "Main file (b.ts)");
    assert.equal(displayName("file:///a/b.ts", "b.ts", "b.ts"), "b.ts");
    assert.equal(displayName("file:///a/sel%20one.ts#L2-L4"), "sel one.ts");
    assert.equal(displayName("https://example.com/docs/page.html?x=1"), "page.html");
  });

  it("decodes UTF-8 without its BOM, falls back to latin-1, and spots binaries", () => {
    assert.deepEqual(decodeAttachmentText(Buffer.from("\uFEFFhé", "utf8"), undefined), { text: "hé", utf8: true });
    assert.deepEqual(decodeAttachmentText(Buffer.from([0x63, 0x61, 0x66, 0xe9]), undefined), {
      text: "café",
      utf8: false,
    });
    assert.equal(decodeAttachmentText(Buffer.from([0x41, 0x00, 0x42]), "application/octet-stream"), undefined);
    assert.deepEqual(
      decodeAttachmentText(Buffer.from([0x41, 0x00, 0x42]), "text/plain"),
      { text: "A\u0000B", utf8: true },
      "a text MIME type wins over a NUL",
    );
  });

  it("drops a character cut in half at the 512 KiB boundary instead of falling back to latin-1", () => {
    const bytes = Buffer.from("aé", "utf8").subarray(0, 2); // "a" and the first byte of "é"
    assert.deepEqual(decodeAttachmentText(bytes, undefined, true), { text: "a", utf8: true });
    assert.equal(
      decodeAttachmentText(bytes, undefined, false)!.utf8,
      false,
      "a whole file that ends mid-character is not UTF-8",
    );
  });
});
