import assert from "node:assert/strict";
import { toolCallEndView, toolCallStartView } from "../../acp-server/updates/tool-call-view.js";

type Row = [string, Record<string, unknown> | null, string, string, { path: string; line?: number }[], string[]];

/** Upstream's ACP titles, kinds and locations, as the hand-kept switch gave them before the tools described themselves. */
const CALLS: Row[] = [
  [
    "read_file",
    { path: "src/a.ts", offset: 10 },
    "Read src/a.ts",
    "read",
    [{ path: "/work/proj/src/a.ts", line: 10 }],
    [],
  ],
  ["read_file", { path: "/etc/x" }, "Read /etc/x", "read", [{ path: "/etc/x" }], []],
  ["read_file", null, "Read ", "read", [], []],
  ["write_file", { path: "b.txt", content: "x" }, "Write b.txt", "edit", [{ path: "/work/proj/b.txt" }], []],
  ["patch", { mode: "patch", patch: "..." }, "Apply patch", "edit", [], []],
  ["patch", { path: "c.ts", old_string: "a", new_string: "b" }, "Edit c.ts", "edit", [{ path: "/work/proj/c.ts" }], []],
  ["search_files", { pattern: "foo", path: "src" }, "Search for 'foo' in src", "search", [], []],
  [
    "search_files",
    { pattern: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
    "Search for 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'",
    "search",
    [],
    [],
  ],
  ["terminal", { command: "ls -la", workdir: "x" }, "Run ls -la", "execute", [], ["$ ls -la"]],
  [
    "terminal",
    {
      command:
        "echo 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789",
    },
    "Run echo 012345678901234567890123456789012345678901234567890123456789012345678901...",
    "execute",
    [],
    ["$ echo 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"],
  ],
  ["process", { action: "poll", session_id: "p1" }, "Process poll p1", "execute", [], []],
  ["process", { action: "list" }, "Process list", "execute", [], []],
  ["execute_code", { code: "\n# tidy\nprint(1)" }, "python: # tidy", "execute", [], ["\n# tidy\nprint(1)"]],
  ["todo", { todos: [{ id: "1" }] }, "Update plan (1 item)", "other", [], []],
  ["todo", { todos: [] }, "Update plan (0 items)", "other", [], []],
  ["todo", {}, "Read plan", "other", [], []],
  ["memory", { action: "add", target: "user", content: "x" }, "Memory add: user", "other", [], []],
  ["memory", { operations: [{}, {}] }, "Memory batch (2 operations): memory", "other", [], []],
  ["memory", {}, "Memory : memory", "other", [], []],
  ["skill_view", { name: "a", file_path: "b.md" }, "skill view (a/b.md)", "read", [], []],
  ["skill_view", {}, "skill view (?)", "read", [], []],
  ["skills_list", { category: " c " }, "skills list (c)", "read", [], []],
  ["skills_list", {}, "skills list", "read", [], []],
  ["clarify", { question: "Why?" }, "Ask: Why?", "other", [], []],
  ["delegate_task", { goal: "do it" }, "delegate: do it", "execute", [], ["Delegating task:\ndo it"]],
  [
    "delegate_task",
    { tasks: [{ goal: "a" }, { goal: "b" }] },
    "delegate batch (2 tasks)",
    "execute",
    [],
    ["Delegating 2 tasks\n\n1. a\n2. b"],
  ],
  ["delegate_task", {}, "delegate task", "execute", [], ["Delegating task"]],
  ["web_search", { query: "q" }, "web search: q", "fetch", [], []],
  ["web_extract", { urls: ["http://a", "http://b"] }, "extract: http://a (+1)", "fetch", [], []],
  ["web_extract", {}, "extract: ", "fetch", [], []],
  ["browser_navigate", { url: "http://localhost:3000/" }, "navigate: http://localhost:3000/", "fetch", [], []],
  ["browser_snapshot", { full: true }, "browser_snapshot", "read", [], []],
  ["browser_click", { ref: "@e5" }, "click: @e5", "execute", [], []],
  ["browser_type", { ref: "@e3", text: "x" }, "type: @e3", "execute", [], []],
  ["browser_scroll", { direction: "down" }, "scroll: down", "execute", [], []],
  ["browser_back", {}, "back", "execute", [], []],
  ["browser_press", { key: "Enter" }, "press: Enter", "execute", [], []],
  ["browser_get_images", {}, "browser_get_images", "read", [], []],
  ["browser_vision", { question: "Is the chart drawn?" }, "vision: Is the chart drawn?", "read", [], []],
  ["browser_console", { expression: "document.title" }, "console: document.title", "other", [], []],
  ["browser_dialog", { action: "accept", prompt_text: "Whitby" }, "dialog: accept", "execute", [], []],
  ["session_search", { query: "x" }, "session_search", "other", [], []],
  ["skill_manage", { action: "create", name: "deploy" }, "Create skill deploy", "edit", [], []],
  [
    "skill_manage",
    { action: "write_file", name: "deploy", file_path: "references/a.md" },
    "Write skill file deploy/references/a.md",
    "edit",
    [],
    [],
  ],
  [
    "vision_analyze",
    { image_url: "shots/a.png", question: "q" },
    "Analyze image shots/a.png",
    "read",
    [{ path: "/work/proj/shots/a.png" }],
    [],
  ],
  ["vision_analyze", { image_url: "https://e.com/x.png" }, "Analyze image https://e.com/x.png", "read", [], []],
  ["vision_analyze", { image_url: "data:image/png;base64,AAAA" }, "Analyze image (inline data)", "read", [], []],
  ["mcp_srv_tool", { path: "p.txt", offset: 3 }, "mcp_srv_tool", "other", [{ path: "/work/proj/p.txt", line: 3 }], []],
  ["mcp_srv_tool", {}, "mcp_srv_tool", "other", [], []],
  ["", {}, "Unknown tool", "other", [], []],
  ["unknown_x", { path: "q" }, "unknown_x", "other", [{ path: "/work/proj/q" }], []],
];

describe("tool call views (ACP)", () => {
  it("show each tool's title, kind, locations and running text from its own description", () => {
    for (const [name, args, title, kind, locations, texts] of CALLS) {
      const view = toolCallStartView(name, args ?? undefined, "/work/proj");
      assert.deepEqual(
        {
          title: view.title,
          kind: view.kind,
          locations: view.locations,
          texts: view.content.map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")),
        },
        { title, kind, locations, texts },
        `${name} ${JSON.stringify(args)}`,
      );
    }
  });

  it("show delegate_task's results as its definition formats them, other results as diffs and text", () => {
    const json = JSON.stringify({
      results: [{ task_index: 0, status: "completed", summary: "Done.", model: "m", duration_seconds: 2 }],
      total_duration_seconds: 2,
    });
    assert.deepEqual(toolCallEndView("delegate_task", { content: json }), [
      {
        type: "content",
        content: { type: "text", text: "Delegation results: 1 task in 2s\n\n✅ Task 1: completed (m, 2s)\nDone." },
      },
    ]);
    assert.deepEqual(toolCallEndView("read_file", { content: "1|a" }), [
      { type: "content", content: { type: "text", text: "1|a" } },
    ]);
  });

  it("show a result's pictures (a browser screenshot) after its text, as ACP image content", () => {
    const images = [{ mimeType: "image/png", data: "iVBORw0KGgo=" }];
    assert.deepEqual(toolCallEndView("browser_vision", { content: "{}", images }), [
      { type: "content", content: { type: "text", text: "{}" } },
      { type: "content", content: { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" } },
    ]);
  });
});
