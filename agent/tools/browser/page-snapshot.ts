import type { Page } from "playwright-core";
import { fitToBudget } from "../../web/page-budget.js";
import { compactSnapshot, countRefs, SNAPSHOT_CHAR_LIMIT } from "./snapshot-text.js";

/**
 * The page's accessibility snapshot as upstream returns it: compact unless `full`, within 15,000 characters (the
 * head and tail of a longer one, the whole saved under HERMES_HOME/cache/web for read_file, as web_extract does),
 * and the number of refs it offers.
 */
export async function takeSnapshot(
  page: Page,
  full: boolean,
  home: string,
): Promise<{ snapshot: string; elementCount: number }> {
  const raw = await page.ariaSnapshot({ mode: "ai" });
  const text = full ? raw : compactSnapshot(raw);
  const fitted = fitToBudget(text, `${page.url()}#snapshot`, SNAPSHOT_CHAR_LIMIT, home);
  return { snapshot: fitted.text, elementCount: countRefs(text) };
}
