import { loadWebSettings, type WebSettings } from "../../config/web-settings.js";
import { toolError, type ToolContext, type ToolResult } from "../tool.js";

/** Failures keep upstream's JSON shape (`{"success": false, "error": …}`) so the model reads every answer the same way. */
export function webFailure(message: string): ToolResult {
  return toolError(JSON.stringify({ success: false, error: message }));
}

/** Settings read afresh for each call (a key added to HERMES_HOME/.env works without a restart); a broken config.yaml is said plainly. */
export function webSettingsFor(ctx: ToolContext): WebSettings | { error: ToolResult } {
  try {
    return loadWebSettings(ctx.home, process.env);
  } catch (error) {
    return { error: webFailure(`Cannot read the web settings: ${(error as Error).message}`) };
  }
}
