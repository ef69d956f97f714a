/**
 * A fake extension host for the chat view benchmark, loaded before the real webview bundle: it provides
 * acquireVsCodeApi, answers `view/ready` with a long conversation, and on the driver's command streams deltas the
 * way the real host does (one JSON-RPC notification per postMessage). It also records every animation frame.
 */
import type { ChatItem, ChatSnapshot } from "../webview-ui/protocol.js";

interface Bench {
  /** Frame intervals (ms) per phase name. */
  frames: Record<string, number[]>;
  phase: string;
  readyAt: number;
  firstRowsAt: number;
  cspViolations: string[];
  streamed: number;
  stream(seconds: number, tokensPerSecond: number): Promise<number>;
  scroll(seconds: number, pixelsPerFrame: number): Promise<void>;
  /** Where the transcript stands: is its end in view, and which item is at the top of the viewport. */
  viewport(): { atBottom: boolean; topItem: string | undefined; topOffset: number };
}

declare global {
  interface Window {
    __bench: Bench;
    acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };
  }
}

const ITEMS = Number(new URLSearchParams(location.search).get("items") ?? 2000);

const PARAGRAPHS = [
  "The failing test comes from `parseConfig`: it reads **`model:`** before the provider block, so a `fallback_providers` list written first is ignored.",
  "Here is the plan:\n\n1. Reproduce with the smallest config.\n2. Move the provider lookup after the whole file is read.\n3. Add a regression test.",
  "```ts\nexport function parseConfig(text: string): Config {\n  const doc = parse(text) as Record<string, unknown>;\n  const model = readModel(doc);\n  return { model, fallbacks: readFallbacks(doc) };\n}\n```",
  "| file | change |\n| --- | --- |\n| `agent/config/load.ts` | order of reads |\n| `test/unit/config.test.ts` | new case |",
  "> Note: the upstream Python version has the same quirk; see [the docs](https://example.com/docs/config) for the intended order.",
  "- [x] reproduce\n- [ ] fix\n- [ ] test",
];

function agentText(i: number): string {
  return Array.from({ length: 1 + (i % 4) }, (_, k) => PARAGRAPHS[(i + k) % PARAGRAPHS.length]).join("\n\n");
}

