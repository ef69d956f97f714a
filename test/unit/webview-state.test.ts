import { strict as assert } from "node:assert";
import { ItemStore } from "../../webview-ui/item-store.js";
import type { AgentItem, ChatItem, ChatSnapshot, ToolItem } from "../../webview-ui/protocol.js";
import { type ChatState, type HostNotification, initialState, reduce } from "../../webview-ui/state.js";

const agent = (id: string, markdown = ""): AgentItem => ({ id, kind: "agent", markdown });
const tool = (id: string): ToolItem => ({
  id,
  kind: "tool",
  toolKind: "execute",
  title: "npm test",
  status: "in_progress",
  locations: [],
  output: "",
  diffs: [],
});

function snapshot(items: ChatItem[], extra: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return { items, busy: false, title: "Chat", commands: [], pickers: [], attachments: [], ...extra };
}

function run(state: ChatState, ...notifications: HostNotification[]): ChatState {
  return notifications.reduce(reduce, state);
}

const ids = (state: ChatState) => [...state.items].map((entry) => entry.item.id);

describe("webview state reducer", () => {
  it("replaces everything with a snapshot", () => {
    const state = run(
      initialState,
      { method: "chat/item", params: { item: agent("old") } },
      {
        method: "chat/snapshot",
        params: snapshot([{ id: "u1", kind: "user", text: "hi", attachments: [] }, agent("a1", "hello")], {
          busy: true,
          title: "Fix the build",
        }),
      },
    );
    assert.deepEqual(ids(state), ["u1", "a1"]);
    assert.equal(state.busy, true);
    assert.equal(state.title, "Fix the build");
    assert.equal(state.epoch, 1);
  });

  it("adds new items at the end and replaces an item with the same id in place", () => {
    let state = run(initialState, { method: "chat/snapshot", params: snapshot([agent("a"), tool("t")]) });
    state = run(
      state,
      { method: "chat/item", params: { item: agent("b", "new") } },
      { method: "chat/item", params: { item: { ...tool("t"), status: "completed" } } },
    );
    assert.deepEqual(ids(state), ["a", "t", "b"]);
    assert.equal((state.items.get("t")!.item as ToolItem).status, "completed");
  });

  it("appends streamed text to agent markdown, thought text and tool output", () => {
    let state = run(initialState, {
      method: "chat/snapshot",
      params: snapshot([agent("a", "Hel"), { id: "th", kind: "thought", text: "hm" }, tool("t")]),
    });
    state = run(
      state,
      { method: "chat/append", params: { id: "a", text: "lo" } },
      { method: "chat/append", params: { id: "th", text: "m…" } },
      { method: "chat/append", params: { id: "t", text: "PASS\n" } },
      { method: "chat/append", params: { id: "a", text: " **world**" } },
    );
    assert.equal((state.items.get("a")!.item as AgentItem).markdown, "Hello **world**");
    assert.deepEqual(state.items.get("th")!.item, { id: "th", kind: "thought", text: "hmm…" });
    assert.equal((state.items.get("t")!.item as ToolItem).output, "PASS\n");
  });

  it("never modifies the previous state (the reducer is pure)", () => {
    const before = run(initialState, { method: "chat/snapshot", params: snapshot([agent("a", "one")]) });
    const frozen = JSON.stringify([...before.items]);
    const after = run(
      before,
      { method: "chat/append", params: { id: "a", text: " two" } },
      { method: "chat/item", params: { item: agent("b") } },
      { method: "chat/busy", params: { busy: true } },
    );
    assert.equal(JSON.stringify([...before.items]), frozen);
    assert.equal(before.items.length, 1);
    assert.equal(before.busy, false);
    assert.equal(after.items.length, 2);
  });

  it("bumps the version of exactly the item that changed, so only it is re-rendered", () => {
    const items = Array.from({ length: 300 }, (_, i) => agent(`a${i}`, `message ${i}`));
    const before = run(initialState, { method: "chat/snapshot", params: snapshot(items) });
    const after = run(before, { method: "chat/append", params: { id: "a150", text: "!" } });
    const changed = [...after.items]
      .filter((entry, i) => entry.version !== before.items.at(i).version)
      .map((entry) => entry.item.id);
    assert.deepEqual(changed, ["a150"]);
    // Untouched entries are shared, not copied.
    assert.equal(after.items.at(0), before.items.at(0));
    assert.equal(after.items.at(299), before.items.at(299));
  });

  it("ignores deltas for unknown ids and for kinds that do not stream", () => {
    const state = run(initialState, {
      method: "chat/snapshot",
      params: snapshot([{ id: "n", kind: "notice", level: "info", text: "hello" }]),
    });
    assert.equal(reduce(state, { method: "chat/append", params: { id: "missing", text: "x" } }), state);
    assert.equal(reduce(state, { method: "chat/append", params: { id: "n", text: "x" } }), state);
    assert.equal(reduce(state, { method: "chat/focus", params: { target: "composer" } }), state);
  });

  it("tracks session-wide fields: busy, title, commands, pickers, usage, attachments", () => {
    const state = run(
      initialState,
      { method: "chat/busy", params: { busy: true } },
      { method: "chat/title", params: { title: "Refactor" } },
      { method: "chat/commands", params: { commands: [{ name: "compress", description: "Compress the context" }] } },
      {
        method: "chat/pickers",
        params: {
          pickers: [
            { id: "mode", name: "Mode", currentValue: "default", choices: [{ value: "default", name: "Default" }] },
          ],
        },
      },
      { method: "chat/usage", params: { usage: { used: 1200, size: 200000 } } },
      { method: "chat/attachments", params: { attachments: [{ id: "x", kind: "file", label: "src/a.ts" }] } },
    );
    assert.equal(state.busy, true);
    assert.equal(state.title, "Refactor");
    assert.deepEqual(
      state.commands.map((c) => c.name),
      ["compress"],
    );
    assert.equal(state.pickers[0]!.currentValue, "default");
    assert.deepEqual(state.usage, { used: 1200, size: 200000 });
    assert.deepEqual(
      state.attachments.map((a) => a.label),
      ["src/a.ts"],
    );
  });

  it("streams into the last of 2,000 items in constant time per delta", () => {
    const items = Array.from({ length: 2000 }, (_, i) => agent(`a${i}`));
    let state = run(initialState, { method: "chat/snapshot", params: snapshot(items) });
    const started = performance.now();
    for (let i = 0; i < 20000; i++)
      state = reduce(state, { method: "chat/append", params: { id: "a1999", text: "tok " } });
    const perDelta = (performance.now() - started) / 20000;
    assert.equal((state.items.get("a1999")!.item as AgentItem).markdown.length, 80000);
    // Copying the whole list per delta would cost tens of microseconds; the chunked store costs about one.
    assert.ok(perDelta < 0.02, `${perDelta.toFixed(4)} ms per delta`);
  });
});

describe("webview item store", () => {
  it("keeps order and lookup across chunk boundaries", () => {
    let store = ItemStore.empty;
    for (let i = 0; i < 130; i++) store = store.put({ item: agent(`a${i}`), version: i });
    assert.equal(store.length, 130);
    assert.deepEqual(
      [store.at(0).item.id, store.at(63).item.id, store.at(64).item.id, store.at(129).item.id],
      ["a0", "a63", "a64", "a129"],
    );
    assert.equal(store.indexOf("a100"), 100);
    assert.equal(store.indexOf("nope"), -1);
    assert.throws(() => store.at(130), /outside the transcript/);
  });

  it("a snapshot with a repeated id keeps the last copy in the first position", () => {
    const store = ItemStore.from([
      { item: agent("a", "1"), version: 1 },
      { item: agent("b"), version: 1 },
      { item: agent("a", "2"), version: 1 },
    ]);
    assert.deepEqual(
      [...store].map((e) => [e.item.id, (e.item as AgentItem).markdown]),
      [
        ["a", "2"],
        ["b", ""],
      ],
    );
  });
});
