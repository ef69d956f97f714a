import type * as acp from "@agentclientprotocol/sdk";
import type { ConfigPicker } from "../../webview-ui/protocol.js";

/** The session's select options (mode, model) as pickers; boolean options are not shown yet. */
export function pickersOf(options: readonly acp.SessionConfigOption[] | null | undefined): ConfigPicker[] {
  return (options ?? []).flatMap((o) => {
    if (o.type !== "select") return [];
    const flat = o.options.flatMap((entry) => ("group" in entry ? entry.options : [entry]));
    return [
      {
        id: o.id,
        name: o.name,
        currentValue: o.currentValue,
        choices: flat.map((c) => ({
          value: c.value,
          name: c.name,
          ...(c.description ? { description: c.description } : {}),
        })),
      },
    ];
  });
}
