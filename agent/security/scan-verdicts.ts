import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../store/memory-file-lock.js";
import { scanVerdictsFileOf } from "./hermes-dirs.js";
import type { ThreatScope } from "./threat-patterns.js";
import { scanWhole, type ThreatFinding } from "./threat-scanner.js";

/**
 * The scanner's verdicts on the files it read at session start (context files, SOUL.md), kept in
 * HERMES_HOME/cache/scan-verdicts.json by the text's SHA-256 and the scanner's rules: a process scans a text it has
 * not seen once more, but the first scan of a process compiles every regex it runs (~100 ms for a 9 KB AGENTS.md on
 * the 2-core machine this was measured on, scanner-warm-up.ts), and the files of a workspace rarely change between
 * two editor sessions. Any change to the text or to the rules is a miss. The file is as protected as the session
 * store: the file tools refuse to write it (file-safety.ts), so a steered model cannot mark its own payload clean.
 *
 * The rules' identity is a hash of agent/security's sources, set by the build (esbuild.config.mjs); run from the
 * sources (tsx) there is none, and nothing is cached unless a caller names one (tests).
 */
declare const __HERMES_SCANNER_RULES__: string | undefined;
const BUILD_RULES = typeof __HERMES_SCANNER_RULES__ === "string" ? __HERMES_SCANNER_RULES__ : undefined;

const MAX_ENTRIES = 500;

interface VerdictFile {
  readonly rules: string;
  readonly entries: Record<string, { readonly findings: readonly ThreatFinding[]; readonly used: number }>;
}

let kept: { readonly file: string; readonly rules: string; data: VerdictFile; saving?: boolean } | undefined;

/** Where verdicts are kept from now on (under a HERMES_HOME); a later call with the same home changes nothing. */
export function keepScanVerdictsIn(hermesHome: string, rules: string | undefined = BUILD_RULES): void {
  const file = scanVerdictsFileOf(hermesHome);
  if (!rules || (kept?.file === file && kept.rules === rules)) return;
  kept = { file, rules, data: readVerdicts(file, rules) };
}

/** scanWhole, answered from the kept verdicts when this text was scanned before under the same rules. */
export function scanWholeRemembered(text: string, scope: ThreatScope): ThreatFinding[] {
  if (!kept) return scanWhole(text, scope);
  const key = createHash("sha256").update(`${scope}\0${text}`).digest("hex");
  const known = kept.data.entries[key];
  if (known) return known.findings.map((f) => ({ ...f }));
  const findings = scanWhole(text, scope);
  remember(kept, key, findings);
  return findings;
}

function readVerdicts(file: string, rules: string): VerdictFile {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Partial<VerdictFile>;
    if (data.rules === rules && data.entries && typeof data.entries === "object")
      return { rules, entries: data.entries };
  } catch {
    // none yet, or unreadable: start afresh
  }
  return { rules, entries: {} };
}

function remember(store: NonNullable<typeof kept>, key: string, findings: readonly ThreatFinding[]): void {
  const entries = { ...store.data.entries, [key]: { findings, used: Date.now() } };
  const keys = Object.keys(entries);
  if (keys.length > MAX_ENTRIES) {
    // The oldest verdicts go first.
    for (const old of keys.sort((a, b) => entries[a]!.used - entries[b]!.used).slice(0, keys.length - MAX_ENTRIES))
      delete entries[old];
  }
  store.data = { rules: store.rules, entries };
  // One write for all the files a session start scans (they are scanned one after another in the same task).
  if (store.saving) return;
  store.saving = true;
  setImmediate(() => {
    store.saving = false;
    try {
      mkdirSync(dirname(store.file), { recursive: true });
      writeFileAtomic(store.file, JSON.stringify(store.data));
    } catch {
      // A read-only HERMES_HOME: verdicts stay in memory for this process.
    }
  }).unref();
}
