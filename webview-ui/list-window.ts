import type { ItemEntry, ItemStore } from "./item-store.js";
import type { ChatItem } from "./protocol.js";
import type { ItemView } from "./render/item-view.js";

/** Pixels rendered above and below the viewport, so a flick of the wheel finds items already there. */
const OVERSCAN = 800;
/** Views of items scrolled out of the window kept (detached) for a quick return; older ones are rebuilt on demand. */
const DETACHED_CACHE = 120;
/** How close to the end still counts as "at the bottom" (sub-pixel rounding, a last line half in view). */
const BOTTOM_SLACK = 24;

interface Row {
  readonly element: HTMLElement;
  readonly view: ItemView;
  version: number;
}

/** A first guess of an item's height before it was ever drawn: close enough that the scrollbar does not jump much. */
export function estimateHeight(item: ChatItem, width: number): number {
  const charsPerLine = Math.max(20, Math.floor((width - 32) / 7));
  const lines = (text: string) => Math.ceil(text.length / charsPerLine) + (text.match(/\n/g)?.length ?? 0);
  switch (item.kind) {
    case "user":
      return 40 + 20 * lines(item.text) + (item.attachments.length ? 28 : 0) + (item.canEdit ? 24 : 0);
    case "agent":
      return 20 + 20 * lines(item.markdown);
    case "thought":
    case "notice":
    case "checkpoint":
      return 40;
    case "tool":
      return (
        60 + (item.locations.length ? 26 : 0) + item.diffs.length * 40 + (item.review ? 36 : 0) + (item.output ? 30 : 0)
      );
    case "plan":
      return 52 + 24 * item.entries.length;
    case "permission":
      return 110 + (item.detail ? 40 : 0) + item.diffs.length * 40;
    case "review":
      return 90;
    case "setup":
      return 120 + (item.verdict ? 24 : 0);
  }
}

/**
 * The transcript, windowed: only items near the viewport are in the DOM, between two spacers whose heights stand for
 * the rest (measured heights where an item was drawn before, estimates elsewhere). Rows are re-rendered only when
 * their item's version changed. While streaming, the view sticks to the bottom unless the user scrolled up; then the
 * first visible item stays put however heights above it change.
 */
