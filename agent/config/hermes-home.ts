import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Environment as a plain read-only map (process.env merged with HERMES_HOME/.env). */
export type Env = Readonly<Record<string, string | undefined>>;

/** HERMES_HOME, or ~/.hermes as the Python original uses; `~` is expanded. */
export function resolveHermesHome(env: Env): string {
  const configured = env.HERMES_HOME?.trim();
  if (!configured) return join(homedir(), ".hermes");
  if (configured === "~") return homedir();
  if (configured.startsWith("~/")) return join(homedir(), configured.slice(2));
  return resolve(configured);
}

// The subset of upstream's layout that this agent uses; a Python Hermes install already has all of them.
const HOME_SUBDIRS = ["memories", "skills", "sessions", "logs"] as const;

/** Creates HERMES_HOME and its working folders on first use. Idempotent and cheap (a few mkdir calls). */
export function ensureHermesHome(home: string): void {
  for (const sub of HOME_SUBDIRS) mkdirSync(join(home, sub), { recursive: true });
}

export function configPathOf(home: string): string {
  return join(home, "config.yaml");
}

export function dotenvPathOf(home: string): string {
  return join(home, ".env");
}
