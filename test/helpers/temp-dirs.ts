import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Temporary folders for one test file, removed afterwards. */
export class TempDirs {
  private readonly made: string[] = [];

  make(prefix = "hermes-test-", parent = tmpdir()): string {
    mkdirSync(parent, { recursive: true });
    const dir = mkdtempSync(join(parent, prefix));
    this.made.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.made.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes files given as { "relative/path": "content" } under `root`, creating folders. */
export function writeTree(root: string, files: Readonly<Record<string, string>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** A HERMES_HOME whose config.yaml points at a scripted endpoint (`maxRetries` sets model.max_retries). */
export function hermesHomeFor(
  root: string,
  baseUrl: string,
  model = "scripted-model",
  extraYaml = "",
  maxRetries?: number,
): string {
  const retries = maxRetries === undefined ? "" : `  max_retries: ${maxRetries}\n`;
  writeTree(root, {
    "config.yaml": `model:\n  provider: custom\n  default: ${model}\n  base_url: ${baseUrl}\n${retries}${extraYaml}`,
  });
  return root;
}

/**
 * Where tests put a fake HOME that the agent's sandbox must protect: not under the temp folder, which commands may
 * write (nor under the repository, which CI may clone there), but under the real user's cache folder, which the
 * sandbox does not open to commands (its writable caches are those of the fake HOME).
 */
export const PROTECTED_TEST_HOMES = join(homedir(), ".cache", "hermes-test-homes");
