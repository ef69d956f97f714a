/**
 * The texts the injection classifier is trained and measured on (bench/train-injection-classifier.ts). Read at
 * training time only: nothing here is committed but the numbers the script derives from it.
 *
 * - payloads: the probes of issue #23 (test/fixtures/scanner-probes), by family and batch;
 * - near-misses: the probes' benign blocks (real-looking text that must pass);
 * - docs: Markdown documentation installed on this machine (node_modules, /usr/share/doc, /usr/lib/node_modules),
 *   real developer prose, code and tables;
 * - instructions: benign orders to an agent written for the classifier (bench/injection-classifier-benign.txt);
 * - held-out benign context files (../shared/corpus/benign, /tmp/extra-benign), for measuring only.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadProbeFamilies } from "../test/fixtures/scanner-probes/probes.js";

export interface LabelledText {
  readonly name: string;
  readonly text: string;
  /** The family (payloads and near-misses) or the source (docs, instructions, context files). */
  readonly family: string;
  /** The probe batch: the word before "-batch-" in the name, "first" without one; "" for other texts. */
  readonly batch: string;
}

const ROOT = resolve(__dirname, "..");
export const batchOf = (name: string): string => /^(\w+)-batch-/.exec(name)?.[1] ?? "first";

export function probeTexts(dir?: string): { payloads: LabelledText[]; nearMisses: LabelledText[] } {
  const payloads: LabelledText[] = [];
  const nearMisses: LabelledText[] = [];
  for (const f of loadProbeFamilies(dir)) {
    for (const p of f.payloads) payloads.push({ name: p.name, text: p.text, family: f.family, batch: batchOf(p.name) });
    for (const p of f.benign) nearMisses.push({ name: p.name, text: p.text, family: f.family, batch: batchOf(p.name) });
  }
  return { payloads, nearMisses };
}

/** Files over this size are mostly changelogs and API dumps: their head is read. */
const MAX_DOC_CHARS = 60_000;

/** Every distinct Markdown file under the documentation folders, in a fixed order. */
export function docTexts(): LabelledText[] {
  const roots = [join(ROOT, "node_modules"), "/usr/share/doc", "/usr/lib/node_modules"];
  const seen = new Set<string>();
  const visited = new Set<string>();
  const out: LabelledText[] = [];
  const walk = (dir: string, source: string) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    for (const name of readdirSync(real).sort()) {
      const path = join(real, name);
      let stat: ReturnType<typeof statSync>;
      try {
        stat = statSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(path, source);
      else if (/\.md$/i.test(name) && stat.size > 0) {
        const text = readFileSync(path, "utf8").slice(0, MAX_DOC_CHARS);
        const hash = createHash("sha1").update(text).digest("hex");
        if (seen.has(hash)) continue;
        seen.add(hash);
        out.push({ name: path, text, family: source, batch: "" });
      }
    }
  };
  for (const root of roots) if (existsSync(root)) walk(root, root.includes("share/doc") ? "usr-doc" : "node-docs");
  return out;
}

/** The handwritten benign agent instructions, one block per paragraph. */
export function instructionTexts(): LabelledText[] {
  const file = join(__dirname, "injection-classifier-benign.txt");
  return readFileSync(file, "utf8")
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .filter((l) => !l.startsWith("%%"))
        .join("\n")
        .trim(),
    )
    .filter((t) => t.length > 0)
    .map((text, i) => ({ name: `instruction-${i + 1}`, text, family: "instructions", batch: "" }));
}

/** The files of a folder of held-out texts (context files), without the corpus's own notes. */
export function folderTexts(dir: string, family: string): LabelledText[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name !== "README.md" && name !== "SOURCES.tsv" && statSync(join(dir, name)).isFile())
    .sort()
    .map((name) => ({
      name,
      text: readFileSync(join(dir, name), "utf8").replace(/^\ufeff/, ""),
      family,
      batch: "",
    }));
}

export const HELD_OUT_BENIGN = [join(ROOT, "../shared/corpus/benign"), "/tmp/extra-benign"];
export const ADVERSARIAL = join(ROOT, "../shared/corpus/adversarial");
export const BLIND_PROBES = join(ROOT, "../heldout");
