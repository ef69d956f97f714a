import { configMapping, readAuxiliaryTask } from "./auxiliary-settings.js";
import type { EndpointFields } from "./endpoint-fields.js";
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

export function readApprovalJudgeSettings(yaml: YamlFile): ApprovalJudgeSettings {
  const { endpoint, timeoutMs } = readAuxiliaryTask(yaml, "approval", DEFAULT_JUDGE_TIMEOUT_SECONDS);
  const approvals = configMapping(yaml, ["approvals"], yaml.data.approvals);
  const policy = approvals.smart_policy;
  if (policy !== undefined && policy !== null && typeof policy !== "string") {
    throw configErrorAt(yaml, ["approvals", "smart_policy"], "approvals.smart_policy must be text");
  }
  return { endpoint, timeoutMs, policy: typeof policy === "string" ? policy.trim() : "" };
}
