import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

/*
 * Finding a Chromium without launching one: a handful of stat calls, cheap enough for every session/new (the browser
 * tools are offered only when this finds one, as upstream hides them when `_chromium_installed()` is false). Nothing
 * is downloaded: the system's browser, one the user names, or a Playwright cache already on disk.
 */

/** Names a Chromium-family browser goes by on PATH (upstream's list plus Debian's and Chrome's stable channel). */
const PATH_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

/** Where installers put it when PATH does not say (a service's PATH is often minimal). */
function wellKnownPaths(env: NodeJS.ProcessEnv): string[] {
  if (process.platform === "darwin")
    return [
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
      join(homedir(), "Applications/Google Chrome.app/Contents/MacOS/Google Chrome"),
      join(homedir(), "Applications/Chromium.app/Contents/MacOS/Chromium"),
    ];
  if (process.platform === "win32")
    return [env.PROGRAMFILES, env["PROGRAMFILES(X86)"], env.LOCALAPPDATA]
      .filter((dir): dir is string => Boolean(dir))
      .map((dir) => join(dir, "Google", "Chrome", "Application", "chrome.exe"));
  return [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/snap/bin/chromium",
    "/usr/local/bin/chromium",
    "/opt/google/chrome/chrome",
  ];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  const suffix = process.platform === "win32" ? ".exe" : "";
  return dirs.flatMap((dir) => PATH_NAMES.map((name) => join(dir, `${name}${suffix}`)));
}

/** Playwright's own downloads, when some other project put them there (`chromium-<build>/chrome-linux*\/chrome`). */
function playwrightCache(env: NodeJS.ProcessEnv): string[] {
  const roots = [
    env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== "0" ? env.PLAYWRIGHT_BROWSERS_PATH : undefined,
    join(homedir(), ".cache", "ms-playwright"),
    join(homedir(), "Library", "Caches", "ms-playwright"),
  ].filter((root): root is string => Boolean(root));
  const found: string[] = [];
  for (const root of roots) {
    let entries: string[];
    try {
      entries = readdirSync(root).filter((entry) => entry.startsWith("chromium-"));
    } catch {
      continue;
    }
    for (const entry of entries.sort().reverse())
      found.push(
        join(root, entry, "chrome-linux64", "chrome"),
        join(root, entry, "chrome-linux", "chrome"),
        join(root, entry, "chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium"),
      );
  }
  return found;
}

/**
 * The browser to launch: the configured one when it exists, else the first found on PATH, in the usual places, or in
 * Playwright's cache. A configured path that does not exist falls back to the search, as upstream's
 * AGENT_BROWSER_EXECUTABLE_PATH does; `candidates` replaces the search (tests).
 */
export function findChromium(
  configured: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  candidates?: readonly string[],
): string | undefined {
  if (configured && isFile(configured)) return configured;
  if (candidates) return candidates.find(isFile);
  const key = `${env.PATH ?? ""}\0${env.PLAYWRIGHT_BROWSERS_PATH ?? ""}`;
  const known = searched.get(key);
  // A browser found once is checked with one stat; none found is searched for again after a minute (one installed
  // meanwhile is seen by the next session).
  if (known && (known.found ? isFile(known.found) : Date.now() - known.at < MISS_TTL_MS)) return known.found;
  const found = [...onPath(env), ...wellKnownPaths(env), ...playwrightCache(env)].find(isFile);
  searched.set(key, { found, at: Date.now() });
  return found;
}

/**
 * The search's last answer per PATH: it stats dozens of places (~10 ms on the 2-core machine, a third of a
 * session/new), and every session/new and system prompt asks.
 */
const searched = new Map<string, { readonly found: string | undefined; readonly at: number }>();
const MISS_TTL_MS = 60_000;
