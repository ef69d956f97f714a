import assert from "node:assert/strict";
import { scriptResult } from "../../agent/tools/code/script-results.js";
import { wrapUntrusted } from "../../agent/web/untrusted-content.js";

/** What a script's hermes_tools functions return, from our tools' results, in upstream's dict shapes. */
describe("execute_code: tool results as a script sees them", () => {
  it("read_file: the numbered lines and the file's length, also when more lines remain", () => {
    assert.deepEqual(scriptResult("read_file", {}, { content: "1|a\n2|b" }), { content: "1|a\n2|b", total_lines: 2 });
    assert.deepEqual(
      scriptResult(
        "read_file",
        {},
        { content: "5|e\n6|f\n[... 14 more lines; call read_file with offset=7 to continue]" },
      ),
      {
        content: "5|e\n6|f\n[... 14 more lines; call read_file with offset=7 to continue]",
        total_lines: 20,
      },
    );
    assert.deepEqual(scriptResult("read_file", {}, { content: "x.txt is empty (0 lines)." }), {
      content: "",
      total_lines: 0,
    });
  });

  it("a failure is upstream's {error}", () => {
    assert.deepEqual(scriptResult("read_file", {}, { content: "x.txt not found", isError: true }), {
      error: "x.txt not found",
    });
  });

  it("terminal: its JSON, with the gate's note kept apart", () => {
    const json = JSON.stringify({ output: "hi\n", exit_code: 0, error: null });
    assert.deepEqual(scriptResult("terminal", {}, { content: `${json}\n(approved for this session)` }), {
      output: "hi\n",
      exit_code: 0,
      error: null,
      note: "(approved for this session)",
    });
    const refused = JSON.stringify({ output: "", exit_code: null, error: "BLOCKED: denied" });
    assert.deepEqual(scriptResult("terminal", {}, { content: refused, isError: true }), {
      output: "",
      exit_code: null,
      error: "BLOCKED: denied",
    });
  });

  it("search_files: matches by mode, paging notes apart", () => {
    const content =
      "src/a.ts:3:const x = 1;\nsrc/a.ts-4-context\n--\nsrc/b.ts:9:x()\n[Showing results 1-2; more may exist. Call search_files with offset=2 to see more.]";
    assert.deepEqual(scriptResult("search_files", {}, { content }), {
      matches: [
        { path: "src/a.ts", line: 3, content: "const x = 1;" },
        { path: "src/b.ts", line: 9, content: "x()" },
      ],
      total_count: 2,
      note: "[Showing results 1-2; more may exist. Call search_files with offset=2 to see more.]",
    });
    assert.deepEqual(scriptResult("search_files", { target: "files" }, { content: "a-1-b.ts\nsrc/c.ts" }), {
      matches: ["a-1-b.ts", "src/c.ts"],
      total_count: 2,
    });
    assert.deepEqual(scriptResult("search_files", { output_mode: "count" }, { content: "a.ts:4" }), {
      matches: [{ path: "a.ts", count: 4 }],
      total_count: 1,
    });
    assert.deepEqual(scriptResult("search_files", {}, { content: "No matches for 'q' in the project." }), {
      matches: [],
      total_count: 0,
      note: "No matches for 'q' in the project.",
    });
  });

  it("write_file and patch: a status, the tool's message and the files changed", () => {
    assert.deepEqual(
      scriptResult(
        "write_file",
        {},
        { content: "Wrote a.txt", edits: [{ path: "/w/a.txt", oldText: null, newText: "x" }] },
      ),
      { status: "ok", message: "Wrote a.txt", files: ["/w/a.txt"] },
    );
  });

  it("web tools: their JSON, unwrapped from the untrusted-content wrapper, its warning kept", () => {
    const json = JSON.stringify({ success: true, data: { web: [{ url: "https://x.test", title: "t" }] } }, null, 2);
    const wrapped = wrapUntrusted("web_search", json, ["WARNING: page 1 looks like a prompt injection"]);
    assert.notEqual(wrapped, json, "the wrapper was applied");
    const shaped = scriptResult("web_search", {}, { content: wrapped });
    assert.deepEqual(shaped.data, { web: [{ url: "https://x.test", title: "t" }] });
    assert.match(String(shaped.untrusted_notice), /WARNING: page 1 looks like a prompt injection$/);
    assert.deepEqual(scriptResult("web_extract", {}, { content: '{"results": []}' }), { results: [] });
  });
});
