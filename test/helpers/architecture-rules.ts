/**
 * The architecture's rules as data, for test/unit/architecture.test.ts: agent/'s floors (the table atop that test
 * says why each folder is where it is; keep the two in step), the one table of allowed imports derived from them, and
 * what the engine never imports.
 */

/** agent/'s folders by floor, lowest first. */
export const AGENT_FLOORS: readonly (readonly string[])[] = [
  ["workers"],
  ["config", "store"],
  ["security", "providers", "checkpoints"],
  ["sandbox", "web"],
  ["workspace"],
  ["context"],
  ["skills"],
  ["prompt"],
  ["tools"],
  ["compress", "mcp"],
  ["loop"],
  ["delegation"],
  ["session"],
];

/** agent/'s own files (index.ts and its side entries): the front door, above every floor. */
export const FRONT_DOOR = "agent/*.ts";

/** Which units each unit may import besides itself: agent/'s folders by their floors, the front door anything. */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = allowedByFloors(AGENT_FLOORS);

/** What agent/ never imports, whatever the floors say: the front ends, and the editor's API. */
export const ENGINE_NEVER_IMPORTS: readonly RegExp[] = [/^acp-server\//, /^extension\//, /^webview-ui\//, /^vscode$/];

function allowedByFloors(floors: readonly (readonly string[])[]): Record<string, readonly string[]> {
  const allowed: Record<string, readonly string[]> = {};
  const below: string[] = [];
  for (const floor of floors) {
    for (const folder of floor) allowed[`agent/${folder}`] = [...below];
    below.push(...floor.map((folder) => `agent/${folder}`));
  }
  allowed[FRONT_DOOR] = [...below];
  return allowed;
}

/** The unit a repository file belongs to: `agent/<folder>`, `agent/*.ts`, or its top-level folder. */
export function unitOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] !== "agent") return parts[0]!;
  return parts.length === 2 ? FRONT_DOOR : `agent/${parts[1]}`;
}
