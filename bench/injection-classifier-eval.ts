/**
 * The final measurement of the injection classifier as the scanner would run it (injection-classifier-model.ts with
 * the weights just written), for bench/train-injection-classifier.ts --blind: the blind probe set (written by
 * someone who never saw the rules nor the classifier; measured once, used for no choice), the published payloads,
 * and the benign texts, each by the classifier alone, by the scanner's rules alone, and by both.
 */
import { readFileSync, statSync } from "node:fs";
import { scanWhole } from "../agent/security/threat-scanner.js";
import { docTexts, folderTexts, HELD_OUT_BENIGN, type LabelledText, probeTexts } from "./injection-classifier-data.js";
import { type ClassifierWeights, InjectionClassifier } from "./injection-classifier-model.js";
import { medianMs } from "./median-time.js";

interface Tally {
  texts: number;
  classifier: number;
  rules: number;
  either: number;
}

export function blindMeasurement(
  weightsFile: string,
  blindDir: string,
  adversarialDir: string,
  log: (line: string) => void,
) {
  const weights = JSON.parse(readFileSync(weightsFile, "utf8")) as ClassifierWeights;
  const classifier = new InjectionClassifier(weights);
  const byClassifier = (t: LabelledText) => classifier.find(t.text.normalize("NFKC").toLowerCase()) !== undefined;
  const byRules = (t: LabelledText) => scanWhole(t.text, "context").some((f) => f.id !== "injection_classifier");
  const tally = (texts: readonly LabelledText[]): Record<string, Tally> => {
    const out: Record<string, Tally> = {};
    for (const t of texts) {
      const row = (out[t.family] ??= { texts: 0, classifier: 0, rules: 0, either: 0 });
      const c = byClassifier(t);
      const r = byRules(t);
      row.texts++;
      if (c) row.classifier++;
      if (r) row.rules++;
      if (c || r) row.either++;
    }
    return out;
  };
  const blind = probeTexts(blindDir);
  const contextFiles = HELD_OUT_BENIGN.flatMap((dir, i) => folderTexts(dir, i === 0 ? "corpus" : "extra"));
  // Its cost on a 20,000-character context file, warm, as bench/eval-scanner.ts measures the scanner.
  const sample = contextFiles.map((t) => t.text).join("\n\n");
  const file20k = sample.slice(0, 20_000).normalize("NFKC").toLowerCase();
  const results = {
    classifier20kCharsMs: Number(medianMs(() => classifier.best(file20k), 301).toFixed(3)),
    weightsBytes: statSync(weightsFile).size,
    blindPayloads: tally(blind.payloads),
    blindNearMisses: tally(blind.nearMisses),
    adversarial: tally(folderTexts(adversarialDir, "adversarial")),
    heldOutContextFiles: tally(contextFiles),
    docsFlaggedByClassifier: docTexts().filter(byClassifier).length,
  };
  for (const [name, rows] of Object.entries(results)) {
    if (typeof rows === "number") log(`${name}: ${rows}`);
    else
      for (const [family, r] of Object.entries(rows))
        log(`${name} ${family}: ${r.texts} texts; classifier ${r.classifier}, rules ${r.rules}, either ${r.either}`);
  }
  return results;
}
