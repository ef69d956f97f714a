/** Upstream's constants (hermes-behaviour.md §1.4). */
export const CONTEXT_FILE_MAX_CHARS = 20_000;
const HEAD_RATIO = 0.7;
const TAIL_RATIO = 0.2;
const CHARS_PER_TOKEN = 4;
const WINDOW_FRACTION = 0.06;
const DYNAMIC_CEILING = 500_000;

export type CapSource = "config" | "model" | "default";

export interface ContextCap {
  readonly maxChars: number;
  readonly source: CapSource;
}

/** config.yaml `context_file_max_chars` > the dynamic cap from the model's context length > 20,000. */
export function resolveContextCap(configured: number | undefined, contextLength: number | undefined): ContextCap {
  if (configured !== undefined && configured > 0) return { maxChars: Math.floor(configured), source: "config" };
  if (contextLength !== undefined && Number.isInteger(contextLength) && contextLength > 0) {
    const dynamic = Math.floor(contextLength * CHARS_PER_TOKEN * WINDOW_FRACTION);
    return { maxChars: Math.max(CONTEXT_FILE_MAX_CHARS, Math.min(dynamic, DYNAMIC_CEILING)), source: "model" };
  }
  return { maxChars: CONTEXT_FILE_MAX_CHARS, source: "default" };
}

export interface Truncation {
  readonly text: string;
  /** Present when the text was cut. */
  readonly cut?: { readonly head: number; readonly tail: number; readonly total: number; readonly limit: number };
  /** The pieces of the original that survive, for scanning what is actually injected. */
  readonly keptPieces: readonly string[];
}

/**
 * Upstream's `_truncate_content`: head 70% + marker + tail 20%, when longer than the cap. `quiet` is upstream's
 * `queue_warning=False` form (subdirectory hints), whose marker only says the file stays readable.
 */
export function truncateContent(
  content: string,
  filename: string,
  maxChars: number,
  readPath?: string,
  quiet = false,
): Truncation {
  if (content.length <= maxChars) return { text: content, keptPieces: [content] };
  const head = Math.floor(maxChars * HEAD_RATIO);
  const tail = Math.floor(maxChars * TAIL_RATIO);
  const headText = content.slice(0, head);
  const tailText = tail > 0 ? content.slice(-tail) : "";
  const remedy = quiet
    ? `the full file stays readable with read_file: ${readPath ?? filename}`
    : `if you need the full instructions, read the complete file with the read_file tool: ${readPath ?? filename}`;
  const marker = `\n\n[...truncated ${filename}: kept ${head}+${tail} of ${content.length} chars. The middle is omitted — ${remedy}]\n\n`;
  return {
    text: headText + marker + tailText,
    cut: { head, tail, total: content.length, limit: maxChars },
    keptPieces: [headText, tailText],
  };
}

/** Upstream's warning, word for word (two spaces after the emoji). */
export function truncationWarning(filename: string, length: number, maxChars: number): string {
  return `⚠️  Context file ${filename} TRUNCATED: ${length} chars exceeds limit of ${maxChars} — trim the file, pin a larger context_file_max_chars, or use a larger-context model!`;
}
