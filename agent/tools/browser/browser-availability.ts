import { readBrowserSettings } from "../../config/browser-settings.js";
import type { Env } from "../../config/hermes-home.js";
import type { YamlFile } from "../../config/yaml-file.js";
import type { Tool } from "../tool.js";
import { findChromium } from "./chromium-executable.js";

/*
 * Upstream registers its browser tools with `check_fn=check_browser_requirements`: without a Chromium they are not
 * offered at all, rather than offered and failing on every call. Here the registry keeps them (stored histories,
 * titles and kinds still need their definitions) and the session's list drops them when no browser is found. The
 * check is a few stat calls (chromium-executable.ts), made when a session opens, and nothing is launched.
 */

const isBrowserTool = (tool: Tool) => tool.toolsets.includes("browser");

/** `tools` without the browser tools when no Chromium is found; `candidates` replaces the search (tests). */
export function withoutUnavailableBrowser<T extends Tool>(
  tools: readonly T[],
  config: { readonly yaml: YamlFile; readonly env: Env },
  candidates?: readonly string[],
): T[] {
  let configured: string | undefined;
  try {
    configured = readBrowserSettings(config.yaml, config.env).executablePath;
  } catch {
    // A mistake under `browser:` must not stop the session: the tools stay, and their first call says what is wrong.
    return [...tools];
  }
  if (findChromium(configured, process.env, candidates)) return [...tools];
  return tools.filter((tool) => !isBrowserTool(tool));
}
