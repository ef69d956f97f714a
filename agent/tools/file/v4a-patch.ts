import type { FileEdit } from "../tool.js";
import { closestCandidate } from "./fuzzy-replace.js";

/**
 * The V4A patch format of OpenAI's apply_patch (also Hermes' patch mode): `*** Begin Patch`, then per file
 * `*** Add File: p` (`+` lines), `*** Delete File: p`, `*** Update File: p` (optional `*** Move to: q`) with `@@`
 * hunks of ` ` context, `-` removed and `+` added lines, `*** End of File`, and `*** End Patch`. Hermes' own
 * `*** Move File: a -> b` is understood too.
 */
export interface HunkLine {
  readonly op: " " | "-" | "+";
  readonly text: string;
}

export interface V4aHunk {
  /** Text after `@@` (a line such as a function signature that precedes the change). */
  readonly hints: readonly string[];
  readonly lines: readonly HunkLine[];
  /** The hunk ends at the end of the file (`*** End of File`). */
  readonly endOfFile: boolean;
  /** 1-based line of the hunk in the patch, for error messages. */
  readonly patchLine: number;
}

export type V4aOperation =
  | { readonly kind: "add"; readonly path: string; readonly content: string }
  | { readonly kind: "delete"; readonly path: string }
  | { readonly kind: "update"; readonly path: string; readonly moveTo?: string; readonly hunks: readonly V4aHunk[] };

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const BEGIN = /^\*\*\*\s*Begin\s+Patch\s*$/;
const END = /^\*\*\*\s*End\s+Patch\s*$/;
const END_OF_FILE = /^\*\*\*\s*End\s+of\s+File\s*$/;
const OPERATION = /^\*\*\*\s*(Add|Delete|Update)\s+File:\s*(.+?)\s*$/;
const MOVE_FILE = /^\*\*\*\s*Move\s+File:\s*(.+?)\s*->\s*(.+?)\s*$/;
const MOVE_TO = /^\*\*\*\s*Move\s+to:\s*(.+?)\s*$/;

interface Draft {
  kind: "add" | "delete" | "update";
  path: string;
  moveTo?: string;
  added: string[];
  hunks: V4aHunk[];
  hunk?: { hints: string[]; lines: HunkLine[]; endOfFile: boolean; patchLine: number };
}

export function parseV4aPatch(patch: string): Parsed<V4aOperation[]> {
  const lines = patch.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const begin = lines.findIndex((l) => BEGIN.test(l));
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  for (let i = begin + 1; i < lines.length; i++) {
    const line = lines[i];
    const at = `patch line ${i + 1}`;
    if (END.test(line)) break;
    const op = OPERATION.exec(line);
    const move = MOVE_FILE.exec(line);
    if (op || move) {
      if (current) drafts.push(current);
      current = move
        ? { kind: "update", path: move[1], moveTo: move[2], added: [], hunks: [] }
        : { kind: op![1].toLowerCase() as Draft["kind"], path: op![2], added: [], hunks: [] };
      continue;
    }
    if (!current) {
      if (line.trim() === "") continue;
      return { ok: false, error: `Unexpected text at ${at} before any '*** Update/Add/Delete File:' line: ${line}` };
    }
    if (current.kind === "delete") {
      if (line.trim() === "") continue;
      return { ok: false, error: `Unexpected text at ${at} after '*** Delete File: ${current.path}': ${line}` };
    }
    if (current.kind === "add") {
      if (line.startsWith("+")) current.added.push(line.slice(1));
      else if (line === "") current.added.push("");
      else if (!END_OF_FILE.test(line))
        return {
          ok: false,
          error: `Every line of '*** Add File: ${current.path}' must start with '+' (${at}: ${line})`,
        };
      continue;
    }
    const moveTo = MOVE_TO.exec(line);
    if (moveTo) current.moveTo = moveTo[1];
    else if (END_OF_FILE.test(line)) {
      if (current.hunk) current.hunk.endOfFile = true;
      flushHunk(current);
    } else if (line.startsWith("@@")) {
      // Consecutive @@ lines narrow the position step by step (class, then method), as in apply_patch.
      if (current.hunk?.lines.length) flushHunk(current);
      current.hunk ??= { hints: [], lines: [], endOfFile: false, patchLine: i + 1 };
      const hint = line
        .replace(/^@@/, "")
        .replace(/@@\s*$/, "")
        .trim();
      if (hint) current.hunk.hints.push(hint);
    } else if (line.startsWith("\\")) {
    } else {
      current.hunk ??= { hints: [], lines: [], endOfFile: false, patchLine: i + 1 };
      const first = line[0];
      // A blank line is a context line whose leading space was trimmed away; any other line is taken as context.
      if (first === "+" || first === "-" || first === " ") current.hunk.lines.push({ op: first, text: line.slice(1) });
      else current.hunk.lines.push({ op: " ", text: line });
    }
  }
  if (current) drafts.push(current);
  return finishDrafts(drafts);
}

