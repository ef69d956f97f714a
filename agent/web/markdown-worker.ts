import type { Worker } from "node:worker_threads";
import { startWorker as startModuleWorker } from "../workers/start-worker.js";
import type { ConversionReply } from "./html-to-markdown-worker.js";

/**
 * Runs node-html-markdown in a worker thread (html-to-markdown-worker.ts) under a hard deadline and the turn's
 * signal. The library is quadratic on hostile pages and cannot be interrupted from inside, so on the main thread it
 * froze the whole ACP server (cancel included) for minutes; in a worker the server stays responsive and the worker
 * is terminated when time runs out. One idle worker is kept for the next page (a fresh one costs ~30-60 ms plus
 * loading the library); pages converted at the same time each get their own, so one runaway page kills only itself.
 */

let idle: Worker | undefined;

export class ConversionError extends Error {}

export function convertInWorker(html: string, deadlineMs: number, signal?: AbortSignal): Promise<string> {
  if (signal?.aborted) return Promise.reject(new ConversionError("cancelled before the page was converted"));
  let worker: Worker;
  try {
    worker = idle ?? startWorker();
  } catch (error) {
    return Promise.reject(error);
  }
  idle = undefined;
  return new Promise<string>((resolve, reject) => {
    const finish = (outcome: () => void, keepWorker: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (keepWorker && !idle) idle = worker;
      else void worker.terminate();
      outcome();
    };
    const seconds = Math.round(deadlineMs / 100) / 10;
    const timer = setTimeout(
      () =>
        finish(
          () =>
            reject(
              new ConversionError(
                `the page is too complex to convert to Markdown in time (gave up after ${seconds} s)`,
              ),
            ),
          false,
        ),
      deadlineMs,
    );
    const onAbort = () => finish(() => reject(new ConversionError("cancelled while converting the page")), false);
    const onMessage = (reply: ConversionReply) =>
      finish(
        () =>
          "markdown" in reply
            ? resolve(reply.markdown)
            : reject(new ConversionError(`the HTML converter failed: ${reply.error}`)),
        true,
      );
    const onError = (error: Error) =>
      finish(() => reject(new ConversionError(`the HTML converter failed: ${error.message}`)), false);
    const onExit = (code: number) =>
      finish(() => reject(new ConversionError(`the HTML converter stopped (exit code ${code})`)), false);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage({ html });
  });
}

function startWorker(): Worker {
  const worker = startModuleWorker("html-to-markdown-worker", import.meta.url);
  if (!worker) throw new ConversionError("the HTML converter's worker file was not found next to the server");
  // Neither an idle nor a busy worker keeps the process alive (a conversion's own deadline timer does).
  worker.unref();
  worker.once("exit", () => {
    if (idle === worker) idle = undefined;
  });
  return worker;
}
