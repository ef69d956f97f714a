import {
  clampEffort,
  type ReasoningEffort,
  type ReasoningRoute,
  reasoningSupportOf,
} from "../config/model-reasoning.js";
import type { ModelClient, ModelRequest, ModelStreamEvent } from "./model-client.js";
import { ProviderError } from "./provider-error.js";

/**
 * The effort to put on the wire for this model, given the request's (see ModelRequest.reasoningEffort):
 * - nothing for a request that asks for nothing (auxiliary calls);
 * - a model known to take reasoning gets the chosen level clamped to the levels it accepts, or for "default" its
 *   default where upstream sends one; "none" only where the model has an off switch (else its default stands);
 * - a model known to reject reasoning parameters gets none, whatever was chosen;
 * - an unknown model gets exactly the level the user chose, and nothing for "default".
 */
export function effortToSend(
  route: ReasoningRoute,
  chosen: ReasoningEffort | "default" | undefined,
): ReasoningEffort | undefined {
  if (chosen === undefined) return undefined;
  const support = reasoningSupportOf(route);
  switch (support.status) {
    case "rejected":
      return undefined;
    case "unknown":
      return chosen === "default" ? undefined : chosen;
    case "supported":
      if (chosen === "default") return support.sendsDefault ? support.defaultEffort : undefined;
      if (chosen === "none") return support.efforts.includes("none") ? "none" : undefined;
      return clampEffort(chosen, support.efforts);
  }
}

/**
 * Puts the reasoning policy in front of one provider's client: each request's `reasoningEffort` becomes what this
 * model accepts. An endpoint that answers a request carrying reasoning parameters with a 400 about them (an unknown
 * model the user asked to think, an organisation not verified for OpenAI's reasoning summaries) is asked again
 * without them, so the turn goes on; that effort is not sent to it again (choosing another effort tries anew).
 */
export function withReasoningPolicy(client: ModelClient, route: ReasoningRoute): ModelClient {
  let refused: ReasoningEffort | undefined;
  return {
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      const { reasoningEffort: chosen, ...plain } = request;
      const effort = effortToSend(route, chosen);
      if (effort === undefined || effort === refused) {
        yield* client.stream(plain, signal);
        return;
      }
      let answered = false;
      try {
        for await (const event of client.stream({ ...plain, reasoningEffort: effort }, signal)) {
          answered = true;
          yield event;
        }
      } catch (error) {
        if (answered || !refusesReasoning(error)) throw error;
        refused = effort;
        yield* client.stream(plain, signal);
      }
    },
  };
}

/** A 400/422 whose message is about the reasoning parameters ("Unrecognized request argument: reasoning_effort"...). */
function refusesReasoning(error: unknown): boolean {
  return (
    error instanceof ProviderError && error.kind === "bad_request" && /reasoning|thinking|effort/i.test(error.message)
  );
}
