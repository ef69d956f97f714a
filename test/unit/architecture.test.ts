/**
 * The engine's architecture, checked from its imports (static, dynamic and type-position `import("…")` alike).
 *
 * agent/ is built in floors. A folder imports only folders on floors below its own, so the folders form no cycle
 * and each can be read, tested and changed knowing only what lies beneath it:
 *
 * | floor | folders              | why here                                                                          |
 * |-------|----------------------|-----------------------------------------------------------------------------------|
 * | 0     | workers              | starting the server's worker threads from the bundle or the sources (tsx)        |
 * | 1     | config, store        | settings read from config.yaml and the catalogs they are read against (providers, |
 * |       |                      | model tables, the delegation runtime); the session store and memory files         |
 * | 2     | security, providers, | the threat scanner, redaction and the file-safety rules; the model clients; the   |
 * |       | checkpoints          | checkpoint store: each needs config alone                                         |
 * | 3     | sandbox, web         | the OS sandbox; fetching, converting and wrapping web pages (@url and the tools)  |
 * | 4     | workspace            | the Workspace seam (local or the editor's) and paths against its root             |
 * | 5     | context              | @ references, attached files, subdirectory hints, the context-file text helpers   |
 * | 6     | skills               | finding, vetting and loading skills (the session's toolsets are handed in)        |
 * | 7     | prompt               | the system prompt, which lists the skills                                         |
 * | 8     | tools                | the tool contract (ToolContext, ToolEnvironment, the delegation host and the      |
 * |       |                      | events a turn reports, since a subagent's turn runs through it) and the tools     |
 * | 9     | compress, mcp        | history compression (it snapshots the task list); MCP servers' tools              |
 * | 10    | loop                 | one turn: model steps, running the tool calls, compaction                         |
 * | 11    | delegation           | subagents: delegate_task runs child conversations of the loop                     |
 * | 12    | session              | opening a session: everything below put together                                  |
 * | top   | agent/*.ts           | the front door (index.ts and its side entries) that a front end imports           |
 *
 * Besides the floors: agent/ never imports the front ends (acp-server/, extension/, webview-ui/) nor `vscode`.
 * The rules in code are test/helpers/architecture-rules.ts (AGENT_FLOORS in the order of this table, and the one
 * ALLOWED_IMPORTS table derived from it). To add a rule for another top-level folder, give its units an entry in
 * ALLOWED_IMPORTS (a unit is a folder such as "agent/loop", or "agent/*.ts" for agent/'s own files) and list the
 * folder in SCANNED below.
 */
import { strict as assert } from "node:assert";
import { resolve } from "node:path";
import {
  AGENT_FLOORS,
  ALLOWED_IMPORTS,
  ENGINE_NEVER_IMPORTS,
  FRONT_DOOR,
  unitOf,
} from "../helpers/architecture-rules.js";
import { type ImportEdge, importsOf, typeScriptFiles } from "../helpers/import-graph.js";

const ROOT = resolve(__dirname, "../..");

/** The top-level folders whose files the rules are checked over. */
const SCANNED = ["agent"];

/** A file's floor in AGENT_FLOORS (the front door above them all), or NaN off the table. */
function floorOf(path: string): number {
  const unit = unitOf(path);
  if (unit === FRONT_DOOR) return AGENT_FLOORS.length;
  const floor = AGENT_FLOORS.findIndex((folders) => folders.some((folder) => `agent/${folder}` === unit));
  return floor < 0 ? Number.NaN : floor;
}

const allEdges: ImportEdge[] = SCANNED.flatMap((dir) =>
  typeScriptFiles(ROOT, dir).flatMap((file) => importsOf(ROOT, file)),
);
/** Imports that cross from one unit to another (a package import is its own target). */
const crossing = allEdges.filter((edge) => edge.to === undefined || unitOf(edge.to) !== unitOf(edge.from));
const show = (edge: ImportEdge): string => `${edge.from}:${edge.line} imports ${edge.to ?? edge.specifier}`;

/** Strongly connected groups of more than one unit (Tarjan), each a cycle between folders. */
function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (edge.to === undefined) continue;
    const from = unitOf(edge.from);
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(unitOf(edge.to));
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (unit: string): void => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit)!);
    stack.push(unit);
    onStack.add(unit);
    for (const target of next.get(unit) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(unit, Math.min(low.get(unit)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(unit, Math.min(low.get(unit)!, index.get(target)!));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== unit);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const unit of next.keys()) if (!index.has(unit)) visit(unit);
  return groups;
}

describe("architecture: agent/ in floors", () => {
  it("reads the imports of every agent/ file, dynamic ones included", () => {
    assert.ok(allEdges.length > 500, `only ${allEdges.length} imports read`);
    assert.ok(
      allEdges.some((edge) => edge.from === "agent/store/db-file.ts" && edge.to === "agent/store/sql-runtime.ts"),
      "the dynamic import() of sql-runtime.ts in store/db-file.ts was not seen",
    );
  });

  it("has no cycle between agent/ folders", () => {
    const found = cycles(crossing).map((group) => {
      const inside = crossing.filter(
        (edge) => edge.to !== undefined && group.includes(unitOf(edge.from)) && group.includes(unitOf(edge.to)),
      );
      // The imports that climb (or stay level) close the cycle: name those, or every import in it when unplaced.
      const climbing = inside.filter((edge) => !(floorOf(edge.to!) < floorOf(edge.from)));
      const named = (climbing.length > 0 ? climbing : inside).map(show);
      return `cycle ${group.join(" ⇄ ")}, closed by:\n    ${named.join("\n    ")}`;
    });
    if (found.length > 0) assert.fail(found.join("\n"));
  });

  it("puts every agent/ folder on a floor", () => {
    const folders = new Set(allEdges.map((edge) => unitOf(edge.from)).filter((unit) => unit !== FRONT_DOOR));
    const placed = new Set(Object.keys(ALLOWED_IMPORTS));
    const missing = [...folders].filter((unit) => !placed.has(unit));
    assert.deepEqual(missing, [], `folders on no floor (add them to AGENT_FLOORS): ${missing.join(", ")}`);
  });

  it("never imports a front end or vscode from agent/", () => {
    const forbidden = crossing.filter((edge) =>
      ENGINE_NEVER_IMPORTS.some((pattern) => pattern.test(edge.to ?? edge.specifier)),
    );
    if (forbidden.length > 0) assert.fail(`agent/ imports a front end:\n${forbidden.map(show).join("\n")}`);
  });

  it("imports only from lower floors (ALLOWED_IMPORTS)", () => {
    const upward = crossing.filter((edge) => {
      if (edge.to === undefined) return false;
      const allowed = ALLOWED_IMPORTS[unitOf(edge.from)];
      return allowed !== undefined && unitOf(edge.to).startsWith("agent") && !allowed.includes(unitOf(edge.to));
    });
    const lines = upward.map((edge) => `${show(edge)} (${unitOf(edge.from)} may not import ${unitOf(edge.to!)})`);
    if (lines.length > 0) assert.fail(`imports that climb the floors:\n${lines.join("\n")}`);
  });
});
