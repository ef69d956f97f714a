import { strict as assert } from "node:assert";
import { resolve } from "node:path";
import { importsOf, typeScriptFiles } from "../helpers/import-graph.js";

const ROOT = resolve(__dirname, "../..");

/**
 * The doors between the top-level folders: what each front end may import of the others. acp-server reaches the
 * engine through its front door alone (agent/index.ts, and the side entries beside it that keep start-up lazy:
 * index-redaction.ts, index-mcp.ts, index-store.ts), so agent/ can move its modules without touching a front end. The
 * extension talks to the server over stdio and imports nothing of agent/ (it masks the server's stderr with the key
 * values it passed itself, extension/acp/stderr-mask.ts). The webview is browser code that
 * shares nothing but its own folder (the extension imports its protocol types, not the other way round).
 * agent/'s own floors are checked in architecture.test.ts; both read imports with test/helpers/import-graph.ts.
 */
const FRONT_DOORS: ReadonlyArray<{ from: string; may: (target: string) => boolean; rule: string }> = [
  {
    from: "acp-server/",
    may: (target) => !target.startsWith("agent/") || /^agent\/index(-[a-z-]+)?\.ts$/.test(target),
    rule: "acp-server imports agent/ only through agent/index.ts and its side entries (agent/index-*.ts)",
  },
  {
    from: "extension/",
    may: (target) => !/^(agent|acp-server)\//.test(target),
    rule: "extension/ never imports agent/ nor acp-server/",
  },
  {
    from: "webview-ui/",
    may: (target) => target.startsWith("webview-ui/"),
    rule: "webview-ui/ imports only itself",
  },
];

/** The repository files a file imports (static, dynamic and type imports), read as test/helpers/import-graph.ts does. */
function relativeImports(file: string): string[] {
  return importsOf(ROOT, file).flatMap((edge) => (edge.to === undefined ? [] : [edge.to]));
}

describe("front doors between the top-level folders", () => {
  for (const door of FRONT_DOORS) {
    it(door.rule, () => {
      const files = typeScriptFiles(ROOT, door.from);
      assert.ok(files.length > 0, `no files under ${door.from}`);
      const crossings = files.flatMap((file) =>
        relativeImports(file)
          .filter((target) => !door.may(target))
          .map((target) => `${file} → ${target}`),
      );
      assert.deepEqual(crossings, []);
    });
  }

  it("sees dynamic and type-only imports too (the rule reads what it means to)", () => {
    const imports = relativeImports("acp-server/rpc/agent-app.ts");
    assert.ok(imports.includes("agent/index.ts"), imports.join(", "));
    assert.ok(imports.includes("acp-server/handlers/session-handlers.ts"), imports.join(", "));
  });
});
