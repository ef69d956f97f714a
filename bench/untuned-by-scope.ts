/**
 * The scanner on payloads it had not seen, again, from the code of the day (`npx tsx bench/untuned-by-scope.ts`, not
 * part of `npm test`; needs the git history). Each published set N ≥ 2 of test/fixtures/scanner-probes was measured
 * once, before any rule was changed for it; this re-runs exactly that measurement, with the scanner of the commit
 * before the one that added the set (checked out in a temporary worktree), and splits the result by the set's scope
 * labels (scanner-probes/scope-labels.tsv): whether each payload is written to steer a model in one of issue #23's
 * five families as the issue words them (`in`), or is malicious code (`code`), text for a human (`human`) or another
 * kind of steering (`other`). The labels were given by a helper session that read only the payloads, never a rule or
 * a result. Writes bench/results/scanner-untuned-published.json.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadProbeFamilies, PROBE_DIR } from "../test/fixtures/scanner-probes/probes.js";

const ROOT = resolve(__dirname, "..");
const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();

type Label = "in" | "code" | "human" | "other";
interface Tally {
  caught: number;
  payloads: number;
}

/** `published3/coercion/name` → its label. */
function scopeLabels(): Map<string, Label> {
  const rows = readFileSync(join(PROBE_DIR, "scope-labels.tsv"), "utf8").trim().split("\n").slice(1);
  return new Map(
    rows.map((row) => {
      const [set, family, name, label] = row.split("\t");
      return [`${set}/${family}/${name}`, label as Label];
    }),
  );
}

/** The commit whose scanner measured `set` untuned: the parent of the commit that added it. */
function measuringCommit(set: string): string {
  const added = git("log", "--diff-filter=A", "--format=%H", "--", `test/fixtures/scanner-probes/${set}/coercion.txt`);
  return git("rev-parse", `${added.split("\n").pop()}^`);
}

/** Which payloads of `set` the scanner of `commit` catches, by `family/name`. */
async function caughtAt(commit: string, set: string): Promise<Map<string, boolean>> {
  const tree = mkdtempSync(join(tmpdir(), "untuned-"));
  try {
    git("worktree", "add", "--detach", "-f", tree, commit);
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    const scanner = (await import(join(tree, "agent/security/threat-scanner.ts"))) as {
      scanWhole: (text: string, scope: string) => unknown[];
    };
    const caught = new Map<string, boolean>();
    for (const family of loadProbeFamilies(join(PROBE_DIR, set)))
      for (const p of family.payloads)
        caught.set(`${family.family}/${p.name}`, scanner.scanWhole(p.text, "context").length > 0);
    return caught;
  } finally {
    git("worktree", "remove", "-f", tree);
    rmSync(tree, { recursive: true, force: true });
  }
}

const add = (tallies: Record<string, Tally>, key: string, caught: boolean) => {
  const t = (tallies[key] ??= { caught: 0, payloads: 0 });
  t.payloads++;
  if (caught) t.caught++;
};

async function main() {
  const labels = scopeLabels();
  const sets = readdirSync(PROBE_DIR)
    .filter((name) => /^published\d+$/.test(name) && name !== "published")
    .sort((a, b) => Number(a.slice(9)) - Number(b.slice(9)));
  const bySet: Record<string, { commit: string } & Record<string, Tally | string>> = {};
  const byLabel: Record<string, Tally> = {};
  const inScopeByFamily: Record<string, Tally> = {};
  for (const set of sets) {
    const commit = measuringCommit(set);
    const tallies: Record<string, Tally> = {};
    for (const [key, caught] of await caughtAt(commit, set)) {
      const label = labels.get(`${set}/${key}`);
      if (!label) throw new Error(`no scope label for ${set}/${key}`);
      for (const k of ["all", label]) add(tallies, k, caught);
      add(byLabel, label, caught);
      add(byLabel, "all", caught);
      if (label === "in") add(inScopeByFamily, key.split("/")[0]!, caught);
    }
    bySet[set] = { commit: commit.slice(0, 12), ...tallies };
    console.log(`${set} (scanner of ${commit.slice(0, 9)}): ${JSON.stringify(tallies)}`);
  }
  console.log(`all sets: ${JSON.stringify(byLabel)}\nin scope, by family: ${JSON.stringify(inScopeByFamily)}`);
  const out = join(__dirname, "results", "scanner-untuned-published.json");
  writeFileSync(out, `${JSON.stringify({ about: ABOUT, bySet, byLabel, inScopeByFamily }, null, 2)}\n`);
}

const ABOUT =
  "Issue #23: published sets 2 and after, each scanned by the commit before the one that added it (its one untuned measurement), split by the blind scope labels of scanner-probes/scope-labels.tsv. bench/untuned-by-scope.ts.";

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
