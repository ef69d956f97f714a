import type { DiscoveryDetail } from "../../store/session-discovery.js";
import type { SearchSort } from "../../store/session-search.js";

/** Reading session_search's arguments as leniently as upstream does: numbers as strings, unknown values → defaults. */

const ROLES: readonly string[] = ["user", "assistant", "tool", "system"];
const DEFAULT_ROLES: readonly string[] = ["user", "assistant"];

/** A whole number from a number or a numeric string (Python's int()); undefined when it is not one. */
export function parseInteger(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value.trim());
  return undefined;
}

/** `value` as a whole number within [min, max]; `fallback` when it is not a number. */
export function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  const n = parseInteger(value);
  return n === undefined ? fallback : Math.min(max, Math.max(min, n));
}

/** role_filter as upstream's comma-separated string (or an array); unknown names dropped; nothing valid → user, assistant. */
export function parseRoles(value: unknown): string[] {
  const raw: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  const roles = raw
    .flatMap((r) => (typeof r === "string" ? [r.trim().toLowerCase()] : []))
    .filter((r) => ROLES.includes(r));
  return roles.length > 0 ? [...new Set(roles)] : [...DEFAULT_ROLES];
}

/** newest | oldest (any case); anything else keeps relevance order. */
export function parseSort(value: unknown): SearchSort {
  const sort = typeof value === "string" ? value.trim().toLowerCase() : "";
  return sort === "newest" || sort === "oldest" ? sort : "relevance";
}

export function parseDetail(value: unknown): DiscoveryDetail {
  return typeof value === "string" && value.trim().toLowerCase() === "full" ? "full" : "adaptive";
}

/** A string argument with something in it, trimmed. */
export const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;
