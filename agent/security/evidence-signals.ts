import { ACT_SIGNALS } from "./evidence-signals-acts.js";
import { CLAIM_SIGNALS } from "./evidence-signals-claims.js";
import { HIJACK_SIGNALS } from "./evidence-signals-hijack.js";
import { PRESSURE_SIGNALS } from "./evidence-signals-pressure.js";
import { REMOTE_PAIRS, REMOTE_SIGNALS } from "./evidence-signals-remote.js";
import { STRUCTURE_SIGNALS } from "./evidence-signals-structure.js";

/**
 * One sign of an attack for the evidence rule (threat-evidence.ts): a pattern in upstream's dialect (python-regex.ts),
 * the kind of sign it is (two patterns of one kind count once) and its weight.
 */
export interface EvidenceSignal {
  readonly kind: string;
  /** 2 or more: a sign an ordinary context file seldom gives; 1: one it gives now and then. */
  readonly weight: number;
  readonly source: string;
  /** Not counted right after a negation in its clause ("never push without telling the user"); true unless said. */
  readonly negatable?: boolean;
  /**
   * Half of a pair (weight 0): counted only when its other half stands near it, as the pair's sign (PAIRS). Looked
   * for with the strong signs, since a pair is one.
   */
  readonly part?: boolean;
  /** A claim (a safeguard lifted, consent given): not counted in a clause that opens with "if" or "when". */
  readonly claim?: boolean;
  /** Matched as written (an environment variable's capitals, a turn marker's), not case-insensitively. */
  readonly caseSensitive?: boolean;
}

/** Two halves that make a sign together when they stand within `within` characters of each other. */
export interface EvidencePair {
  readonly parts: readonly [string, string];
  readonly within: number;
  readonly kind: string;
  readonly weight: number;
}

/** A decoded blob and code run near it: a decode-and-run chain, enough on its own (eval of a packed hex string). */
export const PAIRS: readonly EvidencePair[] = [
  { parts: ["decoded", "run_as_code"], within: 300, kind: "decode_and_run", weight: 4 },
  ...REMOTE_PAIRS,
];

export const EVIDENCE_SIGNALS: readonly EvidenceSignal[] = [
  ...PRESSURE_SIGNALS,
  ...ACT_SIGNALS,
  ...HIJACK_SIGNALS,
  ...CLAIM_SIGNALS,
  ...REMOTE_SIGNALS,
  ...STRUCTURE_SIGNALS,
];