function flushHunk(draft: Draft): void {
  if (draft.hunk && draft.hunk.lines.length > 0) draft.hunks.push(draft.hunk);
  draft.hunk = undefined;
}

function finishDrafts(drafts: Draft[]): Parsed<V4aOperation[]> {
  const operations: V4aOperation[] = [];
  for (const draft of drafts) {
    flushHunk(draft);
    if (draft.kind === "add")
      operations.push({
        kind: "add",
        path: draft.path,
        content: draft.added.length ? `${draft.added.join("\n")}\n` : "",
      });
    else if (draft.kind === "delete") operations.push({ kind: "delete", path: draft.path });
    else if (draft.hunks.length === 0 && !draft.moveTo)
      return { ok: false, error: `'*** Update File: ${draft.path}' has no hunks.` };
    else operations.push({ kind: "update", path: draft.path, moveTo: draft.moveTo, hunks: draft.hunks });
  }
  if (operations.length === 0)
    return {
      ok: false,
      error: "The patch contains no file operations ('*** Update File:', '*** Add File:', '*** Delete File:').",
    };
  return { ok: true, value: operations };
}

/** Applies one file's hunks in order; the first hunk that does not fit fails the whole file. */
export function applyHunks(text: string, hunks: readonly V4aHunk[], label: string): Parsed<string> {
  const crlf = text.includes("\r\n");
  const lines = text === "" ? [] : text.split(/\r?\n/);
  const finalNewline = lines.length > 0 && lines[lines.length - 1] === "";
  if (finalNewline) lines.pop();
  let cursor = 0;
  for (const [index, hunk] of hunks.entries()) {
    if (hunk.lines.every((l) => l.op === " ")) continue; // context only: nothing to change, nothing to fail on
    const old = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
    let anchor = cursor;
    let hintsFound = true;
    for (const hint of hunk.hints) {
      const at = findHint(lines, hint, anchor);
      if (at === -1) hintsFound = false;
      else anchor = at + 1;
    }
    let at: number;
    if (old.length === 0) {
      if (!hintsFound)
        return {
          ok: false,
          error: `Hunk ${index + 1} of ${label} (patch line ${hunk.patchLine}): context '${hunk.hints.join(" / ")}' not found.`,
        };
      at = hunk.hints.length > 0 && !hunk.endOfFile ? anchor : lines.length;
    } else {
      at = findLines(lines, old, hintsFound ? anchor : cursor, hunk.endOfFile);
      if (at === -1) return { ok: false, error: hunkNotFound(index, hunk, old, text, label) };
    }
    const replacement: string[] = [];
    let k = at;
    for (const line of hunk.lines) {
      // Context lines keep the file's own spelling, so whitespace tolerance never rewrites untouched lines.
      if (line.op === " ") replacement.push(lines[k++]);
      else if (line.op === "-") k++;
      else replacement.push(line.text);
    }
    lines.splice(at, old.length, ...replacement);
    cursor = at + replacement.length;
  }
  const eol = crlf ? "\r\n" : "\n";
  return { ok: true, value: lines.join(eol) + (finalNewline || (text === "" && lines.length > 0) ? eol : "") };
}

function findHint(lines: readonly string[], hint: string, from: number): number {
  const wanted = hint.trim();
  for (let i = from; i < lines.length; i++) if (lines[i].trim() === wanted) return i;
  for (let i = from; i < lines.length; i++) if (lines[i].includes(wanted)) return i;
  return -1;
}

