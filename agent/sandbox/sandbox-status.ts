import type { SandboxSettings } from "../config/tool-settings.js";
import { probeSandbox } from "./sandbox-probe.js";

export interface SandboxStatus {
  readonly contained: boolean;
  /** One line for `--check` and for the session's notice. */
  readonly summary: string;
}

/**
 * How the agent's commands will be contained on this machine with these settings, in words. When they will not
 * be, the user hears it (a notice per session, a line in `--check`): never unconfined in silence.
 */
export async function sandboxStatus(settings: SandboxSettings): Promise<SandboxStatus> {
  const network = settings.network === "deny" ? "network denied" : "network allowed";
  if (!settings.enabled) {
    return {
      contained: false,
      summary:
        "off (terminal.sandbox: off in config.yaml): commands run unconfined; the approval gate applies its stricter rules",
    };
  }
  const sandbox = await probeSandbox();
  if (!sandbox.available) {
    return {
      contained: false,
      summary: `none: ${sandbox.reason}. Commands run unconfined; the approval gate applies its stricter rules`,
    };
  }
  return {
    contained: true,
    summary: `${sandbox.kind} (${sandbox.program}), writes limited to the workspace, ${network}`,
  };
}
