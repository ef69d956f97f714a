import { type Reading, scanWhole } from "./threat-scanner.js";

/**
 * Tool output that carries someone else's text: a file's lines (read_file, search_files), a command's output
 * (terminal, process), an MCP server's result. Such text is read by the model, so an injection hidden in a README,
 * a test fixture or a build log reaches it as surely as one in a fetched page. It is scanned here with the context
 * scanner (scope `context`, every character, look-alikes folded: what context files get), and each finding is
 * placed where the user and the model can find it: the file's own line for read_file and search_files, the line of
 * the command's output, the line of the MCP result.
 */
export type UntrustedOutputKind = "file" | "command" | "mcp" | "image";

export interface OutputFinding {
  readonly id: string;
  /** Where in the output: "line 12", "notes.md line 3", "output line 7". */
  readonly where: string;
  /** The matched words with a little context, made printable. */
  readonly snippet?: string;
}

/** The text the scanner reads, and for each of its lines (1-based, index + 1) where it came from. */
interface ScanView {
  readonly text: string;
  readonly labels: readonly string[];
}

/**
 * What is routine in code and data but suspicious in a context file, measured on the installed packages' sources
 * and READMEs (bench/tool-output-scan.ts: 31 of 4,268 files flagged with these, 2 without): escaped zero-width
 * characters in regular expressions and Unicode tables, `<!-- prettier-ignore -->` in READMEs, and the zero-width,
 * joiner, soft-hyphen and direction-mark characters that Persian, Arabic, Hebrew, emoji and generated tables use.
 * What an injection says is still read by the text patterns; what stays flagged of the invisible characters is what
 * hides or reorders text with no ordinary use in a file or log: bidi embeddings, overrides and isolates (Trojan
 * Source), Unicode tag characters (ASCII smuggling) and runs of variation selectors (data hidden behind a glyph).
 */
const ROUTINE_IN_CODE: ReadonlySet<string> = new Set(["escaped_invisible_unicode", "html_comment_injection"]);
const HIDING_CHARACTER = /^invisible_unicode_U\+(?:202[A-E]|206[6-9]|E0[0-9A-F]{3}|FE0[0-9A-E])$/;

function meaningful(id: string): boolean {
  return id.startsWith("invisible_unicode_") ? HIDING_CHARACTER.test(id) : !ROUTINE_IN_CODE.has(id);
}

/**
 * How each kind is read (threat-scanner.ts `Reading`). A file or a command's output is the user's own project, read
 * as output; an MCP server's result and an image's text come from whoever wrote the issue, the page, the record or
 * the screenshot the server or the model was shown (a GitHub MCP tool returns an issue's body; a fetch server, a
 * page), so they are read as fetched pages are, with the rules that look for text aimed at the AI that reads it.
 */
const READING: Readonly<Record<UntrustedOutputKind, Reading>> = {
  file: "output",
  command: "output",
  mcp: "page",
  image: "page",
};

export function scanToolOutput(content: string, kind: UntrustedOutputKind): OutputFinding[] {
  if (!content) return [];
  const view =
    kind === "command" ? commandView(content) : kind === "file" ? fileView(content) : plainView(content, "line");
  return scanWhole(view.text, "context", READING[kind])
    .filter((f) => meaningful(f.id))
    .map((f) => ({
      id: f.id,
      where: view.labels[f.line - 1] ?? `line ${f.line}`,
      ...(f.snippet !== undefined ? { snippet: f.snippet } : {}),
    }));
}

function plainView(text: string, prefix: string, firstLine = 1): ScanView {
  const count = countLines(text);
  return { text, labels: Array.from({ length: count }, (_, i) => `${prefix} ${firstLine + i}`) };
}

// read_file's `N|text` and search_files' `path:N:text` (a match) or `path-N-text` (context around it). The prefix is
// taken off before scanning, so a pattern anchored at a line's start still sees the line as the file has it.
const READ_FILE_LINE = /^(\d+)\|/;
const SEARCH_LINE = /^(.+?)([:-])(\d+)\2/;

function fileView(content: string): ScanView {
  const lines = content.split("\n");
  const labels: string[] = [];
  const texts: string[] = [];
  lines.forEach((line, i) => {
    const read = READ_FILE_LINE.exec(line);
    const search = read ? null : SEARCH_LINE.exec(line);
    if (read) {
      labels.push(`line ${read[1]}`);
      texts.push(line.slice(read[0].length));
    } else if (search) {
      labels.push(`${search[1]} line ${search[3]}`);
      texts.push(line.slice(search[0].length));
    } else {
      labels.push(`output line ${i + 1}`);
      texts.push(line);
    }
  });
  return { text: texts.join("\n"), labels };
}

/**
 * terminal and process answer one line of JSON (`{"output": "...", "exit_code": 0}`), sometimes followed by a note.
 * Scanning the JSON text itself would read every `\n` of the output as two characters on one line: the strings are
 * scanned decoded instead, each line labelled with its field ("output line 7").
 */
function commandView(content: string): ScanView {
  const newline = content.indexOf("\n");
  const head = newline < 0 ? content : content.slice(0, newline);
  const parsed = head.startsWith("{") ? parseJson(head) : undefined;
  if (parsed === undefined) return plainView(content, "line");
  const texts: string[] = [];
  const labels: string[] = [];
  const add = (text: string, prefix: string, firstLine = 1) => {
    const view = plainView(text, prefix, firstLine);
    texts.push(view.text);
    labels.push(...view.labels);
  };
  for (const [field, value] of stringFields(parsed, "")) add(value, `${field} line`);
  if (newline >= 0) add(content.slice(newline + 1), "line", 2);
  return { text: texts.join("\n"), labels };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Every string in a JSON value with its path (`output`, `processes[0].command`), in document order. */
function stringFields(value: unknown, path: string): Array<[string, string]> {
  if (typeof value === "string") return value ? [[path || "value", value]] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringFields(item, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => stringFields(item, path ? `${path}.${key}` : key));
}

function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
