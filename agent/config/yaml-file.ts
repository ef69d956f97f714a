import { readFileSync, statSync } from "node:fs";
import { type Document, isMap, LineCounter, parseDocument } from "yaml";
import { ConfigError } from "./config-error.js";

export type YamlMap = Readonly<Record<string, unknown>>;

/** A parsed YAML mapping that still knows where each value came from, so later checks can name the line. */
export interface YamlFile {
  readonly file: string;
  readonly data: YamlMap;
  /** 1-based line and column of the value at `path`, when the file has it. */
  positionOf(path: readonly string[]): { line: number; column: number } | undefined;
}

/**
 * The last parse of each file, by its stat: config.yaml is read by every session/new and several settings readers,
 * and parsing it costs milliseconds while a stat costs microseconds. Any change to the file (an edit, a rename over
 * it) changes its mtime, ctime, size or inode, and it is parsed again.
 */
const parsed = new Map<string, { readonly stamp: string; readonly yaml: YamlFile }>();

/** Reads a YAML file whose root must be a mapping. A missing file is an empty mapping; a broken one throws ConfigError. */
export function readYamlFile(file: string): YamlFile {
  let text: string;
  let stamp: string;
  try {
    const stat = statSync(file);
    stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    const cached = parsed.get(file);
    if (cached?.stamp === stamp) return cached.yaml;
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyYamlFile(file);
    throw new ConfigError({ file, message: `cannot read: ${(error as Error).message}` });
  }
  const yaml = parseYamlText(file, text);
  parsed.set(file, { stamp, yaml });
  return yaml;
}

export function parseYamlText(file: string, text: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const firstError = doc.errors[0];
  if (firstError) {
    const pos = lineCounter.linePos(firstError.pos[0]);
    throw new ConfigError({ file, line: pos.line, column: pos.col, message: firstLine(firstError.message) });
  }
  const root = doc.contents;
  if (root === null || root === undefined) return emptyYamlFile(file);
  if (!isMap(root)) {
    const pos = root.range ? lineCounter.linePos(root.range[0]) : undefined;
    throw new ConfigError({
      file,
      line: pos?.line,
      column: pos?.col,
      message: "the top level must be a mapping of keys to values",
    });
  }
  const data = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as YamlMap;
  return { file, data, positionOf: (path) => positionIn(doc, lineCounter, path) };
}

function positionIn(doc: Document, lineCounter: LineCounter, path: readonly string[]) {
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  if (!node || typeof node !== "object" || !node.range) return undefined;
  const pos = lineCounter.linePos(node.range[0]);
  return { line: pos.line, column: pos.col };
}

function emptyYamlFile(file: string): YamlFile {
  return { file, data: {}, positionOf: () => undefined };
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.trim();
}

/** A ConfigError pointing at the value at `path` in `yaml`. */
export function configErrorAt(yaml: YamlFile, path: readonly string[], message: string): ConfigError {
  const pos = yaml.positionOf(path);
  return new ConfigError({ file: yaml.file, line: pos?.line, column: pos?.column, message });
}
