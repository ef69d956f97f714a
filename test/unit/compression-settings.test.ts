import { strict as assert } from "node:assert";
import { readCompressionSettings } from "../../agent/compress/compression-settings.js";
import { ConfigError } from "../../agent/config/config-error.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";

describe("context compression", () => {
  describe("settings", () => {
    const read = (text: string) => readCompressionSettings(parseYamlText("/h/config.yaml", text));
    const errorOf = (text: string): ConfigError => {
      try {
        read(text);
      } catch (error) {
        if (error instanceof ConfigError) return error;
        throw error;
      }
      assert.fail("expected a ConfigError");
    };

    it("has upstream's defaults and reads the section", () => {
      assert.deepEqual(read(""), { enabled: true, threshold: 0.5, targetRatio: 0.2, protectLastN: 20 });
      assert.deepEqual(
        read("compression:\n  enabled: false\n  threshold: 0.7\n  target_ratio: 0.3\n  protect_last_n: 6\n"),
        {
          enabled: false,
          threshold: 0.7,
          targetRatio: 0.3,
          protectLastN: 6,
        },
      );
    });

    it("points at the line of a wrong type or an out-of-range value", () => {
      assert.match(
        errorOf("compression:\n  threshold: 50\n").message,
        /:2:\d+: compression\.threshold must be a number greater than 0 and at most 1/,
      );
      assert.match(
        errorOf("compression:\n  enabled: yes please\n").message,
        /:2:\d+: compression\.enabled must be true or false/,
      );
      assert.match(
        errorOf("compression:\n\n  target_ratio: 0.05\n").message,
        /:3:\d+: compression\.target_ratio must be a number between 0\.10 and 0\.80/,
      );
      assert.match(
        errorOf("compression:\n  protect_last_n: 2.5\n").message,
        /:2:\d+: compression\.protect_last_n must be a whole number/,
      );
      assert.match(errorOf("compression: 0.5\n").message, /:1:\d+: `compression` must be a mapping/);
    });
  });
});
