import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { isMap, isSeq, parseDocument } from "yaml";

/**
 * Adds `entry` to `command_allowlist` in config.yaml (the "always" answer to a command approval), keeping the
 * user's comments and layout. Written to a temporary file and renamed, so a crash never leaves half a config.
 * Throws when config.yaml cannot be parsed: the caller keeps the session approval and reports the failure.
 */
export function appendToCommandAllowlist(configPath: string, entry: string): void {
  let text = "";
  try {
    text = readFileSync(configPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new Error(`${configPath} has errors: ${doc.errors[0]!.message.split("\n")[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new Error(`${configPath}: the top level is not a mapping`);
  const existing = doc.get("command_allowlist", true);
  if (existing === undefined || existing === null) {
    doc.set("command_allowlist", doc.createNode([entry]));
  } else if (isSeq(existing)) {
    if (existing.items.some((item) => String((item as { value?: unknown }).value ?? item) === entry)) return;
    existing.add(doc.createNode(entry));
  } else {
    throw new Error(`${configPath}: command_allowlist is not a list`);
  }
  const tmp = `${configPath}.tmp-${process.pid}`;
  writeFileSync(tmp, doc.toString());
  renameSync(tmp, configPath);
}
