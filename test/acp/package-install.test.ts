/**
 * The package as a user installs it: this checkout's files (tracked and new, as a fresh clone would have them) are
 * copied aside, `npm pack` builds the tarball there (its prepack is the clean production build, which must not wipe
 * the dist/ this suite runs), the tarball is installed into a temporary prefix with no network needed (every
 * dependency is bundled), and the installed bin is run from an unrelated folder.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { AcpHarness, serverEnv } from "../helpers/acp-harness.js";
import { TempDirs } from "../helpers/temp-dirs.js";

const repo = join(__dirname, "../..");
const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};

describe("the npm package, installed", function () {
  this.timeout(240_000);
  const temp = new TempDirs();
  let bin: string;
  let tarball: string;

  before(() => {
    const copy = temp.make("hermes-pack-src-");
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: repo, encoding: "utf8" })
      .split("\n")
      .filter((f) => f && !f.startsWith("dist/"));
    for (const file of files) {
      try {
        if (!statSync(join(repo, file)).isFile()) continue;
      } catch {
        continue; // deleted in the working tree
      }
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(repo, file), join(copy, file));
    }
    symlinkSync(join(repo, "node_modules"), join(copy, "node_modules"));
    const out = temp.make("hermes-pack-out-");
    execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: copy, stdio: "pipe" });
    tarball = join(out, readdirSync(out).find((f) => f.endsWith(".tgz"))!);
    const prefix = temp.make("hermes-prefix-");
    execFileSync("npm", ["install", "--global", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, tarball], {
      stdio: "pipe",
    });
    bin = join(prefix, "bin", Object.keys(manifest.bin)[0]!);
  });

  after(() => temp.cleanup());

  it("is our own name, small, and carries only what runs", () => {
    assert.equal(Object.keys(manifest.bin).join(), "hermes-editor");
    assert.ok(!["hermes", "hermes-agent", "hermes-acp"].includes(manifest.name));
    assert.match(tarball, new RegExp(`${manifest.name}-${manifest.version}\\.tgz$`));
    const size = statSync(tarball).size;
    assert.ok(size < 3 * 1024 * 1024, `tarball ${size} bytes`);
    const listed = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
    assert.ok(listed.includes("package/dist/acp-server.js"));
    assert.ok(listed.includes("package/dist/server/sql-wasm.wasm"));
    assert.deepEqual(
      listed.filter((f) => /\.map$|^package\/(test|agent|acp-server|extension|webview-ui)\//.test(f)),
      [],
      "no sources, tests or source maps",
    );
  });

  it("runs from another folder: --version, and initialize over stdio with the auth methods", async () => {
    const elsewhere = temp.make("hermes-elsewhere-");
    const version = execFileSync(bin, ["--version"], { cwd: elsewhere, encoding: "utf8" });
    assert.equal(version, `hermes-editor ${manifest.version}\n`);

    const home = temp.make("hermes-home-");
    const harness = AcpHarness.spawn(serverEnv(home), { bin, cwd: elsewhere });
    try {
      const init = await harness.initialize({ auth: { terminal: true } });
      assert.equal(init.agentInfo?.name, "hermes-editor-agent");
      assert.equal(init.agentInfo?.version, manifest.version);
      const terminal = init.authMethods?.find((m) => "type" in m && m.type === "terminal");
      assert.deepEqual(terminal && "args" in terminal ? terminal.args : undefined, ["--setup"]);
      assert.ok(init.authMethods?.some((m) => m.id === "hermes-config"));
      assert.deepEqual(harness.violations, []);
    } finally {
      await harness.close();
    }
  });
});
