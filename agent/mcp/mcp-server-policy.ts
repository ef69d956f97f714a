import type { McpServerPolicy, McpStdioServerSpec } from "./mcp-server-spec.js";

/**
 * `tools.include` / `tools.exclude` of a config.yaml entry, on the server's own tool names, as upstream: with
 * `include`, only those; else all but `exclude`.
 */
export function offeredTools<T extends { readonly name: string }>(tools: readonly T[], policy?: McpServerPolicy): T[] {
  const { include, exclude } = policy ?? {};
  if (include) return tools.filter((tool) => include.includes(tool.name));
  if (exclude) return tools.filter((tool) => !exclude.includes(tool.name));
  return [...tools];
}

/** Upstream's variables a config.yaml stdio server inherits: none that could hold a key. */
const SAFE_VARIABLES = new Set(["PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR"]);
/** The Windows ones launchers need (upstream's list, compared case-insensitively). */
const SAFE_WINDOWS_VARIABLES = new Set(
  "ALLUSERSPROFILE APPDATA COMMONPROGRAMFILES COMMONPROGRAMFILES(X86) COMMONPROGRAMW6432 COMPUTERNAME COMSPEC HOMEDRIVE HOMEPATH LOCALAPPDATA NUMBER_OF_PROCESSORS OS PATHEXT PROCESSOR_ARCHITECTURE PROGRAMDATA PROGRAMFILES PROGRAMFILES(X86) PROGRAMW6432 PUBLIC SYSTEMDRIVE SYSTEMROOT TEMP TMP USERDOMAIN USERNAME USERPROFILE WINDIR".split(
    " ",
  ),
);

/**
 * A stdio server's environment. The editor's servers get the agent's whole environment (the editor's, which they
 * expect); config.yaml's get upstream's filtered one, so the provider keys this agent holds never reach a server the
 * user only meant to give its own `env`.
 */
export function stdioEnvironment(
  spec: McpStdioServerSpec,
  parent: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (spec.environment !== "safe" || isSafeVariable(key)) env[key] = value;
  }
  for (const { name, value } of spec.env ?? []) env[name] = value;
  return env;
}

function isSafeVariable(name: string): boolean {
  return SAFE_VARIABLES.has(name) || SAFE_WINDOWS_VARIABLES.has(name.toUpperCase()) || name.startsWith("XDG_");
}
