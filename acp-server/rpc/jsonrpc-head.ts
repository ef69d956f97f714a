/**
 * What the start of a JSON-RPC message says about it, read without parsing the rest: a line too long to parse
 * (over the stdin cap) still deserves an answer when its id can be read from its first bytes. Only top-level keys
 * count, so an `"id"` inside params is never mistaken for the message's own.
 */
export interface JsonRpcHead {
  /** The message's id, when the head holds it whole. */
  readonly id?: string | number | null;
  /** The method, when the head holds it whole (a request or notification). */
  readonly method?: string;
  /** The head has a `result` or `error` key (a response). */
  readonly answer: boolean;
}

export function readJsonRpcHead(head: string): JsonRpcHead {
  const found: { id?: string | number | null; method?: string; answer: boolean } = { answer: false };
  let i = skipSpace(head, 0);
  if (head[i] !== "{") return found;
  i += 1;
  for (;;) {
    i = skipSpace(head, i);
    if (head[i] !== '"') return found;
    const key = readString(head, i);
    if (!key) return found;
    i = skipSpace(head, key.next);
    if (head[i] !== ":") return found;
    i = skipSpace(head, i + 1);
    if (key.value === "result" || key.value === "error") found.answer = true;
    const end = skipValue(head, i);
    if (end === undefined) return found;
    if (key.value === "id" || key.value === "method") {
      const value = primitive(head.slice(i, end));
      if (key.value === "id" && (typeof value === "string" || typeof value === "number" || value === null))
        found.id = value;
      if (key.value === "method" && typeof value === "string") found.method = value;
    }
    i = skipSpace(head, end);
    if (head[i] !== ",") return found;
    i += 1;
  }
}

function primitive(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\r" || text[i] === "\n")) i += 1;
  return i;
}

/** A string starting at `i` (a quote): its value and the index after it, or undefined when the head cuts it. */
function readString(text: string, i: number): { value: string; next: number } | undefined {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j += 1;
    else if (text[j] === '"') {
      const value = primitive(text.slice(i, j + 1));
      return typeof value === "string" ? { value, next: j + 1 } : undefined;
    }
  }
  return undefined;
}

/** The index after the value starting at `i`, or undefined when the head ends first. */
function skipValue(text: string, i: number): number | undefined {
  if (text[i] === '"') return readString(text, i)?.next;
  if (text[i] === "{" || text[i] === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        const end = readString(text, j);
        if (!end) return undefined;
        j = end.next - 1;
      } else if (c === "{" || c === "[") depth += 1;
      else if (c === "}" || c === "]") {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
    }
    return undefined;
  }
  // A number or literal ends at a delimiter; one that runs to the end of the head may be cut.
  for (let j = i; j < text.length; j++) if (",}] \t\r\n".includes(text[j]!)) return j > i ? j : undefined;
  return undefined;
}
