/**
 * Trains the injection classifier (bench/injection-classifier-model.ts), run with
 * `npx tsx bench/train-injection-classifier.ts [--no-cv] [--blind]`. Deterministic: the same data give the same weights.
 *
 * 1. Leave-one-batch-out cross-validation over the probe batches: fit on every batch but one, set the threshold above
 *    every benign window seen (the docs, the agent instructions, the near-misses, the held-out real context files),
 *    and count the left-out batch's payloads above it. This is the figure that says how the model generalises to
 *    wording it has not seen, as each batch was written after the rules before it.
 * 2. The final fit on all batches, pruned to the features that carry weight, its threshold chosen the same way, written
 *    to $WEIGHTS_OUT (default /tmp/injection-classifier-weights.json; features and numbers only, no sentence of
 *    the data). Not committed: at zero false positives the model catches too little to be worth a detector.
 * 3. With --blind, one final measurement on the blind probe set (../heldout), never used for any choice.
 *
 * The figures go to bench/results/classifier-latest.json.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ADVERSARIAL,
  BLIND_PROBES,
  docTexts,
  folderTexts,
  HELD_OUT_BENIGN,
  instructionTexts,
  type LabelledText,
  probeTexts,
} from "./injection-classifier-data.js";
import { blindMeasurement } from "./injection-classifier-eval.js";
import { DEFAULT_FIT, type EncodedText, encode, fitModel, Model, Vocabulary } from "./injection-classifier-fit.js";

/** Features kept in the committed model: the heaviest by |weight| (the rest are noise and size). */
const KEEP_FEATURES = Number(process.env.KEEP_FEATURES ?? 6000);
/** Hard negatives (agent instructions, near-misses) weigh this many docs windows. */
const HARD_NEGATIVE_WEIGHT = Number(process.env.HARD_NEGATIVE_WEIGHT ?? 5);
/** The threshold stands this far (in logits) above the highest benign window. */
const WEIGHTS_OUT = process.env.WEIGHTS_OUT ?? "/tmp/injection-classifier-weights.json";
export const MARGIN = Number(process.env.MARGIN ?? 0.5);

interface Encoded extends LabelledText {
  readonly encoded: EncodedText;
}

/** The `keep` heaviest features by |weight| as a mask (ties by id, for determinism). */
function topFeatures(model: Model, keep: number): Uint8Array {
  const order = Array.from(model.weights.keys()).sort(
    (a, b) => Math.abs(model.weights[b]!) - Math.abs(model.weights[a]!) || a - b,
  );
  const mask = new Uint8Array(model.weights.length);
  for (const id of order.slice(0, keep)) if (model.weights[id] !== 0) mask[id] = 1;
  return mask;
}

