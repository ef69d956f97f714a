import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SqlJsStatic } from "sql.js";

let runtime: Promise<SqlJsStatic> | undefined;

/**
 * sql.js, loaded on first use (never at start-up). Its WebAssembly file comes from node_modules in a checkout or an
 * npm install, and from next to the bundle (`dist/server/sql-wasm.wasm`) in the VS Code extension, which ships no
 * node_modules. initSqlJs caches its module, so this is done once per process.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  runtime ??= (async () => {
    const { default: initSqlJs } = await import("sql.js");
    const wasm = locateWasm();
    return initSqlJs(wasm ? { locateFile: () => wasm } : undefined);
  })();
  runtime.catch(() => (runtime = undefined));
  return runtime;
}

function locateWasm(): string | undefined {
  const candidates: string[] = [];
  if (process.argv[1])
    candidates.push(
      join(dirname(process.argv[1]), "server", "sql-wasm.wasm"),
      join(dirname(process.argv[1]), "sql-wasm.wasm"),
    );
  try {
    candidates.push(createRequire(join(process.cwd(), "noop.js")).resolve("sql.js/dist/sql-wasm.wasm"));
  } catch {
    // not resolvable from here
  }
  try {
    candidates.push(require.resolve("sql.js/dist/sql-wasm.wasm"));
  } catch {
    // bundled without node_modules
  }
  return candidates.find((path) => existsSync(path));
}
