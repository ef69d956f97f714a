import { compilePythonPattern } from "./python-regex.js";

/** Cumulative scopes: `all` ⊂ `context` ⊂ `strict`. Context files use `context`; memory and skills use `strict`. */
export type ThreatScope = "all" | "context" | "strict";

export interface ThreatPattern {
  readonly id: string;
  readonly scope: ThreatScope;
  readonly regex: RegExp;
  /**
   * Literal prefilter: every match necessarily contains, case-insensitively, at least one word of each group. A
   * cheap substring test on the lower-cased text skips the regex when a group is absent, which is what keeps a
   * 20,000-character scan well under a millisecond. Sound because the scanned text is NFKC-normalised first
   * (folding the only non-ASCII characters, U+212A and U+017F, that case-fold onto ASCII letters).
   */
  readonly requires: ReadonlyArray<readonly string[]>;
}

// Upstream's bounded filler: up to eight words between key terms, so no pattern can backtrack catastrophically.
const F = String.raw`(?:\w+\s+){0,8}`;

/** Upstream's BASELINE list (hermes-behaviour.md §2.2), in order, with its ids and scopes. */
const SOURCES: ReadonlyArray<readonly [string, string, ThreatScope, ReadonlyArray<readonly string[]>]> = [
  [String.raw`ignore\s+${F}(previous|all|above|prior)\s+${F}instructions`, "prompt_injection", "all", [["ignore"], ["instructions"]]],
  [String.raw`system\s+prompt\s+override`, "sys_prompt_override", "all", [["override"]]],
  [String.raw`disregard\s+${F}(your|all|any)\s+${F}(instructions|rules|guidelines)`, "disregard_rules", "all", [["disregard"]]],
  [String.raw`act\s+as\s+(if|though)\s+${F}you\s+${F}(have\s+no|don't\s+have)\s+${F}(restrictions|limits|rules)`, "bypass_restrictions", "all", [["act"], ["restrictions", "limits", "rules"]]],
  [String.raw`<!--[^>]{0,512}(?:ignore|override|system|secret|hidden)[^>]{0,512}-->`, "html_comment_injection", "all", [["<!--"]]],
  [String.raw`<\s*div\s+style\s*=\s*["'][^>]{0,2048}display\s*:\s*none`, "hidden_div", "all", [["display"]]],
  [String.raw`translate\s+[^\n]{0,512}\s+into\s+[^\n]{0,512}\s+and\s+(execute|run|eval)`, "translate_execute", "all", [["translate"]]],
  [String.raw`do\s+not\s+${F}tell\s+${F}the\s+user`, "deception_hide", "all", [["tell"], ["not"]]],
  [String.raw`you\s+are\s+${F}now\s+(?:a|an|the)\s+`, "role_hijack", "context", [["now"], ["you"]]],
  [String.raw`pretend\s+${F}(you\s+are|to\s+be)\s+`, "role_pretend", "context", [["pretend"]]],
  [String.raw`output\s+${F}(system|initial)\s+prompt`, "leak_system_prompt", "context", [["prompt"], ["output"]]],
  [String.raw`(respond|answer|reply)\s+without\s+${F}(restrictions|limitations|filters|safety)`, "remove_filters", "context", [["without"]]],
  [String.raw`you\s+have\s+been\s+${F}(updated|upgraded|patched)\s+to`, "fake_update", "context", [["been"]]],
  [String.raw`\bname\s+yourself\s+\w+`, "identity_override", "context", [["yourself"]]],
  [String.raw`register\s+(as\s+)?a?\s*node`, "c2_node_registration", "context", [["register"]]],
  [String.raw`(heartbeat|beacon|check[\s\-]?in)\s+(to|with)\s+`, "c2_heartbeat", "context", [["heartbeat", "beacon", "check"]]],
  [String.raw`pull\s+(down\s+)?(?:new\s+)?task(?:ing|s)?\b`, "c2_task_pull", "context", [["pull"]]],
  [String.raw`connect\s+to\s+the\s+network\b`, "c2_network_connect", "context", [["network"]]],
  [String.raw`you\s+must\s+(?:\w+\s+){0,3}(register|connect|report|beacon)\b`, "forced_action", "context", [["must"]]],
  [String.raw`only\s+use\s+one[\s\-]?liners?\b`, "anti_forensic_oneliner", "context", [["liner"]]],
  [String.raw`never\s+${F}(?:create|write)\s+${F}(?:script|file)\s+${F}disk`, "anti_forensic_disk", "context", [["disk"]]],
  [String.raw`unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*`, "env_var_unset_agent", "context", [["unset"]]],
  [String.raw`\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b`, "known_c2_framework", "context", [["cobalt", "sliver", "havoc", "mythic", "metasploit", "brainworm"]]],
  [String.raw`\bc2\s+(?:server|channel|infrastructure|beacon)\b`, "c2_explicit", "context", [["c2"]]],
  [String.raw`\bcommand\s+and\s+control\b`, "c2_explicit_long", "context", [["control"]]],
  [String.raw`curl\s+[^\n]{0,2048}\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)`, "exfil_curl", "all", [["curl"], ["$"]]],
  [String.raw`wget\s+[^\n]{0,2048}\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)`, "exfil_wget", "all", [["wget"], ["$"]]],
  [String.raw`cat\s+[^\n]{0,2048}(\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)`, "read_secrets", "all", [["cat"]]],
  [String.raw`(send|post|upload|transmit)\s+[^\n]{0,2048}\s+(to|at)\s+https?://`, "send_to_url", "strict", [["http"]]],
  [String.raw`(include|output|print|share)\s+${F}(conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)`, "context_exfil", "strict", [["conversation", "history", "messages", "context"]]],
  [String.raw`authorized_keys`, "ssh_backdoor", "strict", [["authorized_keys"]]],
  [String.raw`\$HOME/\.ssh|~/\.ssh`, "ssh_access", "strict", [[".ssh"]]],
  [String.raw`\$HOME/\.hermes/\.env|~/\.hermes/\.env`, "hermes_env", "strict", [[".hermes/.env"]]],
  [String.raw`(update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048}(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules)`, "agent_config_mod", "strict", [["agents.md", "claude.md", ".cursorrules", ".clinerules"]]],
  [String.raw`(update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048}\.hermes/(config\.yaml|SOUL\.md)`, "hermes_config_mod", "strict", [[".hermes/"]]],
  [String.raw`(?:api[_-]?key|token|secret|password)\s*[=:]\s*["'][A-Za-z0-9+/=_-]{20,}`, "hardcoded_secret", "strict", [["key", "token", "secret", "password"]]],
];