function item(i: number): ChatItem {
  const id = `item-${i}`;
  switch (i % 10) {
    case 0:
      return {
        id,
        kind: "user",
        text: `Question ${i}: why does the build fail on CI but not locally?`,
        attachments:
          i % 20 === 0
            ? [{ id: `att-${i}`, kind: "file", label: "src/config.ts", uri: "file:///w/src/config.ts" }]
            : [],
      };
    case 1:
      return { id, kind: "thought", text: "Let me look at the config loader first, then the CI logs. ".repeat(6) };
    case 2:
    case 5:
    case 8:
      return { id, kind: "agent", markdown: agentText(i) };
    case 3:
      return {
        id,
        kind: "tool",
        toolKind: "execute",
        title: "npm test -- --grep config",
        status: "completed",
        locations: [],
        output: Array.from({ length: 40 }, (_, k) => `  ✔ case ${k} (${k * 3} ms)`).join("\n"),
        diffs: [],
      };
    case 4:
      return {
        id,
        kind: "tool",
        toolKind: "edit",
        title: "Edit agent/config/load.ts",
        status: "completed",
        locations: [{ path: "/w/agent/config/load.ts", label: "agent/config/load.ts", line: 12 }],
        output: "",
        diffs: [
          {
            path: "/w/agent/config/load.ts",
            label: "agent/config/load.ts",
            change: "modify",
            added: 3,
            removed: 1,
            hunks: [
              {
                header: "@@ -10,4 +10,6 @@",
                lines: [
                  { type: "context", text: "const doc = parse(text);" },
                  { type: "remove", text: "const model = readModel(doc);" },
                  { type: "add", text: "const providers = readProviders(doc);" },
                  { type: "add", text: "const model = readModel(doc, providers);" },
                  { type: "add", text: "// fallbacks after providers" },
                  { type: "context", text: "return { model };" },
                ],
              },
            ],
          },
        ],
        review: { proposalId: `p-${i}`, status: i % 40 === 4 ? "pending" : "accepted" },
      };
    case 6:
      return {
        id,
        kind: "plan",
        entries: [
          { content: "Reproduce", status: "completed", priority: "high" },
          { content: "Fix the order of reads", status: "in_progress", priority: "high" },
          { content: "Add a regression test", status: "pending", priority: "medium" },
        ],
      };
    case 7:
      return {
        id,
        kind: "permission",
        title: "Run npm install",
        toolKind: "execute",
        detail: "npm install --save-exact yaml@2.9.1",
        diffs: [],
        options: [
          { optionId: "allow", name: "Allow once", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
        answer: "allow",
      };
    default:
      return {
        id,
        kind: "notice",
        level: i % 3 === 0 ? "warning" : "info",
        text: `Context compressed: ${i} messages summarised.`,
      };
  }
}

function snapshot(): ChatSnapshot {
  return {
    items: Array.from({ length: ITEMS }, (_, i) => item(i)),
    busy: false,
    title: "Why does the build fail on CI?",
    commands: [
      { name: "compress", description: "Compress the context" },
      { name: "model", description: "Switch model", hint: "<name>" },
    ],
    pickers: [
      {
        id: "mode",
        name: "Mode",
        currentValue: "default",
        choices: [
          { value: "default", name: "Default" },
          { value: "read-only", name: "Read only" },
        ],
      },
    ],
    usage: { used: 48_200, size: 200_000 },
    attachments: [],
  };
}

const send = (message: unknown) => window.postMessage(message, "*");
const notify = (method: string, params: unknown) => send({ jsonrpc: "2.0", method, params });

/** Markdown the stream is cut from: prose, lists, fenced code (so unclosed fences are on screen mid-stream). */
const STREAM_SOURCE = Array.from({ length: 200 }, (_, i) => PARAGRAPHS[i % PARAGRAPHS.length]).join("\n\n");
/** ~4 characters per token, as tokenizers average on English and code. */
const TOKENS = STREAM_SOURCE.match(/[\s\S]{1,4}/g)!;

const bench: Bench = {
  frames: {},
  phase: "load",
  readyAt: 0,
  firstRowsAt: 0,
  cspViolations: [],
  streamed: 0,
  async stream(seconds, tokensPerSecond) {
    const id = `stream-${Date.now()}`;
    notify("chat/busy", { busy: true });
    notify("chat/item", { item: { id, kind: "agent", markdown: "" } });
    const started = performance.now();
    let sent = 0;
    await new Promise<void>((done) => {
      const tick = () => {
        const elapsed = (performance.now() - started) / 1000;
        const due = Math.min(Math.floor(elapsed * tokensPerSecond), Math.floor(seconds * tokensPerSecond));
        for (; sent < due; sent++) notify("chat/append", { id, text: TOKENS[sent % TOKENS.length] });
        if (elapsed >= seconds) done();
        else setTimeout(tick, 4);
      };
      tick();
    });
    notify("chat/busy", { busy: false });
    this.streamed = sent;
    return sent;
  },
  async scroll(seconds, pixelsPerFrame) {
    const scroller = document.querySelector<HTMLElement>(".transcript")!;
    const started = performance.now();
    await new Promise<void>((done) => {
      const step = () => {
        // Like a wheel: the user's scroll, which the view must follow without janking.
        scroller.scrollTop = Math.max(0, scroller.scrollTop - pixelsPerFrame);
        if (performance.now() - started < seconds * 1000 && scroller.scrollTop > 0) requestAnimationFrame(step);
        else done();
      };
      requestAnimationFrame(step);
    });
  },
  viewport() {
    const scroller = document.querySelector<HTMLElement>(".transcript")!;
    const box = scroller.getBoundingClientRect();
    const top = [...scroller.querySelectorAll<HTMLElement>("article[data-id]")].find(
      (article) => article.getBoundingClientRect().bottom > box.top,
    );
    return {
      atBottom: scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2,
      topItem: top?.dataset.id,
      topOffset: top ? Math.round(top.getBoundingClientRect().top - box.top) : 0,
    };
  },
};
window.__bench = bench;

document.addEventListener("securitypolicyviolation", (event) =>
  bench.cspViolations.push(`${event.violatedDirective}: ${event.blockedURI}`),
);

let last = performance.now();
const onFrame = (now: number) => {
  (bench.frames[bench.phase] ??= []).push(now - last);
  last = now;
  if (!bench.firstRowsAt && document.querySelector(".row")) bench.firstRowsAt = now;
  requestAnimationFrame(onFrame);
};
requestAnimationFrame(onFrame);

let state: unknown;
window.acquireVsCodeApi = () => ({
  postMessage(message: unknown) {
    const request = message as { id?: number | string; method?: string };
    if (request.method === "view/ready") {
      bench.readyAt = performance.now();
      send({ jsonrpc: "2.0", id: request.id, result: snapshot() });
    } else if (request.id !== undefined && request.method) {
      send({ jsonrpc: "2.0", id: request.id, result: null });
    }
  },
  getState: () => state,
  setState: (next: unknown) => {
    state = next;
  },
});
