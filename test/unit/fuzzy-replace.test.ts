import { strict as assert } from "node:assert";
import { fuzzyReplace } from "../../agent/tools/file/fuzzy-replace.js";

describe("file tools", () => {
  describe("fuzzy replace", () => {
    it("replaces an exact, unique match", () => {
      const out = fuzzyReplace("a = 1\nb = 2\n", "b = 2", "b = 3");
      assert.deepEqual(out, { ok: true, text: "a = 1\nb = 3\n", count: 1, strategy: "exact", lines: [2] });
    });

    it("tolerates trailing whitespace", () => {
      const out = fuzzyReplace("if (x) {   \n  go();  \n}\n", "if (x) {\n  go();\n}", "if (y) {\n  stop();\n}");
      assert.ok(out.ok);
      assert.equal(out.text, "if (y) {\n  stop();\n}\n");
    });

    it("re-indents new_string when the indentation is shifted", () => {
      const text = "class A {\n    run() {\n        go();\n    }\n}\n";
      const out = fuzzyReplace(text, "run() {\n    go();\n}", "run() {\n    go();\n    again();\n}");
      assert.ok(out.ok);
      assert.equal(out.strategy, "indentation-flexible");
      assert.equal(out.text, "class A {\n    run() {\n        go();\n        again();\n    }\n}\n");
    });

    it("keeps CRLF line endings", () => {
      const out = fuzzyReplace("  a\r\n  b\r\nc\r\n", "a\nb\n", "x\ny\n");
      assert.ok(out.ok);
      assert.equal(out.text, "  x\r\n  y\r\nc\r\n");
    });

    it("explains a missing match with the closest lines", () => {
      const out = fuzzyReplace(
        "function add(a, b) {\n  return a + b;\n}\n",
        "function add(a, b) {\n  return a - b;\n}",
        "x",
        { label: "m.js" },
      );
      assert.equal(out.ok, false);
      assert.match(
        out.ok ? "" : out.error,
        /^Could not find old_string in m\.js\.\nClosest match \(lines 1-3\):\n1\|function add\(a, b\) \{\n2\|  return a \+ b;/,
      );
    });

    it("refuses an ambiguous match unless replace_all", () => {
      const text = "x();\ny();\nx();\n";
      const out = fuzzyReplace(text, "x();", "z();", { label: "f.js" });
      assert.equal(out.ok, false);
      assert.match(out.ok ? "" : out.error, /matches 2 places in f\.js \(lines 1, 3\).*replace_all=true/);
      const all = fuzzyReplace(text, "x();", "z();", { replaceAll: true });
      assert.ok(all.ok);
      assert.equal(all.text, "z();\ny();\nz();\n");
      assert.equal(all.count, 2);
    });
  });
});
