import type { SlashCommand } from "./protocol.js";

/** The command name typed so far when the caret is in a leading `/word`, else undefined. */
export function slashQuery(text: string, caret: number): string | undefined {
  if (!text.startsWith("/")) return undefined;
  const end = text.search(/\s/);
  if (end !== -1 && caret > end) return undefined;
  return text.slice(1, caret);
}

function bareName(command: SlashCommand): string {
  return command.name.replace(/^\//, "");
}

/** Commands whose name starts with the query first, then those that merely contain it. */
export function matchCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase();
  const starts = commands.filter((c) => bareName(c).toLowerCase().startsWith(q));
  const contains = commands.filter(
    (c) => !bareName(c).toLowerCase().startsWith(q) && bareName(c).toLowerCase().includes(q),
  );
  return [...starts, ...contains];
}

/** `/name ` replacing the leading word, keeping what follows it. */
export function applyCommand(text: string, command: SlashCommand): { text: string; caret: number } {
  const end = text.search(/\s/);
  const rest = end === -1 ? "" : text.slice(end).replace(/^\s+/, "");
  const head = `/${bareName(command)} `;
  return { text: head + rest, caret: head.length };
}

export interface MentionQuery {
  /** Index of the `@`. */
  readonly start: number;
  readonly query: string;
}

/** The `@partial` being typed at the caret (after a space or at the start, so e-mail addresses are left alone). */
export function mentionQuery(text: string, caret: number): MentionQuery | undefined {
  const match = /(^|\s)@([^\s@`"']*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  const query = match[2]!.replace(/^file:/, "");
  return { start: match.index + match[1]!.length, query };
}

/**
 * Replaces the `@partial` with a reference the server expands itself: `@file:path`, quoted with backticks when the
 * path has spaces (the server's reference syntax, hermes-behaviour.md §5.1).
 */
export function applyMention(
  text: string,
  mention: MentionQuery,
  caret: number,
  path: string,
  given?: string,
): { text: string; caret: number } {
  const reference = given ?? (/\s/.test(path) ? `@file:\`${path}\` ` : `@file:${path} `);
  const after = text.slice(caret).replace(/^\S*/, "");
  return {
    text: text.slice(0, mention.start) + reference + after.replace(/^ /, ""),
    caret: mention.start + reference.length,
  };
}

/**
 * Sent prompts for ↑/↓, newest last. Stepping away from what is being typed keeps it as a draft that ↓ returns to.
 */
export class InputHistory {
  private position: number;
  private draft = "";

  constructor(
    private readonly entries: string[] = [],
    private readonly limit = 100,
  ) {
    this.position = entries.length;
  }

  get all(): readonly string[] {
    return this.entries;
  }

  /** Records a sent prompt (not twice in a row) and goes back to typing a new one. */
  push(text: string): void {
    if (text.trim() && this.entries[this.entries.length - 1] !== text) this.entries.push(text);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    this.position = this.entries.length;
    this.draft = "";
  }

  /** The older entry to show, or undefined at the oldest. */
  previous(current: string): string | undefined {
    if (this.position === 0) return undefined;
    if (this.position === this.entries.length) this.draft = current;
    return this.entries[--this.position];
  }

  /** The newer entry (or the draft once past the newest), or undefined when already on the draft. */
  next(): string | undefined {
    if (this.position >= this.entries.length) return undefined;
    this.position++;
    return this.position === this.entries.length ? this.draft : this.entries[this.position];
  }
}

export const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Why an image cannot be attached, or undefined when it can. */
export function imageProblem(type: string, size: number): string | undefined {
  if (!IMAGE_TYPES.has(type))
    return `Only PNG, JPEG, GIF and WebP images can be attached (this one is ${type || "of an unknown type"}).`;
  if (size > MAX_IMAGE_BYTES) return `Images are limited to 5 MB (this one is ${(size / 1024 / 1024).toFixed(1)} MB).`;
  return undefined;
}
