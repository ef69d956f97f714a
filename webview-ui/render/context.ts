import type { Sanitizer } from "../sanitize.js";

/**
 * What the view alone knows about the transcript: which collapsible sections the user opened or closed. The host does
 * not care, but a re-render (a streamed delta, a status change) or scrolling an item out of the window and back must
 * not undo the user's choice.
 */
export class SectionMemory {
  private readonly open = new Map<string, boolean>();

  isOpen(key: string, byDefault: boolean): boolean {
    return this.open.get(key) ?? byDefault;
  }

  remember(key: string, open: boolean): void {
    this.open.set(key, open);
  }

  clear(): void {
    this.open.clear();
  }
}

export interface RenderContext {
  readonly doc: Document;
  readonly sanitizer: Sanitizer;
  readonly sections: SectionMemory;
}
