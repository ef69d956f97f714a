/**
 * Fitting the injection classifier (bench/train-injection-classifier.ts): a logistic regression over the counts of
 * the unigrams and bigrams of a window of 1–3 segments (bench/injection-classifier-features.ts), so that a window's
 * score is the bias plus the sum of its segments' sums, as the scanner computes it.
 *
 * A payload is labelled as a whole, but most of its windows are innocent framing ("# Contributing", "Run pnpm test
 * before opening a pull request"). So the positives are chosen as in multiple-instance learning: a first fit takes
 * every window of every payload (each payload weighing 1 in all), later fits take each payload's best-scoring window
 * under the previous fit. Every window of a benign text is a negative. Deterministic: a fixed shuffle seed.
 */

import { featuresOf, MAX_WINDOW_SEGMENTS, tokenSegments } from "./injection-classifier-features.js";
import { prng } from "./prng.js";

export interface EncodedText {
  /** Per segment, the ids of its distinct features; unknown features left out. */
  readonly segments: readonly Int32Array[];
  readonly paragraphs: readonly number[];
}

export class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly names: string[] = [];
  add(feature: string): number {
    let id = this.ids.get(feature);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(feature, id);
      this.names.push(feature);
    }
    return id;
  }
}

/** The features of each segment of `text`, as strings. */
export function segmentFeatures(text: string): { features: string[][]; paragraphs: number[] } {
  const segments = tokenSegments(text.normalize("NFKC").toLowerCase());
  return {
    features: segments.map((s) => featuresOf(s.tokens)),
    paragraphs: segments.map((s) => s.paragraph),
  };
}

/** The text's segments as feature ids; with `learn`, unknown features join the vocabulary, else they are left out. */
export function encode(text: string, vocabulary: Vocabulary, learn = false): EncodedText {
  const { features, paragraphs } = segmentFeatures(text);
  const segments = features.map((fs) => {
    const ids: number[] = [];
    for (const f of fs) {
      const id = learn ? vocabulary.add(f) : vocabulary.ids.get(f);
      if (id !== undefined) ids.push(id);
    }
    return Int32Array.from(ids);
  });
  return { segments, paragraphs };
}

/** The windows of a text: [first, last) segment ranges of 1–3 segments within one paragraph. */
export function windowsOf(text: EncodedText): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  const n = text.segments.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j <= Math.min(n, i + MAX_WINDOW_SEGMENTS); j++) {
      if (text.paragraphs[j - 1] !== text.paragraphs[i]) break;
      out.push([i, j]);
    }
  }
  return out;
}

export class Model {
  constructor(
    readonly weights: Float64Array,
    public bias: number,
  ) {}
  segmentSums(text: EncodedText): Float64Array {
    const sums = new Float64Array(text.segments.length);
    text.segments.forEach((ids, i) => {
      let s = 0;
      for (const id of ids) s += this.weights[id]!;
      sums[i] = s;
    });
    return sums;
  }
  /** The best window's score and range. */
  best(text: EncodedText): { score: number; window: readonly [number, number] } {
    const sums = this.segmentSums(text);
    let best = { score: Number.NEGATIVE_INFINITY, window: [0, 0] as readonly [number, number] };
    for (const [i, j] of windowsOf(text)) {
      let s = this.bias;
      for (let k = i; k < j; k++) s += sums[k]!;
      if (s > best.score) best = { score: s, window: [i, j] };
    }
    return best;
  }
}

interface Example {
  readonly ids: Int32Array;
  readonly y: number;
  readonly weight: number;
}

export interface FitOptions {
  readonly epochs: number;
  readonly l2: number;
  readonly rate: number;
  /** Total weight of the positives against that of the negatives. */
  readonly positiveShare: number;
  readonly rounds: number;
  /** Features allowed to take weight (1), e.g. after pruning; all when absent. */
  readonly mask?: Uint8Array;
}

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The settings chosen by leave-one-batch-out cross-validation (each can be overridden for experiments). */
export const DEFAULT_FIT: FitOptions = {
  epochs: env("EPOCHS", 5),
  l2: env("L2", 1e-4),
  rate: env("RATE", 0.1),
  positiveShare: env("POSITIVE_SHARE", 0.2),
  rounds: env("ROUNDS", 3),
};

function windowIds(text: EncodedText, [i, j]: readonly [number, number]): Int32Array {
  if (j - i === 1) return text.segments[i]!;
  const parts = text.segments.slice(i, j);
  const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Fits the model. `negatives` carry a weight each (hard negatives such as agent instructions weigh more), given to
 * every window of theirs.
 */
export function fitModel(
  vocabularySize: number,
  positives: readonly EncodedText[],
  negatives: ReadonlyArray<{ readonly text: EncodedText; readonly weight: number }>,
  options: FitOptions = DEFAULT_FIT,
): Model {
  const negativeExamples: Example[] = [];
  for (const { text, weight } of negatives) {
    for (const w of windowsOf(text)) negativeExamples.push({ ids: windowIds(text, w), y: 0, weight });
  }
  const negativeTotal = negativeExamples.reduce((n, e) => n + e.weight, 0);
  let model = new Model(new Float64Array(vocabularySize), 0);
  for (let round = 0; round < options.rounds; round++) {
    const positiveExamples: Example[] = [];
    for (const text of positives) {
      if (round === 0) {
        const windows = windowsOf(text);
        for (const w of windows) positiveExamples.push({ ids: windowIds(text, w), y: 1, weight: 1 / windows.length });
      } else positiveExamples.push({ ids: windowIds(text, model.best(text).window), y: 1, weight: 1 });
    }
    const positiveTotal = positiveExamples.reduce((n, e) => n + e.weight, 0);
    const scale = (options.positiveShare * negativeTotal) / positiveTotal;
    const examples = [...negativeExamples, ...positiveExamples.map((e) => ({ ...e, weight: e.weight * scale }))];
    // Normalise so that the mean example weight is 1: the learning rate then means the same for any data size.
    const mean = examples.reduce((n, e) => n + e.weight, 0) / examples.length;
    model = sgd(vocabularySize, examples, mean, options);
  }
  return model;
}

function sgd(size: number, examples: readonly Example[], mean: number, options: FitOptions): Model {
  const w = new Float64Array(size);
  const g2 = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const mask = options.mask;
  const order = Int32Array.from(examples.keys());
  const random = prng(23);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const k of order) {
      const e = examples[k]!;
      let z = bias;
      for (const id of e.ids) z += w[id]!; // masked features stay at 0
      const p = 1 / (1 + Math.exp(-z));
      const g = ((p - e.y) * e.weight) / mean;
      if (g === 0) continue;
      biasG2 += g * g;
      bias -= (options.rate * g) / Math.sqrt(biasG2);
      for (const id of e.ids) {
        if (mask && mask[id] === 0) continue;
        const gi = g + options.l2 * w[id]!;
        g2[id]! += gi * gi;
        w[id]! -= (options.rate * gi) / Math.sqrt(g2[id]!);
      }
    }
  }
  return new Model(w, bias);
}
