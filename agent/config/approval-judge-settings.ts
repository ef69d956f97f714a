import { type EndpointFields, readEndpointFields } from "./endpoint-fields.js";
import { configErrorAt, type YamlFile } from "./yaml-file.js";

/** What `approvals.mode: smart` asks, and whom: config.yaml `auxiliary.approval` and `approvals.smart_policy`. */
export interface ApprovalJudgeSettings {
  /** `auxiliary.approval` provider, model, base_url, api_key, api_mode; empty means the session's current model. */
  readonly endpoint: EndpointFields;
  /** `auxiliary.approval.timeout` in seconds (default 10): a judge that takes longer is treated as ESCALATE. */
  readonly timeoutMs: number;
  /** `approvals.smart_policy`: the operator's own rules, appended to the judge's system prompt (trusted channel). */
  readonly policy: string;
}

export const DEFAULT_JUDGE_TIMEOUT_SECONDS = 10;

/**
 * Upstream writes `provider: auto` (older configs) or `provider: main` for "use the conversation's route"; both
 * mean the same as leaving the provider out, so a config carried over from Python Hermes keeps working.
 */
const MAIN_ROUTE_PROVIDERS = new Set(["auto", "main", ""]);

export function readApprovalJudgeSettings(yaml: YamlFile): ApprovalJudgeSettings {
  const auxiliary = mapping(yaml, ["auxiliary"], yaml.data.auxiliary);
  const section = mapping(yaml, ["auxiliary", "approval"], auxiliary.approval);
  const provider = section.provider;
  const fields =
    typeof provider === "string" && MAIN_ROUTE_PROVIDERS.has(provider.trim().toLowerCase())
      ? { ...section, provider: undefined }
      : section;
  const approvals = mapping(yaml, ["approvals"], yaml.data.approvals);
  const policy = approvals.smart_policy;
  if (policy !== undefined && policy !== null && typeof policy !== "string") {
    throw configErrorAt(yaml, ["approvals", "smart_policy"], "approvals.smart_policy must be text");
  }
  return {
    endpoint: readEndpointFields(yaml, ["auxiliary", "approval"], "auxiliary.approval", fields),
    timeoutMs: timeoutSeconds(yaml, section.timeout) * 1000,
    policy: typeof policy === "string" ? policy.trim() : "",
  };
}

function timeoutSeconds(yaml: YamlFile, value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_JUDGE_TIMEOUT_SECONDS;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw configErrorAt(
      yaml,
      ["auxiliary", "approval", "timeout"],
      "auxiliary.approval.timeout must be a positive number of seconds",
    );
  }
  return value;
}

function mapping(yaml: YamlFile, path: readonly string[], value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw configErrorAt(yaml, path, `\`${path.join(".")}\` must be a mapping`);
  return value as Record<string, unknown>;
}
