import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isMap, parseDocument, type YAMLMap } from "yaml";
import { parseYamlText } from "./yaml-file.js";

/** What `--setup` chose: the `model:` keys the loader reads (model-settings.ts, endpoint-fields.ts). */
export interface ModelChoice {
  readonly provider: string;
  /** Written as `model.default`, the key upstream writes. */
  readonly model: string;
  /** Written as `model.base_url`; absent removes it, so the provider's own URL applies. */
  readonly baseUrl?: string;
  /** Removes `model.api_mode` (it belonged to the endpoint being replaced). */
  readonly dropApiMode: boolean;
  /** Removes `model.api_key`: it would win over the key in .env, or belongs to another provider. */
  readonly dropApiKey: boolean;
}

/**
 * Writes the choice into config.yaml's `model:` section, creating the file if missing and keeping everything else,
 * comments included (yaml's Document API edits the parsed file in place). Throws ConfigError, with the line, for a
 * broken file: nothing is written then. Written through a temporary file and a rename, so a crash never leaves half a
 * config. Returns the keys it removed, for the user to be told.
 */
export function writeModelChoice(configPath: string, choice: ModelChoice): string[] {
  const { text, mode } = readEditable(configPath);
  const doc = parseDocument(text);
  let section = doc.get("model", true);
  if (!isMap(section)) {
    // Absent, empty, or upstream's shorthand `model: name`: the whole section is written anew.
    doc.set("model", doc.createNode({}));
    section = doc.get("model", true);
  }
  const model = section as YAMLMap;
  model.set("provider", choice.provider);
  model.set("default", choice.model);
  const removed: string[] = [];
  const remove = (key: string): void => {
    if (model.has(key)) {
      model.delete(key);
      removed.push(`model.${key}`);
    }
  };
  // `model.model` is the loader's second spelling of `default`: a stale one would only confuse the next reader.
  remove("model");
  if (choice.baseUrl) model.set("base_url", choice.baseUrl);
  else remove("base_url");
  if (choice.dropApiMode) remove("api_mode");
  if (choice.dropApiKey) remove("api_key");
  mkdirSync(dirname(configPath), { recursive: true });
  const tmp = `${configPath}.tmp-${process.pid}`;
  writeFileSync(tmp, doc.toString());
  // The file may hold keys (model.api_key, MCP headers): a user's 0600 stays 0600.
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, configPath);
  return removed;
}

/** Throws ConfigError, with the line, when config.yaml exists and does not parse: it cannot be edited then. */
export function assertConfigEditable(configPath: string): void {
  readEditable(configPath);
}

function readEditable(configPath: string): { text: string; mode: number | undefined } {
  let text: string;
  try {
    text = readFileSync(configPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { text: "", mode: undefined };
    throw error;
  }
  parseYamlText(configPath, text);
  return { text, mode: statSync(configPath).mode & 0o777 };
}
