import { strict as assert } from "node:assert";
import type { Env } from "../../agent/config/hermes-home.js";
import { readWebSettings, type WebSettings } from "../../agent/config/web-settings.js";
import { parseYamlText } from "../../agent/config/yaml-file.js";
import { runWebExtract } from "../../agent/tools/web/web-extract-tool.js";
import { FakeWeb } from "../fixtures/fake-web.js";
import { TempDirs } from "./temp-dirs.js";

/** What web_extract returns inside the untrusted-data wrapper. */
export interface Extracted {
  results: Array<{ url: string; title: string; content: string; error: string | null; truncated?: boolean }>;
}

/** The JSON inside the untrusted-data wrapper, and the header lines written outside the page text. */
export function unwrap(content: string): { header: string; json: unknown } {
  const match = /^<untrusted_tool_result source="[^"]+">\n([\s\S]*?)\n\n([[{][\s\S]*)\n<\/untrusted_tool_result>$/.exec(
    content,
  );
  assert.ok(match, `not wrapped as untrusted data:\n${content.slice(0, 300)}`);
  return { header: match[1]!, json: JSON.parse(match[2]!) };
}

/**
 * The fake web and a fresh HERMES_HOME for each web-tools test (`start` in beforeEach, `stop` in afterEach), with
 * settings read as the tools read them and web_extract run through the plain fetcher.
 */
export class WebToolHarness {
  readonly temp = new TempDirs();
  readonly never = new AbortController().signal;
  private current: { web: FakeWeb; home: string } | undefined;

  async start(): Promise<{ web: FakeWeb; home: string }> {
    const web = await FakeWeb.start();
    const home = this.temp.make("hermes-home-");
    this.current = { web, home };
    return this.current;
  }

  async stop(): Promise<void> {
    await this.current?.web.close();
    this.temp.cleanup();
  }

  private get home(): string {
    assert.ok(this.current, "WebToolHarness.start was not called");
    return this.current.home;
  }

  /** The web settings of a config.yaml and an environment, with HERMES_HOME the test's. */
  readonly settings = (yaml = "", env: Env = {}): WebSettings =>
    readWebSettings(parseYamlText("config.yaml", yaml), env, this.home);

  /** The plain fetcher with the escape hatch the tests need: the fake web lives on 127.0.0.1. */
  readonly fetcher = (overrides: Partial<WebSettings> = {}): WebSettings => ({
    ...this.settings("", { HERMES_ALLOW_PRIVATE_URLS: "true" }),
    ...overrides,
  });

  /** Runs web_extract on `urls`: its result, the wrapper's header and JSON, and the pages. */
  readonly extract = async (urls: string[], s = this.fetcher()) => {
    const result = await runWebExtract(urls, s, this.never);
    return { result, ...unwrap(result.content), pages: (unwrap(result.content).json as Extracted).results };
  };
}
