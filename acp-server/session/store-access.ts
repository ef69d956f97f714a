import type { SessionStore } from "../../agent/index.js";
import type { Logger } from "../rpc/log.js";

const COMPACT_AFTER_IDLE_MS = 3000;

/**
 * The session stores this server uses (one per HERMES_HOME, opened on first use, never at start-up) and their
 * compaction: a few seconds after the last change, when no turn is running, so the export never delays a turn.
 */
export class StoreAccess {
  private readonly stores = new Map<string, Promise<SessionStore>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly busy: () => boolean,
  ) {}

  open(home: string): Promise<SessionStore> {
    let store = this.stores.get(home);
    if (!store) {
      // Through `import()`: this class is built at start-up, before the `initialize` reply, and a static import of
      // the front door would load the whole engine then. A store is only opened by a session handler, when the engine
      // is loaded already, so this import costs a microtask.
      // A problem met when the database loads is logged here; it is also shown to the user at the next session/new
      // (the problems list is handed over there).
      store = import("../../agent/index-store.js").then(({ SessionStore }) =>
        SessionStore.open(home, (problem) => this.log.error(problem)),
      );
      store.catch(() => this.stores.delete(home));
      this.stores.set(home, store);
    }
    return store;
  }

  scheduleCompaction(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.busy()) return this.scheduleCompaction();
      void this.compactAll();
    }, COMPACT_AFTER_IDLE_MS);
    this.timer.unref();
  }

  /** Compacts every open store now (at shutdown). */
  async compactAll(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    for (const pending of this.stores.values()) {
      try {
        await (await pending).compact();
      } catch (error) {
        this.log.error(`session store compaction failed: ${(error as Error).message}`);
      }
    }
  }
}
