import { homedir } from "node:os";
import { basename, sep } from "node:path";
import type { Env } from "./hermes-home.js";

/**
 * `${VAR}` in config.yaml strings, as upstream expands its `mcp_servers` entries: `${VAR}` and Cursor's `${env:VAR}`
 * come from the environment (the process over HERMES_HOME/.env), and Cursor's context variables (`${userHome}`,
 * `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}`, `${/}`) from the session. A variable with
 * no value keeps its placeholder, as upstream, and is named in `unset` so the user hears about it.
 */
export interface Expansion {
  readonly text: string;
  readonly unset: readonly string[];
}

/** Any characters but `}` inside the braces, as upstream, so `${MY-VAR}` and `${my.var}` work too. */
const PLACEHOLDER = /\$\{([^}]+)\}/g;

export function expandVariables(text: string, env: Env, workspaceFolder: string): Expansion {
  const unset: string[] = [];
  const expanded = text.replace(PLACEHOLDER, (placeholder, body: string) => {
    const inner = body.trim();
    const context = contextVariable(inner, workspaceFolder);
    if (context !== undefined) return context;
    const name = inner.startsWith("env:") ? inner.slice(4).trim() : inner;
    const value = env[name];
    if (value) return value;
    if (!unset.includes(name)) unset.push(name);
    return placeholder;
  });
  return { text: expanded, unset };
}

function contextVariable(name: string, workspaceFolder: string): string | undefined {
  switch (name) {
    case "userHome":
      return homedir();
    case "workspaceFolder":
      return workspaceFolder;
    case "workspaceFolderBasename":
      return basename(workspaceFolder) || workspaceFolder;
    case "pathSeparator":
    case "/":
      return sep;
    default:
      return undefined;
  }
}
