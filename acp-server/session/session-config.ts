import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { SESSION_MODES } from "../../agent/index.js";
import type { AcpSession } from "./acp-session.js";
import { thinkingOption } from "./thinking-option.js";

/** A model choice's value: provider and model, as upstream's `provider:model` ids. */
export function modelValue(providerId: string, model: string): string {
  return `${providerId}:${model}`;
}

/**
 * The session's settings as ACP config options (the current protocol) — the mode, the model and, for a model that
 * can reason, its Thinking level — and the mode again as legacy `modes` for older clients, kept in step.
 */
export function configOptionsOf(session: AcpSession): SessionConfigOption[] {
  const options: SessionConfigOption[] = [
    {
      id: "mode",
      name: "Mode",
      description: "How much the agent may do without asking",
      category: "mode",
      type: "select",
      currentValue: session.mode,
      options: SESSION_MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })),
    },
  ];
  const ready = session.ready;
  if (ready.ok) {
    const current = ready.conversation.runtime;
    options.push({
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: modelValue(current.providerId, current.model),
      options: ready.modelChoices.map((r) => ({
        value: modelValue(r.providerId, r.model),
        name: r.model,
        description: r.providerLabel,
      })),
    });
    const thinking = thinkingOption(ready.conversation);
    if (thinking) options.push(thinking);
  }
  return options;
}

export function modesOf(session: AcpSession): SessionModeState {
  return {
    currentModeId: session.mode,
    availableModes: SESSION_MODES.map((m) => ({ id: m.id, name: m.name, description: m.description })),
  };
}
