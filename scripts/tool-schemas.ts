/**
 * Prints the built-in tools' JSON Schemas, `{ name: schema }`, as the providers get them. Run by esbuild.config.mjs
 * (bundled first, then by node), which puts the table into the server bundle (agent/tools/define-tool.ts): the first
 * turn of a process need not wait for zod to write them. The delegate tool is left out: its schema names the
 * session's toolsets.
 */
import { sessionTools } from "../agent/tools/registry.js";

process.stdout.write(JSON.stringify(Object.fromEntries(sessionTools().map((tool) => [tool.name, tool.parameters]))));
