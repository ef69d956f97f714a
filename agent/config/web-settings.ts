import type { Env } from "./hermes-home.js";
import { loadHermesConfig } from "./load-config.js";
import type { YamlFile } from "./yaml-file.js";
import { configErrorAt } from "./yaml-file.js";

/** Backends this port speaks. `local` is upstream's name for the plain HTTP fetch extractor (no key, no service). */
export type SearchBackendName = "searxng" | "tavily";
export type ExtractBackendName = "tavily" | "local";

/** Upstream backends we do not port: named so a user who configured one is told so, not left guessing. */
const UNSUPPORTED_BACKENDS: Readonly<Record<string, string>> = {
  firecrawl: "Firecrawl",
  exa: "Exa",
  parallel: "Parallel",
  "brave-free": "Brave Search",
  ddgs: "DuckDuckGo (ddgs)",
  xai: "xAI",
};
/** Keys of unported backends: when only these are set, the "not configured" message says why they are ignored. */
const UNSUPPORTED_KEYS: readonly (readonly [string, string])[] = [
  ["FIRECRAWL_API_KEY", "Firecrawl"],
  ["FIRECRAWL_API_URL", "Firecrawl"],
  ["EXA_API_KEY", "Exa"],
  ["PARALLEL_API_KEY", "Parallel"],
  ["BRAVE_SEARCH_API_KEY", "Brave Search"],
];

export type BackendChoice<Name extends string> =
  | { readonly ok: true; readonly name: Name }
  | { readonly ok: false; readonly problem: string };

/** What the web tools need, read afresh for every call so a key added to HERMES_HOME/.env needs no restart (upstream). */
export interface WebSettings {
  readonly search: BackendChoice<SearchBackendName>;
  readonly extract: BackendChoice<ExtractBackendName>;
  /** `web.extract_char_limit`: characters of one page the model sees (upstream default 15,000, clamped 2,000–500,000). */
  readonly extractCharLimit: number;
  /** `HERMES_ALLOW_PRIVATE_URLS` / `security.allow_private_urls`: fetch loopback and private addresses too. */
  readonly allowPrivateUrls: boolean;
  readonly searxngUrl: string | undefined;
  /** `SEARXNG_TIMEOUT` seconds (upstream: default 15, at least 5). */
  readonly searxngTimeoutMs: number;
  /** Secret: never logged, never put into a message. */
  readonly tavilyApiKey: string | undefined;
  /** `TAVILY_BASE_URL` (upstream's override of https://api.tavily.com, for proxies and tests). */
  readonly tavilyBaseUrl: string;
  /** Deadline of one page fetch, redirects included. */
  readonly fetchTimeoutMs: number;
  /** Bytes of one page read off the wire before the rest is dropped (upstream's local extractor keeps 2,000,000). */
  readonly maxFetchBytes: number;
  /** HERMES_HOME, where the full text of a truncated page is kept (cache/web) for read_file. */
  readonly home: string;
}

export const DEFAULT_EXTRACT_CHAR_LIMIT = 15_000;
const TAVILY_DEFAULT_URL = "https://api.tavily.com";

/** Reads config.yaml and the environment (process over HERMES_HOME/.env) of `home`. Throws ConfigError on a broken file. */
export function loadWebSettings(home: string, processEnv: Env): WebSettings {
  const config = loadHermesConfig({ ...processEnv, HERMES_HOME: home });
  return readWebSettings(config.yaml, config.env, config.home);
}

export function readWebSettings(yaml: YamlFile, env: Env, home: string): WebSettings {
  const web = mapping(yaml, "web");
  const value = (name: string) => env[name]?.trim() || undefined;
  const searxngUrl = value("SEARXNG_URL")?.replace(/\/+$/, "");
  const tavilyApiKey = value("TAVILY_API_KEY");
  const available = (name: string) =>
    name === "searxng" ? searxngUrl !== undefined : name === "tavily" ? tavilyApiKey !== undefined : name === "local";
  const shared = backendName(yaml, web, "backend");
  return {
    search: chooseSearch(backendName(yaml, web, "search_backend"), shared, available, env),
    extract: chooseExtract(backendName(yaml, web, "extract_backend"), shared, available),
    extractCharLimit: charLimit(yaml, web.extract_char_limit),
    allowPrivateUrls: allowPrivateUrls(yaml, env),
    searxngUrl,
    searxngTimeoutMs: seconds(value("SEARXNG_TIMEOUT"), 15, 5) * 1000,
    tavilyApiKey,
    tavilyBaseUrl: (value("TAVILY_BASE_URL") ?? TAVILY_DEFAULT_URL).replace(/\/+$/, ""),
    fetchTimeoutMs: 30_000,
    maxFetchBytes: 2_000_000,
    home,
  };
}

/**
 * Upstream's order: `web.search_backend`, then `web.backend`, then whichever key is set (Tavily before SearXNG, as
 * upstream ranks paid backends first). A named backend that cannot work is reported, not silently replaced.
 */
