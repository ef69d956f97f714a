import type { ParameterSchema, ToolParameters } from "./tool.js";

export type ParsedArguments =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: string };

/**
 * Parses a tool call's raw JSON arguments and checks them against the tool's schema: an object, required fields
 * present, top-level types and enums right. Failures are worded for the model so it can send the call again.
 * (Our schemas are flat and simple; a full JSON Schema engine would cost start-up time for nothing.)
 */
export function parseToolArguments(toolName: string, raw: string, schema: ToolParameters): ParsedArguments {
  let value: unknown;
  try {
    value = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch (error) {
    return {
      ok: false,
      error: `Invalid JSON in the arguments of ${toolName}: ${(error as Error).message}. Send the arguments again as one JSON object.`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      error: `The arguments of ${toolName} must be a JSON object, not ${Array.isArray(value) ? "an array" : typeof value}.`,
    };
  }
  const args = { ...(value as Record<string, unknown>) };
  const missing = (schema.required ?? []).filter((key) => args[key] === undefined || args[key] === null);
  if (missing.length > 0) {
    return {
      ok: false,
      error: `Missing required argument${missing.length > 1 ? "s" : ""} for ${toolName}: ${missing.join(", ")}.`,
    };
  }
  for (const [key, spec] of Object.entries(schema.properties)) {
    args[key] = coerce(args[key], spec);
    const problem = checkValue(args[key], spec);
    if (problem) return { ok: false, error: `Argument '${key}' of ${toolName} ${problem}.` };
  }
  return { ok: true, args };
}

/** Models often quote numbers and booleans ("offset": "10", "merge": "true"); accept what is unambiguous. */
function coerce(value: unknown, spec: ParameterSchema): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if ((spec.type === "integer" || spec.type === "number") && text !== "" && Number.isFinite(Number(text)))
    return Number(text);
  if (spec.type === "boolean" && (text === "true" || text === "false")) return text === "true";
  if ((spec.type === "array" || spec.type === "object") && /^[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return value;
}

function checkValue(value: unknown, spec: ParameterSchema): string | undefined {
  if (value === undefined || value === null) return undefined;
  switch (spec.type) {
    case "string":
      if (typeof value !== "string") return `must be a string`;
      if (spec.enum && !spec.enum.includes(value)) return `must be one of ${spec.enum.map((e) => `'${e}'`).join(", ")}`;
      return undefined;
    case "integer":
      return Number.isInteger(value) ? undefined : "must be a whole number";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "array":
      return Array.isArray(value) ? undefined : "must be an array";
    case "object":
      return typeof value === "object" && !Array.isArray(value) ? undefined : "must be an object";
  }
}
