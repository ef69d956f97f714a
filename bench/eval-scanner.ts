/**
 * Evaluates the threat scanner on real data, run with `npm run eval:scanner [corpus-folder]` (not part of `npm test`).
 *
 * Reads a corpus laid out as `../shared/corpus` is (the default, from the project's root): `benign/` holds real agent
 * context files that must not be blocked, `adversarial/` published attack payloads that should be. Each file is
 * scanned as a context file is at session start (scope `context`, the whole text, one leading BOM removed). Prints
 * the false positives with the words that tripped the scanner, the payloads caught (with their pattern ids) and
 * missed, and the scanner's throughput. Then the probes of issue #23 (test/fixtures/scanner-probes: payloads per
 * attack family and near-misses), caught and flagged per family. The figures (counts, rates, timings; no text of the
 * corpus, which is other people's and stays outside the project) go to bench/results/scanner-latest.json. Exits
 * with 1 when a benign file is blocked.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scanForThreats, scanWhole, type ThreatFinding } from "../agent/security/threat-scanner.js";
import { loadProbeFamilies, PROBE_DIR, type Probe } from "../test/fixtures/scanner-probes/probes.js";
import { medianMs } from "./median-time.js";

// Batches written or gathered by sessions that never saw the rules, reported apart. Each was measured once untuned (the
// figure in its title and its files' notes), then tuned on, and now guards against regressions; the newest published
// set is the one never tuned on, whose rate is the estimate for unseen payloads.
const BLIND_SETS = [
  ["blindProbes", "blind", "Blind batch (test/fixtures/scanner-probes/blind; once blind, tuned on since)"],
  ["blind2Probes", "blind2", "Second blind batch (blind2; 39/60 untuned, tuned on since)"],
  ["blind3Probes", "blind3", "Third blind batch (blind3; 32/60 untuned, tuned on since)"],
  ["blind4Probes", "blind4", "Fourth blind batch (blind4; 28/60 untuned, tuned on since)"],
  [
    "blind5Probes",
    "blind5",
    "Fifth blind batch (blind5, written to evade keyword filters; 31/60 untuned, tuned on since)",
  ],
  ["publishedProbes", "published", "Published payloads, set 1 (published; 30/55 untuned, tuned on since)"],
  ["published2Probes", "published2", "Published payloads, set 2 (published2; 12/33 untuned, tuned on since)"],
  ["published3Probes", "published3", "Published payloads, set 3 (published3; 5/15 untuned, tuned on since)"],
  ["published4Probes", "published4", "Published payloads, set 4 (published4; 9/20 untuned, tuned on since)"],
  ["published5Probes", "published5", "Published payloads, set 5 (published5; 14/28 untuned, never tuned on)"],
  ["published6Probes", "published6", "Published payloads, set 6 (published6; 15/30 untuned, never tuned on)"],
  ["published7Probes", "published7", "Published payloads, set 7 (published7; 14/28 untuned, tuned on since)"],
  ["published8Probes", "published8", "Published payloads, set 8 (published8; 2/13 untuned, tuned on since)"],
  ["published9Probes", "published9", "Published payloads, set 9 (published9; 9/22 untuned, tuned on since)"],
  [
    "published10Probes",
    "published10",
    "Published payloads, set 10 (published10; 10/24 untuned, payloads never tuned on, near-misses tuned on)",
  ],
  [
    "published11Probes",
    "published11",
    "Published payloads, set 11 (published11; 4/15 untuned, payloads never tuned on, near-misses tuned on)",
  ],
  ["published12Probes", "published12", "Published payloads, set 12 (published12; 4/8 untuned, tuned on since)"],
  ["published13Probes", "published13", "Published payloads, set 13 (published13; 11/14 untuned, tuned on since)"],
  ["published14Probes", "published14", "Published payloads, set 14 (published14; 6/12 untuned, tuned on since)"],
  ["published15Probes", "published15", "Published payloads, set 15 (published15; 3/8 untuned, never tuned on)"],
] as const;

function evaluateBlindSets(out: string[]): Record<string, Record<string, FamilyResult>> {
  return Object.fromEntries(
    BLIND_SETS.map(([key, folder, title]) => [key, evaluateProbes(out, join(PROBE_DIR, folder), title)]),
  );
}
const SKIPPED = new Set(["SOURCES.tsv", "README.md"]);

interface Scanned {
  readonly name: string;
  readonly text: string;
  readonly findings: readonly ThreatFinding[];
}

function readFolder(dir: string): Scanned[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => !SKIPPED.has(name) && statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), "utf8").replace(/^\ufeff/, "");
      return { name, text, findings: scanWhole(text, "context") };
    });
}

function describe(findings: readonly ThreatFinding[]): string {
  return findings.map((f) => `${f.id}@${f.line}`).join(", ");
}

interface FamilyResult {
  readonly payloads: number;
  readonly caught: number;
  readonly catchRate: number;
  readonly missed: readonly string[];
  readonly nearMisses: number;
  readonly nearMissesFlagged: readonly string[];
  /** Per batch (the word before "-batch-" in a probe's name, or its "blindN-" prefix; "first" without one). */
  readonly batches: Record<string, BatchResult>;
}

