import type { EndpointFields } from "./endpoint-fields.js";
import type { Env } from "./hermes-home.js";
import { contextLengthOf } from "./model-metadata.js";
import { type RuntimeProvider, type RuntimeResolution, resolveRuntimeProvider } from "./runtime-provider.js";

/**
 * The model subagents talk to, as upstream's `_resolve_delegation_credentials` picks it: `delegation.base_url` is a
 * direct endpoint (its key from `delegation.api_key`, else the parent's); `delegation.provider` is resolved like
 * `model:` (its key from the environment); `delegation.model` alone swaps the model on the parent's endpoint; with
 * none of them the subagent runs on whatever the parent runs on now. `section` names the config.yaml section in
 * messages: the approval judge (`auxiliary.approval`) picks its model the same way.
 */
export function resolveChildRuntime(
  endpoint: EndpointFields,
  parent: RuntimeProvider,
  env: Env,
  configPath: string,
  section = "delegation",
): RuntimeResolution {
  if (!endpoint.provider && !endpoint.baseUrl) {
    if (!endpoint.model || endpoint.model === parent.model) return { ok: true, runtime: parent };
    return {
      ok: true,
      runtime: {
        ...parent,
        model: endpoint.model,
        contextLength: contextLengthOf(endpoint.model, endpoint.contextLength),
      },
    };
  }
  const direct = endpoint.baseUrl !== undefined;
  const resolution = resolveRuntimeProvider(
    {
      ...endpoint,
      provider: endpoint.provider ?? "custom",
      model: endpoint.model ?? parent.model,
      // A direct endpoint borrows the parent's key (upstream), for providers whose key lives in another variable.
      apiKey: endpoint.apiKey ?? (direct ? parent.apiKey : undefined),
    },
    env,
    configPath,
  );
  if (resolution.ok) return resolution;
  const named = endpoint.provider ?? endpoint.baseUrl;
  return {
    ok: false,
    problem:
      `Cannot resolve ${section} provider '${named}': ${resolution.problem} Check that the provider is configured ` +
      `(API key set, valid provider name), or set ${section}.base_url/${section}.api_key for a direct endpoint.`,
  };
}
