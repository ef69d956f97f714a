import type { RuntimeProvider } from "../config/runtime-provider.js";
import { collectReply } from "./collect-reply.js";
import { diagnoseConnection } from "./connection-diagnosis.js";
import { createModelClient } from "./create-model-client.js";
import type { ModelRequest } from "./model-client.js";
import { describeProviderError, type ProviderError, toProviderError } from "./provider-error.js";
import { samplingContractOf } from "./sampling-contract.js";

export type ProbeResult =
  | { readonly ok: true; readonly reply: string }
  /** `verdict` says what failed and what to change, in words a user acts on; it never contains a key. */
  | { readonly ok: false; readonly verdict: string };

const PROBE_TIMEOUT_MS = 60_000;

/**
 * One small request to the configured model, as `--setup` ends: does this endpoint, key and model name answer? No
 * retries and no fallbacks, so the verdict is about exactly what was configured. The answer asked for is one word;
 * a model that thinks by default is asked to think as little as it can and given room for it, or its reply would be
 * cut off before any text (still a working setup, but a confusing one to show).
 */
export async function probeModel(runtime: RuntimeProvider, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const request: ModelRequest = {
    model: runtime.model,
    systemPrompt: "You are being tested for connectivity. Answer with exactly one word.",
    messages: [{ role: "user", content: "Reply with the word OK." }],
    tools: [],
    ...(samplingContractOf(runtime).reasonsByDefault
      ? { maxOutputTokens: 2_048, reasoningEffort: "minimal" as const }
      : { maxOutputTokens: 16 }),
  };
  try {
    const client = await createModelClient(runtime);
    const { text } = await collectReply(client, request, deadline);
    return { ok: true, reply: text.trim() };
  } catch (error) {
    const failure = toProviderError(error, deadline);
    if (deadline.aborted)
      return { ok: false, verdict: `${runtime.baseUrl} did not answer within ${timeoutMs / 1000} s.` };
    return { ok: false, verdict: await explain(failure, runtime) };
  }
}

/** The failure, led by what it most likely means for a setup (wrong key, wrong URL, wrong model name). */
async function explain(error: ProviderError, runtime: RuntimeProvider): Promise<string> {
  const said = error.message ? ` The provider said: ${error.message}` : "";
  switch (error.kind) {
    case "auth":
      return runtime.apiKey
        ? `The API key is wrong: ${runtime.providerLabel} refused it (HTTP ${error.status}). Check the key in ${runtime.keySource}.${said}`
        : `${runtime.providerLabel} wants an API key (HTTP ${error.status}) and none is set: set ${runtime.keyVariables.join(" or ")}.${said}`;
    case "not_found":
      return `The model or the URL is wrong: ${runtime.baseUrl} answered HTTP 404 for model '${runtime.model}'. Check the model name, and the base URL if you gave one.${said}`;
    case "network":
      return `${await diagnoseConnection(runtime.baseUrl)} (${error.message || "connection error"})`;
    default:
      if (error.status === 402) return `The key works, but the account cannot pay for requests (HTTP 402).${said}`;
      return describeProviderError(error, runtime);
  }
}