/** The model as committed: weights rounded to three decimals. */
function rounded(model: Model): Model {
  return new Model(model.weights.map(round), round(model.bias));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The highest window score over `texts`, with the name of the text. */
function maxScore(model: Model, texts: readonly Encoded[]): { score: number; name: string } {
  let best = { score: Number.NEGATIVE_INFINITY, name: "" };
  for (const t of texts) {
    const { score } = model.best(t.encoded);
    if (score > best.score) best = { score, name: t.name };
  }
  return best;
}

function main(): void {
  const started = Date.now();
  const args = new Set(process.argv.slice(2));
  const vocabulary = new Vocabulary();
  const { payloads, nearMisses } = probeTexts();
  const docs = docTexts();
  const instructions = instructionTexts();
  // Training texts add to the vocabulary; a feature seen only in a left-out batch keeps weight 0 (never updated).
  const learn = (texts: readonly LabelledText[]): Encoded[] =>
    texts.map((t) => ({ ...t, encoded: encodeLearning(t.text, vocabulary) }));
  const trainPayloads = learn(payloads);
  const trainNearMisses = learn(nearMisses);
  const trainDocs = learn(docs);
  const trainInstructions = learn(instructions);
  const frozen = (texts: readonly LabelledText[]): Encoded[] =>
    texts.map((t) => ({ ...t, encoded: encode(t.text, vocabulary) }));
  const contextFiles = frozen(HELD_OUT_BENIGN.flatMap((dir, i) => folderTexts(dir, i === 0 ? "corpus" : "extra")));
  log(
    `data: ${payloads.length} payloads, ${nearMisses.length} near-misses, ${docs.length} docs, ` +
      `${instructions.length} instructions, ${contextFiles.length} held-out context files; ` +
      `${vocabulary.names.length} features (${Math.round((Date.now() - started) / 1000)} s)`,
  );

  const fitOn = (batchOut: string | undefined): Model => {
    const positives = trainPayloads.filter((p) => p.batch !== batchOut).map((p) => p.encoded);
    const negatives = [
      ...trainDocs.map((t) => ({ text: t.encoded, weight: 1 })),
      ...trainInstructions.map((t) => ({ text: t.encoded, weight: HARD_NEGATIVE_WEIGHT })),
      ...trainNearMisses
        .filter((t) => t.batch !== batchOut)
        .map((t) => ({ text: t.encoded, weight: HARD_NEGATIVE_WEIGHT })),
    ];
    // Pruning alone would drop the many small negative weights that keep long benign windows low: the pruned
    // features are fitted again on their own.
    const full = fitModel(vocabulary.names.length, positives, negatives, DEFAULT_FIT);
    const mask = topFeatures(full, KEEP_FEATURES);
    return rounded(fitModel(vocabulary.names.length, positives, negatives, { ...DEFAULT_FIT, mask }));
  };
  const benignMax = (model: Model) => {
    const parts = {
      docs: maxScore(model, trainDocs),
      instructions: maxScore(model, trainInstructions),
      nearMisses: maxScore(model, trainNearMisses),
      contextFiles: maxScore(model, contextFiles),
    };
    const top = Math.max(...Object.values(parts).map((p) => p.score));
    return { parts, threshold: round(top + MARGIN) };
  };

  const crossValidation: Record<string, unknown> = {};
  if (!args.has("--no-cv")) {
    const only = process.env.BATCHES?.split(",");
    const batches = [...new Set(payloads.map((p) => p.batch))].filter((b) => !only || only.includes(b));
    let caught = 0;
    for (const batch of batches) {
      const model = fitOn(batch);
      const { parts, threshold } = benignMax(model);
      const left = trainPayloads.filter((p) => p.batch === batch);
      const scores = left.map((p) => model.best(p.encoded).score).sort((a, b) => a - b);
      const hits = left.filter((p) => model.best(p.encoded).score > threshold);
      caught += hits.length;
      const byFamily: Record<string, string> = {};
      for (const family of new Set(left.map((p) => p.family))) {
        const of = left.filter((p) => p.family === family);
        byFamily[family] = `${of.filter((p) => hits.includes(p)).length}/${of.length}`;
      }
      crossValidation[batch] = {
        caught: hits.length,
        payloads: left.length,
        threshold,
        byFamily,
        benignMax: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v.score)])),
      };
      log(
        `batch ${batch}: ${hits.length}/${left.length} (threshold ${threshold}; payload quartiles ` +
          `${[0.25, 0.5, 0.75].map((q) => scores[Math.floor(q * scores.length)]!.toFixed(1)).join(" ")}; ${JSON.stringify(byFamily)}; ` +
          `benign max ${Object.entries(parts)
            .map(([k, v]) => `${k} ${v.score.toFixed(2)}`)
            .join(", ")})`,
      );
    }
    crossValidation.total = `${caught}/${payloads.length}`;
    log(`leave-one-batch-out: ${caught}/${payloads.length}`);
  }

  const model = fitOn(undefined);
  const { parts, threshold } = benignMax(model);
  log(`final: threshold ${threshold}; benign max ${JSON.stringify(parts)}`);
  const features: Record<string, number> = {};
  model.weights.forEach((w, id) => {
    if (w !== 0) features[vocabulary.names[id]!] = w;
  });
  const sorted = Object.fromEntries(Object.entries(features).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const weightsFile = WEIGHTS_OUT;
  writeFileSync(weightsFile, `${JSON.stringify({ version: 1, bias: model.bias, threshold, features: sorted })}\n`);
  log(`wrote ${Object.keys(sorted).length} features to ${weightsFile}`);

  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    model: "logistic regression, word unigrams + bigrams, windows of 1-3 segments",
    options: { ...DEFAULT_FIT, keepFeatures: KEEP_FEATURES, hardNegativeWeight: HARD_NEGATIVE_WEIGHT, margin: MARGIN },
    data: {
      payloads: payloads.length,
      nearMisses: nearMisses.length,
      docs: docs.length,
      instructions: instructions.length,
      heldOutContextFiles: contextFiles.length,
    },
    crossValidation,
    final: {
      threshold,
      benignMax: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v.score)])),
      features: Object.keys(sorted).length,
    },
  };
  if (args.has("--blind")) results.blind = blindMeasurement(weightsFile, BLIND_PROBES, ADVERSARIAL, log);
  writeFileSync(join(__dirname, "results", "classifier-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** As encode, but every feature of the text joins the vocabulary. */
function encodeLearning(text: string, vocabulary: Vocabulary): EncodedText {
  return encode(text, vocabulary, true);
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

main();
