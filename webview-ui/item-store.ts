import type { ChatItem } from "./protocol.js";

/** One transcript item and the state version it last changed at (the renderer redraws an item only when it moves). */
export interface ItemEntry {
  readonly item: ChatItem;
  readonly version: number;
}

/**
 * Items per chunk. Replacing one item copies the outer chunk array (length / CHUNK pointers) and one chunk: about 100
 * pointer copies for 2,000 items, so a streaming delta costs the same for a short chat and a long one.
 */
const CHUNK = 64;

/**
 * The transcript as a persistent (never mutated) list: every change returns a new store that shares all untouched
 * chunks with the old one. That keeps the reducer pure without copying 2,000 items for each streamed token.
 */
export class ItemStore {
  static readonly empty = new ItemStore([], new Map(), 0);

  private constructor(
    private readonly chunks: readonly (readonly ItemEntry[])[],
    /** id → position. Positions never move: items are only added at the end or replaced in place. */
    private readonly positions: ReadonlyMap<string, number>,
    readonly length: number,
  ) {}

  static from(entries: readonly ItemEntry[]): ItemStore {
    const chunks: ItemEntry[][] = [];
    const positions = new Map<string, number>();
    const kept: ItemEntry[] = [];
    for (const entry of entries) {
      const at = positions.get(entry.item.id);
      // A repeated id replaces the earlier item, as `chat/item` would.
      if (at !== undefined) kept[at] = entry;
      else {
        positions.set(entry.item.id, kept.length);
        kept.push(entry);
      }
    }
    for (let i = 0; i < kept.length; i += CHUNK) chunks.push(kept.slice(i, i + CHUNK));
    return new ItemStore(chunks, positions, kept.length);
  }

  at(index: number): ItemEntry {
    if (index < 0 || index >= this.length)
      throw new RangeError(`item ${index} is outside the transcript (0..${this.length - 1})`);
    return this.chunks[Math.floor(index / CHUNK)]![index % CHUNK]!;
  }

  indexOf(id: string): number {
    return this.positions.get(id) ?? -1;
  }

  get(id: string): ItemEntry | undefined {
    const index = this.positions.get(id);
    return index === undefined ? undefined : this.at(index);
  }

  /** A store with the item of the same id replaced, or the entry added at the end. */
  put(entry: ItemEntry): ItemStore {
    const index = this.positions.get(entry.item.id);
    if (index !== undefined) return this.replaceAt(index, entry);
    // Adding copies the id index: items are added a few times per turn, tokens stream thousands of times.
    const positions = new Map(this.positions).set(entry.item.id, this.length);
    const last = this.chunks.length - 1;
    const chunks =
      this.length % CHUNK === 0
        ? [...this.chunks, [entry]]
        : this.chunks.map((chunk, i) => (i === last ? [...chunk, entry] : chunk));
    return new ItemStore(chunks, positions, this.length + 1);
  }

  private replaceAt(index: number, entry: ItemEntry): ItemStore {
    const target = Math.floor(index / CHUNK);
    const chunks = this.chunks.slice();
    const chunk = chunks[target]!.slice();
    chunk[index % CHUNK] = entry;
    chunks[target] = chunk;
    return new ItemStore(chunks, this.positions, this.length);
  }

  *[Symbol.iterator](): IterableIterator<ItemEntry> {
    for (const chunk of this.chunks) yield* chunk;
  }
}
