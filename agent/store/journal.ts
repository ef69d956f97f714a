import { appendFile, open, readdir, stat } from "node:fs/promises";
import type { StoreRecord } from "./store-records.js";

/**
 * This process's append-only journal: one JSON record per line. Appends are queued and written in order without
 * blocking the event loop; `flushed()` resolves once everything queued is in the file (the OS has it: a SIGKILL
 * loses nothing after that). Each process writes only its own file, so two editor windows never interleave lines.
 */
export class JournalWriter {
  private queue: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  /** Bytes this writer has written to `file` so far (its own file, so this is the file's length). */
  size = 0;

  constructor(readonly file: string) {}

  /** Queues a record; returns the byte offset just after its line. */
  append(record: StoreRecord): number {
    const line = `${JSON.stringify(record)}\n`;
    this.size += Buffer.byteLength(line);
    this.queue = this.queue.then(() =>
      appendFile(this.file, line).catch((error: Error) => void (this.failure ??= error)),
    );
    return this.size;
  }

  async flushed(): Promise<void> {
    await this.queue;
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }
}

/** Journal files in `dir`, by name. */
export async function journalFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith(".ndjson")).sort();
  } catch {
    return [];
  }
}

export interface JournalTail {
  readonly records: StoreRecord[];
  /** Offset after the last complete line read. */
  readonly end: number;
}

/**
 * Complete records after `offset`. A last line without its newline is a write torn by a kill: it is left for the
 * next read (its writer, if alive, will finish it) and never half-applied. Unparseable lines are skipped.
 */
export async function readJournal(path: string, offset: number): Promise<JournalTail> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return { records: [], end: offset };
  }
  if (size <= offset) return { records: [], end: offset };
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    const text = buffer.subarray(0, bytesRead);
    const lastNewline = text.lastIndexOf(0x0a);
    if (lastNewline < 0) return { records: [], end: offset };
    const records: StoreRecord[] = [];
    for (const line of text.subarray(0, lastNewline).toString("utf8").split("\n")) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as StoreRecord);
      } catch {
        // a damaged line: skip it, keep the rest
      }
    }
    return { records, end: offset + lastNewline + 1 };
  } finally {
    await handle.close();
  }
}