interface BatchResult {
  payloads: number;
  caught: number;
  nearMisses: number;
  flagged: number;
}

// Each later batch was written after the rules before it and measured before any change: its own rate is the
// figure that says how the rules generalise, so it is kept apart from the family's total.
const batchOf = (name: string): string => /^(\w+)-batch-|^(blind\d+)-/.exec(name)?.slice(1).find(Boolean) ?? "first";

function byBatch(
  payloads: readonly Probe[],
  missed: readonly string[],
  benign: readonly Probe[],
  flagged: readonly string[],
) {
  const batches: Record<string, BatchResult> = {};
  const get = (name: string) => {
    const key = batchOf(name);
    batches[key] ??= { payloads: 0, caught: 0, nearMisses: 0, flagged: 0 };
    return batches[key];
  };
  for (const p of payloads) {
    const b = get(p.name);
    b.payloads++;
    if (!missed.includes(p.name)) b.caught++;
  }
  for (const p of benign) {
    const b = get(p.name);
    b.nearMisses++;
    if (flagged.includes(p.name)) b.flagged++;
  }
  return batches;
}

/** Issue #23's probes: per family, the payloads caught (by any pattern) and the near-misses flagged. */
function evaluateProbes(
  out: string[],
  dir = PROBE_DIR,
  title = "Probes (test/fixtures/scanner-probes)",
): Record<string, FamilyResult> {
  const results: Record<string, FamilyResult> = {};
  out.push("", `${title}:`);
  for (const family of loadProbeFamilies(dir)) {
    const missed = family.payloads.filter((p) => scanWhole(p.text, "context").length === 0).map((p) => p.name);
    const flagged = family.benign.filter((p) => scanWhole(p.text, "context").length > 0).map((p) => p.name);
    const caught = family.payloads.length - missed.length;
    results[family.family] = {
      payloads: family.payloads.length,
      caught,
      catchRate: Number((caught / family.payloads.length).toFixed(3)),
      missed,
      nearMisses: family.benign.length,
      nearMissesFlagged: flagged,
      batches: byBatch(family.payloads, missed, family.benign, flagged),
    };
    out.push(
      `  ${family.family}: ${caught}/${family.payloads.length} payloads caught, ${flagged.length}/${family.benign.length} near-misses flagged` +
        (missed.length > 0 ? `; missed ${missed.join(", ")}` : "") +
        (flagged.length > 0 ? `; flagged ${flagged.join(", ")}` : ""),
    );
  }
  const batches = new Set(Object.values(results).flatMap((r) => Object.keys(r.batches)));
  for (const batch of batches) {
    const rows = Object.entries(results).map(([family, r]) => [family, r.batches[batch]] as const);
    const cell = ([family, b]: readonly [string, BatchResult | undefined]) =>
      `${family} ${b?.caught ?? 0}/${b?.payloads ?? 0}${b?.flagged ? ` (${b.flagged} flagged)` : ""}`;
    const caught = rows.reduce((n, [, b]) => n + (b?.caught ?? 0), 0);
    const total = rows.reduce((n, [, b]) => n + (b?.payloads ?? 0), 0);
    out.push(`  batch ${batch}: ${caught}/${total}; ${rows.map(cell).join(", ")}`);
  }
  return results;
}