// Compiled on first use: Unicode-class regexes cost ~0.1 ms each to build, and the prefilter means most are
// never needed in a session.
class LazyPattern implements ThreatPattern {
  private compiled: RegExp | undefined;
  constructor(
    private readonly source: string,
    readonly id: string,
    readonly scope: ThreatScope,
    readonly requires: ReadonlyArray<readonly string[]>,
  ) {}
  get regex(): RegExp {
    return (this.compiled ??= compilePythonPattern(this.source));
  }
}

export const THREAT_PATTERNS: readonly ThreatPattern[] = SOURCES.map(([source, id, scope, requires]) => new LazyPattern(source, id, scope, requires));

const SCOPE_RANK: Readonly<Record<ThreatScope, number>> = { all: 0, context: 1, strict: 2 };

/** The patterns that apply in `scope`, in list order. */
export function patternsFor(scope: ThreatScope): readonly ThreatPattern[] {
  const rank = SCOPE_RANK[scope];
  if (rank === undefined) throw new Error(`scan_for_threats: unknown scope '${scope}'`);
  return THREAT_PATTERNS.filter((p) => SCOPE_RANK[p.scope] <= rank);
}

/** Upstream's INVISIBLE_CHARS: zero-width characters and bidirectional controls. */
export const INVISIBLE_CHARS: readonly string[] = [
  "\u200b", "\u200c", "\u200d", "\u2060", "\u2062", "\u2063", "\u2064", "\ufeff",
  "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
];
