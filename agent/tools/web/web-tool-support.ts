import { loadWebSettings, type WebSettings } from "../../config/web-settings.js";
import { type ToolContext, type ToolResult, toolError } from "../tool.js";

/*
 * Read-only mode and the web tools: web_search and web_extract run in every mode, read-only included, without asking.
 * Both are reads: they send a query or GET a public URL (private and loopback addresses are refused, url-safety.ts),
 * and change nothing of the user's — the only write is web_extract's copy of a long page under HERMES_HOME/cache/web,
 * the agent's own cache. Read-only mode exists so a user can let the agent look without it changing anything; looking
 * up documentation is exactly that. A GET with side effects or a URL carrying data out is a risk in every mode, and
 * is met where it is in every mode (secrets in URLs are refused, fetched text is wrapped as untrusted), not by a mode.
 */

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
