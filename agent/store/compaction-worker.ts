import { parentPort } from "node:worker_threads";
import { compactStoreFiles } from "./store-compaction.js";

/**
 * The worker thread that compacts a session store (started by compaction-thread.ts, never imported by the server).
 * sql.js holds the whole database in WebAssembly memory while it compacts, and WebAssembly memory is never given
 * back to the system while its instance lives: in this thread it goes away with the thread, so a server whose
 * sessions never list or search never keeps its history resident. One request per worker: `CompactionRequest` in,
 * `CompactionReply` out.
 */
export interface CompactionRequest {
  readonly dir: string;
  readonly finishedJournal: string;
  readonly ownPrefix: string;
}

export type CompactionReply = { readonly problems: readonly string[] } | { readonly error: string };

parentPort?.once("message", (request: CompactionRequest) => {
  compactStoreFiles(request.dir, request.finishedJournal, request.ownPrefix).then(
    (problems) => parentPort?.postMessage({ problems } satisfies CompactionReply),
    (error: unknown) =>
      parentPort?.postMessage({
        error: error instanceof Error ? error.message : String(error),
      } satisfies CompactionReply),
  );
});
