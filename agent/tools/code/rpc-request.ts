import { timingSafeEqual } from "node:crypto";

/**
 * One line a script sent over the socket, judged before anything runs (upstream's request pipeline: token check,
 * then allow-list, then the call budget). Replies are upstream's `tool_error` shape, `{"error": "..."}`, worded as
 * upstream words them, so a script written for upstream reads them the same.
 */
export type RpcRequest =
  | { readonly ok: true; readonly tool: string; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: string };

/** Terminal parameters a script may not use (upstream's `_TERMINAL_BLOCKED_PARAMS`: nothing outlives the script). */
const TERMINAL_BLOCKED_PARAMS = [
  "background",
  "pty",
  "notify",
  "notify_on_complete",
  "watch_patterns",
  "heartbeat",
  "persist_on_release",
];

export interface RpcRules {
  readonly token: string;
  /** The tools this session lets scripts call. */
  readonly allowedTools: ReadonlySet<string>;
}

export function parseRpcRequest(line: string, rules: RpcRules): RpcRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `Invalid RPC request: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, error: "Invalid RPC request: expected a JSON object" };
  const request = value as Record<string, unknown>;
  if (!tokenMatches(request.token, rules.token)) return { ok: false, error: "Unauthorized RPC request" };
  const tool = typeof request.tool === "string" ? request.tool : "";
  if (!rules.allowedTools.has(tool)) {
    return {
      ok: false,
      error: `Tool '${tool}' is not available in execute_code. Available: ${[...rules.allowedTools].sort().join(", ")}`,
    };
  }
  const given = request.args ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given))
    return { ok: false, error: `Invalid RPC request: the arguments of ${tool} must be a JSON object` };
  const args = { ...(given as Record<string, unknown>) };
  if (tool === "terminal") for (const param of TERMINAL_BLOCKED_PARAMS) delete args[param];
  return { ok: true, tool, args };
}

/** Constant-time; an empty expected token fails closed (a server without one must not accept anyone). */
function tokenMatches(given: unknown, expected: string): boolean {
  if (!expected || typeof given !== "string") return false;
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function rpcError(message: string): string {
  return JSON.stringify({ error: message });
}

/** Upstream's refusal once a script has used its budget. */
export function callLimitError(max: number): string {
  return rpcError(`Tool call limit reached (${max}). No more tool calls allowed in this execution.`);
}