function main(): number {
  const root = resolve(process.argv[2] ?? process.env.HERMES_SCANNER_CORPUS ?? join(__dirname, "../../shared/corpus"));
  if (!existsSync(root)) {
    const out = [`No corpus at ${root}: only the probes are evaluated (pass a folder with benign/ and adversarial/).`];
    evaluateProbes(out);
    evaluateBlindSets(out);
    process.stdout.write(`${out.join("\n")}\n`);
    return 0;
  }
  const benign = readFolder(join(root, "benign"));
  const adversarial = readFolder(join(root, "adversarial"));
  const out: string[] = [`Threat scanner evaluation on ${root}`, ""];

  const blocked = benign.filter((f) => f.findings.length > 0);
  out.push(`Benign context files: ${benign.length}, blocked: ${blocked.length} (false positives)`);
  for (const file of blocked) {
    out.push(`  ✗ ${file.name}`);
    for (const f of file.findings) out.push(`      ${f.id} at line ${f.line}: ${JSON.stringify(f.snippet ?? "")}`);
  }

  const caught = adversarial.filter((f) => f.findings.length > 0);
  out.push(
    "",
    `Published payloads: ${adversarial.length}, caught: ${caught.length}, missed: ${adversarial.length - caught.length}`,
  );
  for (const file of adversarial) {
    out.push(file.findings.length > 0 ? `  ✓ ${file.name}: ${describe(file.findings)}` : `  ✗ missed ${file.name}`);
  }
  const ids = new Map<string, number>();
  for (const file of caught) for (const f of file.findings) ids.set(f.id, (ids.get(f.id) ?? 0) + 1);
  if (ids.size > 0)
    out.push(
      `  pattern ids (payloads): ${[...ids]
        .sort((a, b) => b[1] - a[1])
        .map(([id, n]) => `${id} ${n}`)
        .join(", ")}`,
    );

  const probes = evaluateProbes(out);
  const blind = evaluateBlindSets(out);

  const texts = [...benign, ...adversarial].map((f) => f.text);
  const chars = texts.reduce((sum, t) => sum + t.length, 0);
  const throughput: Record<string, number> = {};
  if (chars > 0) {
    const allMs = medianMs(() => texts.forEach((t) => scanWhole(t, "context")), 9);
    const sample = texts.join("\n\n");
    const file20k = sample.repeat(Math.ceil(20_000 / sample.length)).slice(0, 20_000);
    const per20k = medianMs(() => scanWhole(file20k, "context"), 301);
    const big = sample.repeat(Math.ceil(2_000_000 / sample.length)).slice(0, 2_000_000);
    const bigMs = medianMs(() => scanWhole(big, "context"), 5);
    // As bench/run.ts measures it: upstream's head scan of a 20,000-character context file (astro's AGENTS.md).
    const astro = benign.find((f) => f.name.includes("withastro__astro__AGENTS.md"))?.text ?? sample;
    const astro20k = astro.repeat(Math.ceil(20_000 / astro.length)).slice(0, 20_000);
    const scan20k = medianMs(() => scanForThreats(astro20k, "context"), 301);
    Object.assign(throughput, {
      corpusMBPerSecond: Number((chars / allMs / 1000).toFixed(1)),
      scanWhole20kCharsMs: Number(per20k.toFixed(3)),
      scan20kCharsMs: Number(scan20k.toFixed(3)),
      scan2MCharsMs: Number(bigMs.toFixed(1)),
    });
    out.push(
      "",
      "Throughput (scanWhole, scope context, median):",
      `  whole corpus: ${texts.length} files, ${chars.toLocaleString("en-US")} chars in ${allMs.toFixed(1)} ms = ${(chars / allMs / 1000).toFixed(1)} MB/s`,
      `  one 20,000-char context file: ${per20k.toFixed(3)} ms (upstream's head scan, as bench/run.ts: ${scan20k.toFixed(3)} ms)`,
      `  one 2,000,000-char file (no cap, windows over all of it): ${bigMs.toFixed(1)} ms = ${(2_000_000 / bigMs / 1000).toFixed(1)} MB/s`,
    );
  }
  out.push("", `Result: ${blocked.length} benign blocked, ${caught.length}/${adversarial.length} payloads caught.`);
  process.stdout.write(`${out.join("\n")}\n`);
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    corpus: {
      benignFiles: benign.length,
      benignBlocked: blocked.map((f) => f.name),
      payloads: adversarial.length,
      payloadsCaught: caught.length,
    },
    probes,
    ...blind,
    throughput,
  };
  writeFileSync(join(__dirname, "results", "scanner-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  return blocked.length > 0 ? 1 : 0;
}

process.exitCode = main();
