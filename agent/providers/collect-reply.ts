import type { ModelClient, ModelRequest } from "./model-client.js";

/** A whole reply of a one-shot request: its text and its reasoning, as they streamed in. */
export interface CollectedReply {
  readonly text: string;
  readonly reasoning: string;
}

/**
 * Streams `request` to the end and gathers what it said, for the callers that want a reply, not its deltas (the
 * approval judge, the model probe, the summarizer, the vision models). Provider errors throw, as the stream does.
 */
export async function collectReply(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<CollectedReply> {
  let text = "";
  let reasoning = "";
  for await (const event of client.stream(request, signal)) {
    if (event.type === "text") text += event.text;
    else if (event.type === "reasoning") reasoning += event.text;
  }
  return { text, reasoning };
}
