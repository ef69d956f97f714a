import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parse as parseDotenv } from "dotenv";

/** The values of HERMES_HOME/.env as the loader reads them (dotenv's parser); a missing file is empty. */
export function readDotenvValues(file: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}

/**
 * Sets `name=value` in a .env file, keeping every other line as it was (comments, order, blank lines). An existing
 * assignment of `name` is replaced in place and any later duplicate removed, so dotenv cannot read a stale one. The
 * file holds keys: it is written with mode 0600 (an existing file too), through a temporary file and a rename, so a
 * crash never leaves half of it. A .env that is a link is written where it points.
 */
export function setDotenvValue(file: string, name: string, value: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`'${name}' is not a variable name`);
  let text = "";
  let target = file;
  try {
    text = readFileSync(file, "utf8");
    target = realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(file), { recursive: true });
  }
  const assignment = `${name}=${quoted(value)}`;
  const sameName = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*[=:]`);
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  let replaced = false;
  const kept = lines.flatMap((line) => {
    if (!sameName.test(line)) return [line];
    if (replaced) return [];
    replaced = true;
    return [assignment];
  });
  if (!replaced) kept.push(assignment);
  const tmp = `${target}.tmp-${process.pid}`;
  writeFileSync(tmp, `${kept.join("\n")}\n`, { mode: 0o600 });
  // The mode above is narrowed by the umask, never widened; chmod makes sure no other user can read it.
  chmodSync(tmp, 0o600);
  renameSync(tmp, target);
}

/**
 * A value as dotenv reads it back unchanged: bare when it has nothing dotenv would interpret (`#` starts a comment,
 * quotes and spaces are stripped), else single-quoted (taken literally), else double-quoted.
 */
function quoted(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error("a .env value cannot span lines");
  if (/^[A-Za-z0-9_\-.:+/=~@,%]*$/.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"') && !value.includes("\\")) return `"${value}"`;
  throw new Error("the value has both kinds of quote and cannot be written to .env");
}
