// Builds the three bundles of the package:
//   dist/acp-server.js  the `hermes-acp` bin: a tiny CommonJS launcher for the ESM server in dist/server/
//   dist/extension.js   the VS Code extension (CommonJS, loaded with require() by the extension host)
//   dist/webview/       the chat view's browser code
// The server is ESM with code splitting so that heavy modules (LLM SDKs, later sql.js) load only when a
// session first needs them: start-up pays for nothing a session does not use.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";

// `npm pack` / `npm publish` run prepack (the clean production build) and then prepare (this file without flags):
// a second, development build would add its own chunks beside the first in the tarball.
if (process.env.npm_lifecycle_event === "prepare" && ["pack", "publish"].includes(process.env.npm_command ?? "")) {
  process.exit(0);
}

const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

// The threat scanner's rules, identified by its sources: the verdicts it keeps on disk (scan-verdicts.ts) hold only
// for the rules that gave them.
const scannerRules = createHash("sha256");
for (const name of readdirSync("agent/security").sort()) scannerRules.update(readFileSync(`agent/security/${name}`));

// The built-in tools' JSON Schemas, written once here rather than by zod on a process's first turn
// (agent/tools/define-tool.ts): scripts/tool-schemas.ts, bundled as the server is and run by node.
function toolSchemas() {
  const dir = mkdtempSync(join(tmpdir(), "hermes-tool-schemas-"));
  try {
    const outfile = join(dir, "tool-schemas.mjs");
    esbuild.buildSync({
      entryPoints: ["scripts/tool-schemas.ts"],
      outfile,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      logLevel: "warning",
      alias: serverAlias,
      banner: serverBanner,
    });
    return execFileSync(process.execPath, [outfile], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// yaml's ES module build (the same code its "node" export ships as CommonJS, warnings on stderr either way): a
// CommonJS module is bundled as a function V8 parses twice, and yaml is the largest module the first session/new
// loads (~7 ms saved there).
const serverAlias = { yaml: "./node_modules/yaml/browser/index.js" };
// CommonJS dependencies (sql.js's Emscripten loader among them) expect require, __filename and __dirname.
const serverBanner = {
  js:
    "import { createRequire as __hermesCreateRequire } from 'node:module'; import { fileURLToPath as __hermesToPath } from 'node:url'; " +
    "import { dirname as __hermesDirname } from 'node:path'; const require = __hermesCreateRequire(import.meta.url); " +
    "const __filename = __hermesToPath(import.meta.url); const __dirname = __hermesDirname(__filename);",
};

const common = {
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  legalComments: "none",
  logLevel: "warning",
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    // The worker threads are entries of their own: a worker thread loads a file, found at run time beside main.mjs
    // (agent/workers/start-worker.ts), the way sql.js's wasm is.
    entryPoints: {
      main: "acp-server/main.ts",
      "html-to-markdown-worker": "agent/web/html-to-markdown-worker.ts",
      "compaction-worker": "agent/store/compaction-worker.ts",
    },
    outdir: "dist/server",
    outExtension: { ".js": ".mjs" },
    platform: "node",
    target: "node20",
    format: "esm",
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    // Always minified: V8 parses fewer bytes at start-up and on the first session (source maps keep traces readable).
    minify: true,
    alias: serverAlias,
    // Not in watch mode: the hash is taken once, and an edited rule must not meet the verdicts of the old one; nor
    // the tools' schemas, which an edited tool would leave stale.
    ...(watch
      ? {}
      : {
          define: {
            __HERMES_SCANNER_RULES__: JSON.stringify(scannerRules.digest("hex").slice(0, 16)),
            __HERMES_TOOL_SCHEMAS__: JSON.stringify(toolSchemas()),
          },
        }),
    banner: serverBanner,
  },
  {
    ...common,
    entryPoints: ["extension/extension.ts"],
    outfile: "dist/extension.js",
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["vscode"],
  },
  {
    ...common,
    entryPoints: ["webview-ui/main.ts"],
    outdir: "dist/webview",
    platform: "browser",
    target: "es2022",
    format: "iife",
  },
];

function writeLauncher() {
  // package.json has no "type" (the extension must stay CommonJS), so the bin is a CommonJS file that
  // imports the ESM server. Dynamic import keeps it valid on every Node >= 20.
  writeFileSync(
    "dist/acp-server.js",
    '#!/usr/bin/env node\n"use strict";\nimport("./server/main.mjs").catch((error) => {\n' +
      "  process.stderr.write(`hermes-acp: failed to start: ${error && error.stack ? error.stack : error}\\n`);\n" +
      "  process.exit(1);\n});\n",
  );
  chmodSync("dist/acp-server.js", 0o755);
}

// Only a production (packaging) build starts from an empty dist/: stale chunks are harmless in development, and
// wiping dist/ under a running test (another build in parallel) is not.
if (production) rmSync("dist", { recursive: true, force: true });
mkdirSync("dist/server", { recursive: true });
writeLauncher();
// sql.js's WebAssembly travels with the server bundle: the VS Code extension ships dist/ without node_modules.
copyFileSync("node_modules/sql.js/dist/sql-wasm.wasm", "dist/server/sql-wasm.wasm");
// playwright-core (the browser tools; its own chunk, loaded by their first call) reads two files from its package root
// at run time, which for the bundled chunk is dist/server: its version (package.json) and its browser table.
const playwrightVersion = JSON.parse(readFileSync("node_modules/playwright-core/package.json", "utf8")).version;
writeFileSync(
  "dist/server/package.json",
  `${JSON.stringify({ name: "playwright-core", version: playwrightVersion, private: true })}\n`,
);
copyFileSync("node_modules/playwright-core/browsers.json", "dist/server/browsers.json");
// The chat view's stylesheet and the codicon font sit beside its script (extension/chat/chat-html.ts links them;
// the webview's CSP allows styles and fonts only from the extension's own files).
mkdirSync("dist/webview", { recursive: true });
copyFileSync("webview-ui/chat.css", "dist/webview/chat.css");
copyFileSync("node_modules/@vscode/codicons/dist/codicon.css", "dist/webview/codicon.css");
copyFileSync("node_modules/@vscode/codicons/dist/codicon.ttf", "dist/webview/codicon.ttf");

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  process.stderr.write("esbuild: watching for changes\n");
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
