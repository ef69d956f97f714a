import { JSDOM } from "jsdom";

/** A browser-like window for webview code under Node (DOMPurify supports jsdom officially). */
export function domWindow(): JSDOM["window"] {
  return new JSDOM("<!DOCTYPE html><html><body></body></html>", { pretendToBeVisual: true }).window;
}
