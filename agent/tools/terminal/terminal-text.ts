// ECMA-48 escape sequences: CSI (colours, cursor moves), OSC (titles, hyperlinks), and two-byte escapes.
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/**
 * Terminal output as a model should read it: escape sequences removed, and carriage-return redraws (progress bars,
 * spinners) collapsed to what the line finally showed.
 */
export function cleanTerminalText(text: string): string {
  return text
    .replace(ANSI, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => (line.includes("\r") ? line.slice(line.lastIndexOf("\r") + 1) : line))
    .join("\n");
}

/**
 * Collects a command's output with bounded memory: everything up to `headChars`, then a rolling tail of `tailChars`.
 * A build that prints megabytes keeps its beginning (the command, early errors) and its end (the summary).
 */
export class OutputCollector {
  private head = "";
  private tail = "";
  private dropped = 0;

  constructor(
    private readonly headChars = 15_000,
    private readonly tailChars = 35_000,
  ) {}

  add(chunk: string): void {
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (!chunk) return;
    this.tail += chunk;
    if (this.tail.length > this.tailChars * 2) this.trimTail();
  }

  /** All output kept so far, with a note where the middle was dropped. */
  text(): string {
    this.trimTail();
    const middle =
      this.dropped > 0 ? `\n\n[... ${this.dropped.toLocaleString("en-US")} characters of output omitted ...]\n\n` : "";
    return cleanTerminalText(this.head + middle + this.tail);
  }

  private trimTail(): void {
    if (this.tail.length <= this.tailChars) return;
    this.dropped += this.tail.length - this.tailChars;
    this.tail = this.tail.slice(-this.tailChars);
  }
}
