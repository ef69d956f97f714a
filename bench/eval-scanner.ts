/**
 * Evaluates the threat scanner on real data, run with `npm run eval:scanner [corpus-folder]` (not part of `npm test`).
 *
 * Reads a corpus laid out as `../shared/corpus` is (the default, from the project's root): `benign/` holds real agent
 * context files that must not be blocked, `adversarial/` published attack payloads that should be. Each file is
 * scanned as a context file is at session start (scope `context`, the whole text, one leading BOM removed). Prints
 * the false positives with the words that tripped the scanner, the payloads caught (with their pattern ids) and
 * missed, and the scanner's throughput. Nothing is written: the corpus is other people's text and stays outside the
 * project. Exits with 1 when a benign file is blocked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { scanWhole, type ThreatFinding } from "../agent/security/threat-scanner.js";
import { medianMs } from "./median-time.js";

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

function main(): number {
  const root = resolve(process.argv[2] ?? process.env.HERMES_SCANNER_CORPUS ?? join(__dirname, "../../shared/corpus"));
  if (!existsSync(root)) {
    process.stdout.write(`No corpus at ${root}: nothing to evaluate (pass a folder with benign/ and adversarial/).\n`);
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

  const texts = [...benign, ...adversarial].map((f) => f.text);
  const chars = texts.reduce((sum, t) => sum + t.length, 0);
  if (chars > 0) {
    const allMs = medianMs(() => texts.forEach((t) => scanWhole(t, "context")), 9);
    const sample = texts.join("\n\n");
    const file20k = sample.repeat(Math.ceil(20_000 / sample.length)).slice(0, 20_000);
    const per20k = medianMs(() => scanWhole(file20k, "context"), 301);
    const big = sample.repeat(Math.ceil(2_000_000 / sample.length)).slice(0, 2_000_000);
    const bigMs = medianMs(() => scanWhole(big, "context"), 5);
    out.push(
      "",
      "Throughput (scanWhole, scope context, median):",
      `  whole corpus: ${texts.length} files, ${chars.toLocaleString("en-US")} chars in ${allMs.toFixed(1)} ms = ${(chars / allMs / 1000).toFixed(1)} MB/s`,
      `  one 20,000-char context file: ${per20k.toFixed(3)} ms`,
      `  one 2,000,000-char file (no cap, windows over all of it): ${bigMs.toFixed(1)} ms = ${(2_000_000 / bigMs / 1000).toFixed(1)} MB/s`,
    );
  }
  out.push("", `Result: ${blocked.length} benign blocked, ${caught.length}/${adversarial.length} payloads caught.`);
  process.stdout.write(`${out.join("\n")}\n`);
  return blocked.length > 0 ? 1 : 0;
}

process.exitCode = main();
