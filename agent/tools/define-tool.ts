import * as z from "zod/v4";
import { plainDescription } from "./describe-call.js";
import type { DescribedArgs, Tool, ToolCallDescription, ToolContext, ToolParameters, ToolResult } from "./tool.js";

/**
 * Arguments as `run` receives them. The runner has checked every top-level argument against the schema (types,
 * enums, required ones present; agent/tools/validate-args.ts), so scalars are typed; an optional one may also be
 * null (models send it for "none"); the items of arrays and objects are not checked, as upstream's tools normalise
 * them themselves (a todo item without a status is pending).
 */
export type ToolArgs<S extends ToolSchema> = S extends z.ZodObject
  ? { readonly [K in keyof z.input<S>]: Checked<z.input<S>[K]> }
  : Readonly<Record<string, unknown>>;
type Checked<T> = T extends undefined
  ? undefined | null
  : T extends string | number | boolean
    ? T
    : T extends readonly unknown[]
      ? readonly unknown[]
      : Readonly<Record<string, unknown>>;

/**
 * A zod object for our own tools; a JSON Schema as it came for tools described elsewhere (an MCP server's), which
 * is passed on as given and checked the same way.
 */
export type ToolSchema = z.ZodObject | ToolParameters;

/** Everything a tool is, in one place: what the model is told, how a front end shows a call, and what it does. */
export interface ToolDefinition<N extends string, S extends ToolSchema> {
  readonly name: N;
  readonly toolsets: readonly [string, ...string[]];
  readonly kind: Tool["kind"];
  readonly description: string;
  /**
   * Gives the JSON Schema sent to providers, the checks the runner makes and the argument types `run` receives.
   * Our own tools give a function that builds the zod object: building fifteen of them when the engine loads cost
   * session/new ~15 ms (zod's own work and the garbage it leaves), and the schema is first needed by the first
   * model request.
   */
  readonly parameters: S | (() => S);
  /** Upstream's ACP title and the files touched; tools without one read as their name. */
  describe?(args: DescribedArgs, cwd: string): ToolCallDescription;
  describeResult?(result: ToolResult): string | undefined;
  run(args: ToolArgs<S>, ctx: ToolContext): Promise<ToolResult>;
  readonly interactive?: boolean;
  readonly untrustedOutput?: Tool["untrustedOutput"];
  readonly pathArguments?: Tool["pathArguments"];
  readonly blockedInSubagents?: boolean;
}

/** A tool made by `defineTool`, keeping its literal name so registries can type tables by `ToolName`. */
export type DefinedTool<N extends string = string> = Tool & { readonly name: N };

export function defineTool<const N extends string, S extends ToolSchema>(
  definition: ToolDefinition<N, S>,
): DefinedTool<N> {
  const { parameters, run, describe, ...rest } = definition;
  let schema: ToolParameters | undefined;
  return {
    ...rest,
    // Written on first use: a session builds its requests long after start-up, which need not pay for it.
    get parameters(): ToolParameters {
      schema ??= (typeof parameters === "function" ? builtSchema(definition.name) : undefined) ?? schemaOf(parameters);
      return schema;
    },
    describe: describe ?? ((args, cwd) => plainDescription(definition.name, args, cwd)),
    // The runner validated the arguments against the schema derived from `parameters` (see ToolArgs).
    run: (args, ctx) => run(args as ToolArgs<S>, ctx),
  };
}

/**
 * The built-in tools' JSON Schemas as the build wrote them (esbuild.config.mjs runs scripts/tool-schemas.ts on the
 * same sources): zod writing them cost the first turn after session/new ~15-20 ms on the 2-core machine this was
 * measured on. Only for tools whose schema a function builds (ours; their schemas do not depend on settings) and whose
 * name the build listed; run from the sources (tsx, tests) there is no table and zod writes every schema.
 */
declare const __HERMES_TOOL_SCHEMAS__: string | undefined;
let builtSchemas: Readonly<Record<string, ToolParameters>> | undefined;

function builtSchema(name: string): ToolParameters | undefined {
  if (typeof __HERMES_TOOL_SCHEMAS__ !== "string") return undefined;
  builtSchemas ??= JSON.parse(__HERMES_TOOL_SCHEMAS__) as Record<string, ToolParameters>;
  return builtSchemas[name];
}

function schemaOf(parameters: ToolSchema | (() => ToolSchema)): ToolParameters {
  const given = typeof parameters === "function" ? parameters() : parameters;
  return given instanceof z.ZodObject ? jsonSchemaOf(given) : given;
}

/** Zod's limits for a safe integer: implied by `integer`, and not what the schemas said before zod wrote them. */
const SAFE_BOUNDS = new Map([
  ["minimum", Number.MIN_SAFE_INTEGER],
  ["maximum", Number.MAX_SAFE_INTEGER],
]);

/**
 * The schema as providers get it: zod's JSON Schema of the accepted input (arguments with defaults stay optional),
 * without `$schema` (some providers refuse unknown top-level keywords) or the safe-integer bounds zod adds.
 */
export function jsonSchemaOf(schema: z.ZodObject): ToolParameters {
  const { $schema: _dropped, ...json } = z.toJSONSchema(schema, { io: "input" });
  return withoutSafeBounds(json) as ToolParameters;
}

function withoutSafeBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeBounds);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (SAFE_BOUNDS.get(key) === inner) continue;
    out[key] = withoutSafeBounds(inner);
  }
  return out;
}