const LINE_EQUALITY: ReadonlyArray<(a: string, b: string) => boolean> = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

/** Where `old` occurs at or after `from` (then anywhere), strictest comparison first; -1 when nowhere. */
function findLines(lines: readonly string[], old: readonly string[], from: number, endOfFile: boolean): number {
  const fitsAt = (at: number, eq: (a: string, b: string) => boolean) =>
    at >= 0 && at + old.length <= lines.length && old.every((l, j) => eq(lines[at + j], l));
  for (const eq of LINE_EQUALITY) {
    if (endOfFile && fitsAt(lines.length - old.length, eq)) return lines.length - old.length;
    for (const start of [from, 0]) {
      for (let at = start; at + old.length <= lines.length; at++) if (fitsAt(at, eq)) return at;
    }
  }
  return -1;
}

function hunkNotFound(index: number, hunk: V4aHunk, old: readonly string[], text: string, label: string): string {
  const shown = old.slice(0, 12).map((l) => `  ${l}`);
  if (old.length > 12) shown.push(`  ... (${old.length - 12} more lines)`);
  const parts = [
    `Hunk ${index + 1} of ${label} (patch line ${hunk.patchLine}) did not apply: these lines (context and '-' lines) were not found:`,
    shown.join("\n"),
  ];
  const candidate = closestCandidate(text, old.join("\n"));
  if (candidate)
    parts.push(
      `Closest lines in the file (from line ${candidate.start}):\n${candidate.lines.map((l, i) => `${candidate.start + i}|${l}`).join("\n")}`,
    );
  return parts.join("\n");
}

/** How the patch tool reaches files: resolving the patch's paths and reading current texts (undefined: absent). */
export interface PatchFiles {
  resolve(path: string): string;
  read(absolutePath: string): Promise<string | undefined>;
}

/**
 * Computes every file's new text without writing anything, applying the operations in order over an overlay so a
 * later operation sees the result of an earlier one. Returns one whole-file edit per touched path (oldText null:
 * created; newText null: deleted; a move is the old path deleted plus the new path created).
 */
export async function planV4aPatch(
  operations: readonly V4aOperation[],
  files: PatchFiles,
): Promise<Parsed<FileEdit[]>> {
  const original = new Map<string, string | null>();
  const overlay = new Map<string, string | null>();
  const current = async (path: string): Promise<string | null> => {
    if (overlay.has(path)) return overlay.get(path) ?? null;
    if (!original.has(path)) original.set(path, (await files.read(path)) ?? null);
    return original.get(path) ?? null;
  };
  const set = async (path: string, text: string | null) => {
    await current(path);
    overlay.set(path, text);
  };
  for (const op of operations) {
    const path = files.resolve(op.path);
    const text = await current(path);
    if (op.kind === "add") {
      if (text !== null)
        return { ok: false, error: `Add File: ${op.path} already exists. Use '*** Update File:' to change it.` };
      await set(path, op.content);
    } else if (op.kind === "delete") {
      if (text === null) return { ok: false, error: `Delete File: ${op.path} does not exist.` };
      await set(path, null);
    } else {
      if (text === null)
        return { ok: false, error: `Update File: ${op.path} does not exist. Use '*** Add File:' to create it.` };
      const applied = applyHunks(text, op.hunks, op.path);
      if (!applied.ok) return applied;
      const target = op.moveTo ? files.resolve(op.moveTo) : path;
      if (target !== path) {
        if ((await current(target)) !== null)
          return { ok: false, error: `Move to: ${op.moveTo} already exists; refusing to overwrite it.` };
        await set(path, null);
      }
      await set(target, applied.value);
    }
  }
  const edits: FileEdit[] = [];
  for (const [path, newText] of overlay) {
    const oldText = original.get(path) ?? null;
    if (oldText !== newText) edits.push({ path, oldText, newText });
  }
  if (edits.length === 0)
    return {
      ok: false,
      error: "The patch changes nothing (only context lines, or '-' and '+' lines that are identical).",
    };
  return { ok: true, value: edits };
}
