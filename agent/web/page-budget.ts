import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { savedPagesDir } from "./saved-pages.js";

/** Upstream's ceiling on the stored full text, so a pathological page cannot fill the disk. */
const MAX_STORED_CHARS = 2_000_000;
const RULE = "─".repeat(8);

const n = (value: number) => value.toLocaleString("en-US");

/**
 * Upstream's truncate-and-store: a page within `limit` characters is returned whole; a longer one as its head (~75%)
 * and tail (~25%), cut at line ends, with a footer that says how much is shown, where the full text was saved
 * (HERMES_HOME/cache/web) and which read_file call reads the omitted middle. Deterministic, no model involved.
 */
export function fitToBudget(
  content: string,
  url: string,
  limit: number,
  home: string,
): { text: string; truncated: boolean } {
  if (content.length <= limit) return { text: content, truncated: false };
  const headBudget = Math.floor(limit * 0.75);
  const tailBudget = limit - headBudget;
  let head = content.slice(0, headBudget);
  let tail = content.slice(-tailBudget);
  const headBreak = head.lastIndexOf("\n");
  if (headBreak > headBudget * 0.5) head = head.slice(0, headBreak);
  const tailBreak = tail.indexOf("\n");
  if (tailBreak >= 0 && tailBreak < tailBudget * 0.5) tail = tail.slice(tailBreak + 1);
  const stored = storeFullText(url, content, home);
  const footer = [
    "",
    `${RULE} [TRUNCATED] ${RULE}`,
    `Showing ${n(head.length)} chars (head) + ${n(tail.length)} chars (tail) of ${n(content.length)} total clean characters.`,
  ];
  if (stored) {
    // The omitted middle starts on the line after the head: a concrete offset saves the model a guess.
    const middleStartLine = head.split("\n").length + 1;
    footer.push(`Full text saved to: ${stored}`);
    footer.push(
      `To read the omitted middle: read_file path="${stored}" offset=${middleStartLine} limit=200  (the file is the complete page; raise/lower offset to page through it).`,
    );
  } else {
    footer.push("Full text could not be stored; re-run web_extract on a more specific URL for the complete page.");
  }
  footer.push("─".repeat(29));
  return { text: `${head}\n\n[... middle omitted — see footer ...]\n\n${tail}\n${footer.join("\n")}`, truncated: true };
}

/** HERMES_HOME/cache/web/<host>-<sha256 of the URL, 10 hex>.md; undefined when it cannot be written (best effort). */
function storeFullText(url: string, content: string, home: string): string | undefined {
  try {
    const dir = savedPagesDir(home);
    mkdirSync(dir, { recursive: true });
    let host = "page";
    try {
      host = new URL(url).hostname || "page";
    } catch {
      // Not a URL we can name a file after: the generic name will do.
    }
    const slug =
      host
        .replace(/[^A-Za-z0-9._-]/g, "-")
        .slice(0, 60)
        .replace(/^-+|-+$/g, "") || "page";
    const path = join(dir, `${slug}-${createHash("sha256").update(url).digest("hex").slice(0, 10)}.md`);
    const body =
      content.length > MAX_STORED_CHARS
        ? `${content.slice(0, MAX_STORED_CHARS)}\n\n[... stored copy truncated at ${n(MAX_STORED_CHARS)} chars of ${n(content.length)}; re-extract a more specific URL for the rest ...]`
        : content;
    writeFileSync(path, body, "utf8");
    return path;
  } catch {
    return undefined;
  }
}
