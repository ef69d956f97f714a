/** The shapes upstream's web tools return to the model (key order is part of the contract: it reaches the model). */

/** One search result: upstream's title-first row with a 1-based position. */
export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly description: string;
  readonly position: number;
}

/** A page as a backend delivered it, before the budget, the scanner and the wrapping. */
export interface RawPage {
  /** The URL asked for (a backend may report the page under another, e.g. after a redirect). */
  readonly requestedUrl: string;
  readonly url: string;
  readonly title: string;
  readonly content: string;
  readonly error?: string;
  /** The page was longer than the byte cap and only its head was read. */
  readonly cutAtBytes?: number;
}

export function pageError(url: string, error: string): RawPage {
  return { requestedUrl: url, url, title: "", content: "", error };
}

/** Reads a JSON reply, or says in words why it is not one. */
export function parseJson(text: string, label: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: `Could not parse ${label} response as JSON` };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));
