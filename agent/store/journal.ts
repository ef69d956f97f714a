import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import type { StoreRecord } from "./store-records.js";

/**
 * This process's append-only journal: one JSON record per line. Each process writes only its own file, so two editor
 * windows never interleave lines. `flushed()` resolves once everything appended is in the file (the OS has it: a
 * SIGKILL loses nothing after that) and reports a write that failed since the last call.
 *
 * Lines are written at once, synchronously, to a file kept open. A turn saves two records of a few hundred bytes:
 * handing each to libuv's thread pool (open, write, close) cost ~0.7 ms of a 4 ms turn against a zero-latency model,
 * while copying them into the page cache takes microseconds. Compaction rotates to a new writer and closes the old one
 * before removing its file; a file removed by anything else (its folder deleted, another server that took this one for
 * dead) is noticed at the next append (no link left to the open file) and opened again, and `size` is always taken
 * from the file when it is opened, so the offsets stay true to it.
 */
export class JournalWriter {
  private fd: number | undefined;
  private failure: Error | undefined;
  /** The file's length after this writer's last line (its own file: the offset other readers replay up to). */
  size = 0;

  constructor(readonly file: string) {}

  /** Appends a record; returns the byte offset just after its line (the file's length when it could not be written). */
  append(record: StoreRecord): number {
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    try {
      // The file removed under us (its folder deleted, or another server that took this one for dead): writes to the
      // open descriptor would succeed into a file no one reads. Opened again, which recreates it or reports why not.
      if (this.fd !== undefined && fstatSync(this.fd).nlink === 0) this.close();
      if (this.fd === undefined) this.open();
      const fd = this.fd!;
      for (let written = 0; written < line.length; ) written += writeSync(fd, line, written, line.length - written);
      this.size += line.length;
    } catch (error) {
      this.failure ??= error as Error;
      // Opened again for the next line: the folder may be back by then.
      this.close();
    }
    return this.size;
  }

  async flushed(): Promise<void> {
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  /**
   * Opens the file for appending and takes its length as the offset, so offsets stay true to the file when it was
   * recreated; a line a failed write left unfinished is ended first, so the next record starts on a line of its own.
   */
  private open(): void {
    const fd = openSync(this.file, "a+");
    try {
      let { size } = fstatSync(fd);
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) size += writeSync(fd, "\n");
      }
      this.size = size;
      this.fd = fd;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Closes the file (the writer opens it again if more comes). */
  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // Already closed by the OS or never valid: nothing was lost by closing it.
      }
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