export class ListWindow {
  private readonly top: HTMLElement;
  private readonly rows: HTMLElement;
  private readonly bottom: HTMLElement;
  private readonly measured = new Map<string, number>();
  /** Estimates per entry (entries are immutable, so one estimate per version); rebuilt when the width changes. */
  private estimates = new WeakMap<ItemEntry, number>();
  /** Attached and recently detached rows, least recently used first. */
  private readonly cache = new Map<string, Row>();
  private attached: string[] = [];
  private store: ItemStore | undefined;
  private epoch = -1;
  private offsets = new Float64Array(1);
  private width = 0;
  private stuck = true;
  private lastWrittenTop = -1;
  private onStuckChange: ((stuck: boolean) => void) | undefined;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly createView: (item: ChatItem) => ItemView,
    requestRender: () => void,
  ) {
    const doc = scroller.ownerDocument;
    this.top = doc.createElement("div");
    this.rows = doc.createElement("div");
    this.bottom = doc.createElement("div");
    this.top.className = this.bottom.className = "spacer";
    this.rows.className = "rows";
    scroller.replaceChildren(this.top, this.rows, this.bottom);
    scroller.addEventListener(
      "scroll",
      () => {
        // Our own scrollTop writes also fire "scroll"; only the user's scrolling decides whether we follow the stream.
        if (Math.abs(scroller.scrollTop - this.lastWrittenTop) > 1) this.setStuck(this.atBottom());
        requestRender();
      },
      { passive: true },
    );
    // Sidebar resized, a section toggled open, fonts arrived: heights changed, so measure again next frame.
    const observer = new ResizeObserver(() => requestRender());
    observer.observe(scroller);
    observer.observe(this.rows);
  }

  get followingStream(): boolean {
    return this.stuck;
  }

  onFollowChange(listener: (following: boolean) => void): void {
    this.onStuckChange = listener;
  }

  scrollToBottom(): void {
    this.setStuck(true);
  }

  /** Draws the window for the current items: call once per animation frame when anything changed. */
  render(store: ItemStore, epoch: number): void {
    if (epoch !== this.epoch) this.reset(epoch);
    this.store = store;
    const width = this.scroller.clientWidth;
    if (width !== this.width) {
      // Text reflows at a new width: every remembered height is stale (visible rows are measured again below).
      if (this.width !== 0) this.measured.clear();
      this.estimates = new WeakMap();
      this.width = width;
    }
    const anchor = this.stuck ? undefined : this.anchor();
    this.layout();
    for (let pass = 0; pass < 2; pass++) {
      this.mount(this.visibleRange(anchor));
      if (!this.measure()) break;
      this.layout();
    }
    this.setSpacers();
    this.restoreScroll(anchor);
  }

  /** Scrolls an item into view and returns its element (for focusing a permission card's first option). */
  reveal(id: string): HTMLElement | undefined {
    const index = this.store?.indexOf(id) ?? -1;
    if (!this.store || index < 0) return undefined;
    const isLast = index === this.store.length - 1;
    this.setStuck(isLast);
    if (!isLast) this.writeScrollTop(Math.max(0, this.offsets[index]! - 8));
    this.render(this.store, this.epoch);
    return this.cache.get(id)?.element;
  }

  private reset(epoch: number): void {
    this.epoch = epoch;
    this.cache.clear();
    this.attached = [];
    this.rows.replaceChildren();
    this.stuck = true;
  }

  private atBottom(): boolean {
    return this.scroller.scrollTop + this.scroller.clientHeight >= this.scroller.scrollHeight - BOTTOM_SLACK;
  }

  private setStuck(stuck: boolean): void {
    if (stuck === this.stuck) return;
    this.stuck = stuck;
    this.onStuckChange?.(stuck);
  }

  private heightOf(entry: ItemEntry): number {
    const measured = this.measured.get(entry.item.id);
    if (measured !== undefined) return measured;
    let estimate = this.estimates.get(entry);
    if (estimate === undefined) this.estimates.set(entry, (estimate = estimateHeight(entry.item, this.width)));
    return estimate;
  }

  /** offsets[i] is the top of item i; offsets[length] is the total height. Cheap: 2,000 additions. */
  private layout(): void {
    const store = this.store!;
    if (this.offsets.length !== store.length + 1) this.offsets = new Float64Array(store.length + 1);
    let y = 0;
    let i = 0;
    for (const entry of store) {
      this.offsets[i++] = y;
      y += this.heightOf(entry);
    }
    this.offsets[i] = y;
  }

  /** The first item still (partly) visible and how far its top sits from the viewport's top. */
  private anchor(): { readonly id: string; readonly delta: number } | undefined {
    // The offsets are the last frame's: items are only ever added at the end, so their indices still hold.
    const store = this.store;
    if (!store || this.offsets.length < 2 || this.offsets.length > store.length + 1) return undefined;
    const index = this.indexAt(this.scroller.scrollTop);
    return { id: store.at(index).item.id, delta: this.offsets[index]! - this.scroller.scrollTop };
  }

  /** The item covering vertical position y (binary search over the offsets). */
  private indexAt(y: number): number {
    const count = this.offsets.length - 1;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  private viewportTop(anchor: { readonly id: string; readonly delta: number } | undefined): number {
    const total = this.offsets[this.store!.length]!;
    const height = this.scroller.clientHeight;
    if (this.stuck) return Math.max(0, total - height);
    const index = anchor ? this.store!.indexOf(anchor.id) : -1;
    return index >= 0 ? this.offsets[index]! - anchor!.delta : this.scroller.scrollTop;
  }

  private visibleRange(anchor: { readonly id: string; readonly delta: number } | undefined): [number, number] {
    const count = this.store!.length;
    if (count === 0) return [0, 0];
    const top = this.viewportTop(anchor);
    const start = this.indexAt(Math.max(0, top - OVERSCAN));
    const end = this.indexAt(top + this.scroller.clientHeight + OVERSCAN) + 1;
    return [start, Math.min(count, end)];
  }

  /** Puts exactly the rows of [start, end) in the DOM, in order, each up to date with its item's version. */
  private mount([start, end]: [number, number]): void {
    const store = this.store!;
    const wanted: string[] = [];
    for (let i = start; i < end; i++) {
      const entry = store.at(i);
      wanted.push(entry.item.id);
      this.rowFor(entry);
    }
    const keep = new Set(wanted);
    for (const id of this.attached) if (!keep.has(id)) this.cache.get(id)?.element.remove();
    let cursor = this.rows.firstElementChild;
    for (const id of wanted) {
      const element = this.cache.get(id)!.element;
      if (element === cursor) cursor = cursor.nextElementSibling;
      else this.rows.insertBefore(element, cursor);
    }
    this.attached = wanted;
    this.evict(keep);
  }

  private rowFor(entry: ItemEntry): Row {
    const id = entry.item.id;
    let row = this.cache.get(id);
    if (row) {
      if (row.version !== entry.version) {
        row.view.update(entry.item);
        row.version = entry.version;
      }
      // Refresh its place in the least-recently-used order.
      this.cache.delete(id);
    } else {
      const view = this.createView(entry.item);
      const element = this.scroller.ownerDocument.createElement("div");
      element.className = "row";
      element.append(view.element);
      row = { element, view, version: entry.version };
    }
    this.cache.set(id, row);
    return row;
  }

  private evict(attached: ReadonlySet<string>): void {
    let detached = this.cache.size - attached.size;
    for (const id of this.cache.keys()) {
      if (detached <= DETACHED_CACHE) break;
      if (attached.has(id)) continue;
      this.cache.delete(id);
      detached--;
    }
  }

  /** Reads the attached rows' real heights (one layout for all); true when any differed from what layout assumed. */
  private measure(): boolean {
    let changed = false;
    for (const id of this.attached) {
      const height = this.cache.get(id)!.element.offsetHeight;
      if (height > 0 && this.measured.get(id) !== height) {
        this.measured.set(id, height);
        changed = true;
      }
    }
    return changed;
  }

  private setSpacers(): void {
    const store = this.store!;
    const first = this.attached.length ? store.indexOf(this.attached[0]!) : store.length;
    const last = this.attached.length ? store.indexOf(this.attached[this.attached.length - 1]!) + 1 : store.length;
    this.top.style.height = `${this.offsets[first]}px`;
    this.bottom.style.height = `${this.offsets[store.length]! - this.offsets[last]!}px`;
  }

  private restoreScroll(anchor: { readonly id: string; readonly delta: number } | undefined): void {
    if (this.stuck) {
      this.writeScrollTop(this.scroller.scrollHeight);
      return;
    }
    const index = anchor ? this.store!.indexOf(anchor.id) : -1;
    if (index < 0) return;
    const target = this.offsets[index]! - anchor!.delta;
    if (Math.abs(target - this.scroller.scrollTop) > 0.5) this.writeScrollTop(target);
  }

  private writeScrollTop(top: number): void {
    this.scroller.scrollTop = top;
    this.lastWrittenTop = this.scroller.scrollTop;
  }
}
