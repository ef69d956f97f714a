import type { ThreatFinding } from "../security/threat-scanner.js";

/** What happened to one candidate context file: the material of the context inspector. */
export type ContextFileStatus = "loaded" | "shadowed" | "empty" | "blocked" | "unreadable";

export interface ContextFileDecision {
  readonly path: string;
  /** The name shown in the prompt's section header (relative to the session's cwd where it lives there). */
  readonly label: string;
  readonly status: ContextFileStatus;
  /** For `shadowed`: the file that won instead. */
  readonly shadowedBy?: string;
  /** Characters in the file as read. */
  readonly chars: number;
  /** Characters of this file's section that reach the prompt (0 when not loaded). */
  readonly injectedChars: number;
  readonly truncated?: { readonly head: number; readonly tail: number; readonly total: number; readonly limit: number };
  /** For `blocked`: each finding's pattern id, line and (from the whole-text scan) a snippet of what matched. */
  readonly threats?: readonly ThreatFinding[];
}

export interface LoadedSection {
  readonly text: string;
  readonly decisions: readonly ContextFileDecision[];
  readonly warnings: readonly string[];
}
