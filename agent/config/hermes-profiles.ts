import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/**
 * Hermes profiles, as the Python original lays them out: the default profile is the Hermes root (`~/.hermes`),
 * named profiles live in `<root>/profiles/<name>`, and HERMES_HOME points at the one in use. Only what
 * session_search needs to follow `@session:<profile>/<id>` links is here: naming, validation and locations.
 */

/** Profile ids on disk (upstream's _PROFILE_ID_RE). */
const PROFILE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Names upstream refuses for a named profile ("default" is the root, the rest collide with commands). */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["hermes", "default", "test", "tmp", "root", "sudo"]);

const nativeHermesHome = (): string => join(homedir(), ".hermes");

function isInside(child: string, parent: string): boolean {
  const rel = relative(resolve(parent), resolve(child));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The root holding every profile (upstream's get_default_hermes_root): `~/.hermes` when HERMES_HOME is at or under
 * it; otherwise `<root>` for a HERMES_HOME of `<root>/profiles/<name>`, else HERMES_HOME itself (Docker and custom
 * installs, where HERMES_HOME is the root).
 */
export function hermesRoot(home: string, nativeHome = nativeHermesHome()): string {
  if (isInside(home, nativeHome)) return resolve(nativeHome);
  const parent = dirname(resolve(home));
  return basename(parent) === "profiles" ? dirname(parent) : resolve(home);
}

/** The profile HERMES_HOME is: "default" (the root), a named profile, or "custom" (anything else). */
export function activeProfileName(home: string, nativeHome = nativeHermesHome()): string {
  const root = hermesRoot(home, nativeHome);
  const at = resolve(home);
  if (at === root) return "default";
  if (dirname(at) === join(root, "profiles") && PROFILE_ID.test(basename(at))) return basename(at);
  return "custom";
}

/** Lowercase, "default" in any case; an empty name is an error. */
export function normaliseProfileName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Error("profile name cannot be empty");
  return trimmed.toLowerCase() === "default" ? "default" : trimmed.toLowerCase();
}

/** Throws upstream's messages for a name that cannot be a profile id. */
export function validateProfileName(name: string): void {
  if (name === "default") return;
  if (!PROFILE_ID.test(name)) throw new Error(`Invalid profile name '${name}'. Must match [a-z0-9][a-z0-9_-]{0,63}`);
  if (RESERVED_NAMES.has(name)) {
    throw new Error(
      `Profile name '${name}' is reserved — it collides with either the Hermes installation itself or a common system binary.  Pick a different name.`,
    );
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The HERMES_HOME of profile `name` (already normalised and valid) under `root`. */
export function profileHome(root: string, name: string): string {
  return name === "default" ? root : join(root, "profiles", name);
}

/** The HERMES_HOME of an existing profile; throws (upstream's messages) for a bad name or a missing profile. */
export function existingProfileHome(root: string, profile: string): { readonly name: string; readonly home: string } {
  const name = normaliseProfileName(profile);
  validateProfileName(name);
  const home = profileHome(root, name);
  if (name !== "default" && !isDirectory(home)) throw new Error(`profile '${name}' does not exist`);
  return { name, home };
}

/** Every profile under `root`: default first, then the named ones in name order. */
export function listProfiles(root: string): Array<{ readonly name: string; readonly home: string }> {
  const profiles = [{ name: "default", home: root }];
  let names: string[] = [];
  try {
    names = readdirSync(join(root, "profiles")).sort();
  } catch {
    names = [];
  }
  for (const name of names) {
    const home = join(root, "profiles", name);
    if (name !== "default" && PROFILE_ID.test(name) && isDirectory(home)) profiles.push({ name, home });
  }
  return profiles;
}