function chooseSearch(
  specific: string | undefined,
  shared: string | undefined,
  available: (name: string) => boolean,
  env: Env,
): BackendChoice<SearchBackendName> {
  const named = specific ?? shared;
  const key = specific ? "web.search_backend" : "web.backend";
  if (named) {
    if (named === "local")
      return {
        ok: false,
        problem: `${key} is set to 'local', the plain page fetcher, which cannot search. Use searxng (SEARXNG_URL) or tavily (TAVILY_API_KEY) for web_search.`,
      };
    const problem = namedProblem(key, named, available);
    return problem ? { ok: false, problem } : { ok: true, name: named as SearchBackendName };
  }
  if (available("tavily")) return { ok: true, name: "tavily" };
  if (available("searxng")) return { ok: true, name: "searxng" };
  const ignored = [
    ...new Set(
      UNSUPPORTED_KEYS.filter(([k]) => env[k]?.trim()).map(
        ([k, label]) => `${k} is set, but ${label} is not supported here.`,
      ),
    ),
  ];
  return {
    ok: false,
    problem:
      "No web search backend configured. Set SEARXNG_URL (a free, self-hosted SearXNG instance) or TAVILY_API_KEY " +
      "in the environment or HERMES_HOME/.env, or choose one with web.backend in config.yaml. " +
      `Firecrawl, Exa and Parallel are not supported by Hermes for editors.${ignored.length ? ` ${ignored.join(" ")}` : ""}`,
  };
}

/**
 * `web.extract_backend`, then `web.backend` when it can extract, then Tavily when its key is set, else the plain HTTP
 * fetch. Upstream refuses to extract when web.backend is a search-only SearXNG; we fall back to the plain fetch
 * instead, since that is what a SearXNG user (free, self-hosted) would pick anyway.
 */
function chooseExtract(
  specific: string | undefined,
  shared: string | undefined,
  available: (name: string) => boolean,
): BackendChoice<ExtractBackendName> {
  if (specific) {
    if (specific === "searxng")
      return {
        ok: false,
        problem:
          "SearXNG is a search-only backend and cannot extract URL content. Set web.extract_backend to tavily or local.",
      };
    const problem = namedProblem("web.extract_backend", specific, available);
    return problem ? { ok: false, problem } : { ok: true, name: specific as ExtractBackendName };
  }
  if (shared && shared !== "searxng") {
    const problem = namedProblem("web.backend", shared, available);
    return problem ? { ok: false, problem } : { ok: true, name: shared as ExtractBackendName };
  }
  return available("tavily") ? { ok: true, name: "tavily" } : { ok: true, name: "local" };
}

function namedProblem(key: string, name: string, available: (name: string) => boolean): string | undefined {
  const unsupported = UNSUPPORTED_BACKENDS[name];
  if (unsupported) {
    return `${key} is set to '${name}', but ${unsupported} is not supported by Hermes for editors. Use searxng (SEARXNG_URL, free and self-hosted) or tavily (TAVILY_API_KEY); pages can always be read with the plain fetcher (local).`;
  }
  if (name !== "searxng" && name !== "tavily" && name !== "local")
    return `${key} is set to '${name}', which is not a web backend. Use searxng, tavily or local.`;
  if (!available(name))
    return `${key} is set to '${name}', but ${name === "searxng" ? "SEARXNG_URL" : "TAVILY_API_KEY"} is not set (environment or HERMES_HOME/.env).`;
  return undefined;
}

function backendName(yaml: YamlFile, web: Record<string, unknown>, key: string): string | undefined {
  const value = web[key];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw configErrorAt(yaml, ["web", key], `web.${key} must be a backend name`);
  return value.trim().toLowerCase() || undefined;
}

/** Upstream: a floor of 2,000 (below it the footer dominates) and a ceiling of 500,000; unreadable → the default. */
function charLimit(yaml: YamlFile, value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_EXTRACT_CHAR_LIMIT;
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(n))
    throw configErrorAt(yaml, ["web", "extract_char_limit"], "web.extract_char_limit must be a number of characters");
  return Math.max(2000, Math.min(Math.trunc(n), 500_000));
}

/** Upstream's priority: HERMES_ALLOW_PRIVATE_URLS (an explicit false wins too), then security., then legacy browser. */
function allowPrivateUrls(yaml: YamlFile, env: Env): boolean {
  const fromEnv = env.HERMES_ALLOW_PRIVATE_URLS?.trim().toLowerCase();
  if (fromEnv === "true" || fromEnv === "1" || fromEnv === "yes") return true;
  if (fromEnv === "false" || fromEnv === "0" || fromEnv === "no") return false;
  return ["security", "browser"].some((section) => truthy(mapping(yaml, section).allow_private_urls));
}

function truthy(value: unknown): boolean {
  return (
    value === true || (typeof value === "string" && ["true", "1", "yes", "on"].includes(value.trim().toLowerCase()))
  );
}

function seconds(raw: string | undefined, fallback: number, floor: number): number {
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) ? Math.max(floor, n) : fallback;
}

function mapping(yaml: YamlFile, key: string): Record<string, unknown> {
  const value = yaml.data[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw configErrorAt(yaml, [key], `\`${key}\` must be a mapping`);
  return value as Record<string, unknown>;
}
