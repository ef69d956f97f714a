import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";

const FIXTURE = join(__dirname, "../fixtures/mcp-echo-server.ts");
const LOCKFILE = join(__dirname, "../../package-lock.json");

let built: string | undefined;

/**
 * How to start the echo MCP server (test/fixtures/mcp-echo-server.ts) as a process of its own: `node` on the fixture
 * bundled into one .mjs file. Through tsx's loader each start compiled the fixture and the MCP SDK again, ~1.5 s of
 * CPU against ~0.5 s (the suite starts it a few dozen times, on two cores). The bundle is the same code: it is built
 * once and kept, as tsx keeps its own cache, in the temp folder under a hash of the fixture and of package-lock.json,
 * so that a changed fixture or dependency gets a new one.
 */
export function echoServerCommand(): { command: string; args: string[] } {
  built ??= bundle();
  return { command: process.execPath, args: [built] };
}

function bundle(): string {
  const hash = createHash("sha256").update(readFileSync(FIXTURE)).update(readFileSync(LOCKFILE)).digest("hex");
  const dir = join(tmpdir(), "hermes-test-mcp-echo");
  const file = join(dir, `${hash.slice(0, 16)}.mjs`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  // Written aside, then renamed: parallel test workers may build it at the same time.
  const partial = `${file}.${process.pid}.tmp`;
  buildSync({
    entryPoints: [FIXTURE],
    outfile: partial,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
  renameSync(partial, file);
  return file;
}
