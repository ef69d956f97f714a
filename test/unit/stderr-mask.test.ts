import { strict as assert } from "node:assert";
import { secretMasker } from "../../extension/acp/stderr-mask.js";

describe("extension: the server's stderr masked with the keys the window passed", () => {
  it("masks every passed key, the longer first, and leaves short values and other text alone", () => {
    const mask = secretMasker({ OPENAI_API_KEY: "sk-abc123456789", LONG_KEY: "sk-abc123456789-extra", PIN: "1234" });
    assert.equal(
      mask("at request(sk-abc123456789-extra) then sk-abc123456789 and 1234"),
      "at request([redacted LONG_KEY]) then [redacted OPENAI_API_KEY] and 1234",
    );
  });
});
