import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Starts one of the server's worker threads by its entry name (`html-to-markdown-worker`, `compaction-worker`): the
 * bundle has each at dist/server/<name>.mjs, beside main.mjs, while the calling code sits in main.mjs or a chunk under
 * dist/server/chunks/; from the sources (tsx) it is the .ts file next to the caller (`callerUrl`, its
 * import.meta.url). The launcher's path (dist/acp-server.js) is a last resort, as for sql.js's wasm
 * (agent/store/sql-runtime.ts). Undefined when the file is not found.
 */
export function startWorker(name: string, callerUrl: string): Worker | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, `${name}.mjs`),
    join(here, "..", `${name}.mjs`),
    join(dirname(fileURLToPath(callerUrl)), `${name}.ts`),
  ];
  if (process.argv[1]) candidates.push(join(dirname(process.argv[1]), "server", `${name}.mjs`));
  const file = candidates.find((path) => existsSync(path));
  if (!file) return undefined;
  return file.endsWith(".ts") ? startTypeScriptWorker(file) : new Worker(file);
}

/**
 * Under tsx (tests, development) the worker is TypeScript and needs tsx's loader in its own thread. Node 20 does not
 * apply `execArgv: ["--import", "tsx"]` to a worker's entry file ("Unknown file extension .ts"), so a small script
 * registers tsx first and then imports the file.
 */
function startTypeScriptWorker(file: string): Worker {
  // tsx's CommonJS hook: without "type": "module" in package.json, tsx runs the sources as CommonJS anyway.
  const tsxApi = createRequire(import.meta.url).resolve("tsx/cjs/api");
  const script = `require(${JSON.stringify(tsxApi)}).register(); require(${JSON.stringify(file)});`;
  return new Worker(script, { eval: true });
}
