import { startWorker } from "../workers/start-worker.js";
import type { CompactionReply, CompactionRequest } from "./compaction-worker.js";
import { compactStoreFiles } from "./store-compaction.js";

/**
 * Compacts a session store in a worker thread (compaction-worker.ts), so that sql.js's memory is released with the
 * thread; in this thread when the worker file is not there (a build without it). Resolves with the problems met.
 */
export function compactInWorker(request: CompactionRequest): Promise<readonly string[]> {
  const worker = startWorker("compaction-worker", import.meta.url);
  if (!worker) return compactStoreFiles(request.dir, request.finishedJournal, request.ownPrefix);
  return new Promise((resolve, reject) => {
    worker.once("message", (reply: CompactionReply) => {
      void worker.terminate();
      if ("error" in reply) reject(new Error(reply.error));
      else resolve(reply.problems);
    });
    worker.once("error", (error) => reject(error));
    worker.once("exit", (code) => reject(new Error(`the compaction worker stopped (exit code ${code})`)));
    worker.postMessage(request);
  });
}
