import type { Hit } from "../agent/security/threat-patterns.js";
import { MAX_WINDOW_SEGMENTS, tokenSegments } from "./injection-classifier-features.js";

/**
 * The injection classifier as the scanner would run it, kept under bench/ because it did not reach a useful recall at
 * zero false positives (bench/results/classifier-latest.json): it is not wired into the scanner.
 *
 * Meant as the scanner's second line (issue #23): a statistical text classifier, for the injected instructions whose wording
 * no regex family foresaw. Regexes fit wording; a linear model over words and word pairs (logistic regression,
 * trained by bench/train-injection-classifier.ts on the probe payloads against real documentation, near-misses and
 * benign agent instructions) scores how much a passage reads like an injection as a whole.
 *
 * A context file is read as windows of 1–3 consecutive segments (sentences, list items, headings) within a
 * paragraph, as injection-classifier-features.ts cuts them: an attack hides in the middle of long normal text, and a whole file's
 * score would dilute it. A window's score is the bias plus the weights of its segments' features (each once per
 * segment); the best window is reported when its score passes the threshold, which training set above every benign
 * window it saw, with a margin, so that real context files pass.
 */

export interface ClassifierWeights {
  readonly version: number;
  readonly bias: number;
  readonly threshold: number;
  /** Feature → weight: a token, or two adjacent tokens joined by a space. */
  readonly features: Readonly<Record<string, number>>;
}

export interface ClassifierHit extends Hit {
  readonly score: number;
}

export class InjectionClassifier {
  private readonly unigrams = new Map<string, number>();
  // Bigrams by first then second token: no string is built per pair of the scanned text.
  private readonly bigrams = new Map<string, Map<string, number>>();
  readonly threshold: number;
  private readonly bias: number;

  constructor(weights: ClassifierWeights) {
    this.threshold = weights.threshold;
    this.bias = weights.bias;
    for (const [feature, weight] of Object.entries(weights.features)) {
      const space = feature.indexOf(" ");
      if (space < 0) {
        this.unigrams.set(feature, weight);
        continue;
      }
      const first = feature.slice(0, space);
      let seconds = this.bigrams.get(first);
      if (!seconds) this.bigrams.set(first, (seconds = new Map()));
      seconds.set(feature.slice(space + 1), weight);
    }
  }

  /** The best-scoring window of `lower` (NFKC-normalised, lower-cased), as offsets and score; undefined if none. */
  best(lower: string): ClassifierHit | undefined {
    const segments = tokenSegments(lower);
    const sums = segments.map((s) => this.sumOf(s.tokens));
    let best: ClassifierHit | undefined;
    for (let i = 0; i < segments.length; i++) {
      let score = this.bias;
      for (let j = i; j < Math.min(segments.length, i + MAX_WINDOW_SEGMENTS); j++) {
        if (segments[j]!.paragraph !== segments[i]!.paragraph) break;
        score += sums[j]!;
        if (!best || score > best.score) best = { index: segments[i]!.start, end: segments[j]!.end, score };
      }
    }
    return best;
  }

  /** The best window when it passes the threshold. */
  find(lower: string): ClassifierHit | undefined {
    const best = this.best(lower);
    return best && best.score > this.threshold ? best : undefined;
  }

  /** The sum of the weights of the segment's distinct features (featuresOf, without building every pair). */
  private sumOf(tokens: readonly string[]): number {
    let sum = 0;
    const seen = new Set<string>();
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (!seen.has(token)) {
        seen.add(token);
        sum += this.unigrams.get(token) ?? 0;
      }
      if (i === 0) continue;
      const weight = this.bigrams.get(tokens[i - 1]!)?.get(token);
      if (weight === undefined) continue;
      const pair = `${tokens[i - 1]} ${token}`;
      if (!seen.has(pair)) {
        seen.add(pair);
        sum += weight;
      }
    }
    return sum;
  }
}
