import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { ToolImage } from "../tool.js";

/*
 * browser_vision's screenshot: the whole page as upstream takes it (`screenshot --full`), saved under
 * HERMES_HOME/cache/screenshots (upstream's folder, pruned of day-old shots), optionally with upstream's numbered
 * labels: `[N]` drawn over each element that has ref @eN in the latest snapshot.
 */

/** Above this a full-page PNG is replaced by the viewport as JPEG: vision APIs refuse images over ~5 MB. */
const MAX_PNG_BYTES = 3_500_000;
/** Upstream prunes screenshots older than 24 hours. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Labels drawn at most (a huge page would otherwise cost a box lookup per element). */
const MAX_LABELS = 150;
const OVERLAY_ID = "__hermes_annotations__";

export interface Screenshot {
  readonly image: ToolImage;
  readonly path: string;
  /** With `annotate`: what each label points at (`{ ref: "@e5", role, name }`). */
  readonly annotations?: readonly { readonly ref: string; readonly label: string }[];
}

export async function takeScreenshot(page: Page, home: string, annotate: boolean): Promise<Screenshot> {
  const annotations = annotate ? await drawLabels(page) : undefined;
  let image: ToolImage;
  try {
    const png = await page.screenshot({ fullPage: true, type: "png" });
    image =
      png.length <= MAX_PNG_BYTES
        ? { mimeType: "image/png", data: png.toString("base64") }
        : {
            mimeType: "image/jpeg",
            data: (await page.screenshot({ type: "jpeg", quality: 80 })).toString("base64"),
          };
  } finally {
    if (annotate) await page.evaluate((id) => document.getElementById(id)?.remove(), OVERLAY_ID).catch(() => undefined);
  }
  const path = save(home, image);
  return { image, path, ...(annotations ? { annotations } : {}) };
}

function save(home: string, image: ToolImage): string {
  const dir = join(home, "cache", "screenshots");
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith("browser_screenshot_")) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > MAX_AGE_MS) unlinkSync(join(dir, name));
    } catch {
      // Another session pruned it first.
    }
  }
  const path = join(
    dir,
    `browser_screenshot_${randomUUID().replace(/-/g, "")}.${image.mimeType === "image/png" ? "png" : "jpg"}`,
  );
  writeFileSync(path, Buffer.from(image.data, "base64"));
  return path;
}

/** Draws `[N]` over each element with ref eN of a fresh snapshot; the overlay is removed after the shot. */
async function drawLabels(page: Page): Promise<{ ref: string; label: string }[]> {
  const snapshot = await page.ariaSnapshot({ mode: "ai" });
  const found = [...snapshot.matchAll(/- ([\w-]+)(?: "([^"]*)")?[^\n]*?\[ref=e(\d+)\]/g)].slice(0, MAX_LABELS);
  const boxes: { n: string; x: number; y: number }[] = [];
  const annotations: { ref: string; label: string }[] = [];
  for (const [, role, name, n] of found) {
    const box = await page
      .locator(`aria-ref=e${n}`)
      .boundingBox({ timeout: 1000 })
      .catch(() => null);
    if (!box || box.width === 0 || box.height === 0) continue;
    boxes.push({ n: n!, x: box.x, y: box.y });
    annotations.push({ ref: `@e${n}`, label: name ? `${role} "${name}"` : role! });
  }
  await page.evaluate(
    ({ id, labels, scrollX, scrollY }) => {
      const layer = document.createElement("div");
      layer.id = id;
      layer.style.cssText = "position:absolute;left:0;top:0;pointer-events:none;z-index:2147483647";
      for (const label of labels) {
        const tag = document.createElement("div");
        tag.textContent = `[${label.n}]`;
        tag.style.cssText =
          `position:absolute;left:${label.x + scrollX}px;top:${label.y + scrollY}px;font:bold 11px monospace;` +
          "background:#ffde21;color:#000;border:1px solid #000;padding:0 2px";
        layer.appendChild(tag);
      }
      document.body.appendChild(layer);
    },
    {
      id: OVERLAY_ID,
      labels: boxes,
      ...(await page.evaluate(() => ({ scrollX: window.scrollX, scrollY: window.scrollY }))),
    },
  );
  return annotations;
}
