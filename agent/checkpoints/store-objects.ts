/**
 * Reading and writing the few git objects and refs a snapshot needs without starting a git process. Each git
 * process costs 15-30 ms on a loaded machine, and a snapshot must stay under 150 ms on 10,000 files, so the ref tip,
 * its tree, new commit objects and the index's entry sizes are handled here; anything unusual (a packed commit, a
 * SHA-256 store, index version 4) returns undefined and the caller asks git instead.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";

const SHA1 = /^[0-9a-f]{40}$/;

/** The commit a ref points at: its loose file, else its packed-refs line. Undefined when absent or unusual. */
export function readRef(store: string, ref: string): string | undefined {
  try {
    const loose = readFileSync(join(store, ...ref.split("/")), "utf8").trim();
    return SHA1.test(loose) ? loose : undefined;
  } catch {
    // Not loose: maybe packed by a gc.
  }
  try {
    for (const line of readFileSync(join(store, "packed-refs"), "utf8").split("\n")) {
      const [id, name] = line.split(" ");
      if (name === ref && id && SHA1.test(id)) return id;
    }
  } catch {
    // No packed refs either: the ref does not exist.
  }
  return undefined;
}

/**
 * Moves `ref` from `expected` (undefined = must not exist) to `id` by git's own loose-ref protocol: take
 * `<ref>.lock` exclusively (git and a Python Hermes use the same lock), check the current value, write, rename.
 * Returns false when it cannot decide (lock held, unexpected value, odd ref): the caller asks `git update-ref`,
 * which then reports the conflict properly. Bare stores keep no reflog, so there is none to append to.
 */
export function updateRefFile(store: string, ref: string, id: string, expected: string | undefined): boolean {
  const path = join(store, ...ref.split("/"));
  const lock = `${path}.lock`;
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(lock, "wx", 0o644);
  } catch {
    return false;
  }
  try {
    const current = readRef(store, ref);
    if (current !== expected || (expected === undefined && refMayExist(store, ref))) return false;
    writeSync(fd, `${id}\n`);
    closeSync(fd);
    fd = -1;
    renameSync(lock, path);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== -1) closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/** Whether the ref exists in any form (so "not found" from readRef means absent, not merely packed oddly). */
export function refMayExist(store: string, ref: string): boolean {
  if (existsSync(join(store, ...ref.split("/")))) return true;
  try {
    return readFileSync(join(store, "packed-refs"), "utf8").includes(` ${ref}\n`);
  } catch {
    return false;
  }
}

/** A loose object's body if it is of `type`; undefined when packed or missing. */
export function readLooseObject(store: string, id: string, type: string): Buffer | undefined {
  try {
    const raw = inflateSync(readFileSync(join(store, "objects", id.slice(0, 2), id.slice(2))));
    const nul = raw.indexOf(0);
    const [kind] = raw.toString("latin1", 0, nul).split(" ");
    return kind === type ? raw.subarray(nul + 1) : undefined;
  } catch {
    return undefined;
  }
}

/** The tree line of a commit body. */
export function treeOf(commitBody: Buffer): string | undefined {
  const match = /^tree ([0-9a-f]{40,64})\n/.exec(commitBody.toString("latin1", 0, 80));
  return match?.[1];
}

/** Writes a commit as a loose object (SHA-1 stores), as git would; returns its id. */
export function writeLooseCommit(store: string, body: Buffer): string {
  const object = Buffer.concat([Buffer.from(`commit ${body.length}\0`, "latin1"), body]);
  const id = createHash("sha1").update(object).digest("hex");
  const dir = join(store, "objects", id.slice(0, 2));
  const path = join(dir, id.slice(2));
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    // Aside then renamed, as git does, so no reader sees half an object.
    const temp = join(dir, `tmp_obj_hermes_${process.pid}_${id.slice(2, 12)}`);
    writeFileSync(temp, deflateSync(object), { mode: 0o444 });
    renameSync(temp, path);
  }
  return id;
}

/** git's identity line timestamp: seconds and the local offset, e.g. "1764600000 +0100". */
function gitDate(now: Date): string {
  const offset = -now.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const abs = Math.abs(offset);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
  return `${Math.floor(now.getTime() / 1000)} ${sign}${hhmm}`;
}

/**
 * The commit `git commit-tree <tree> [-p parent] -m <message>` makes in a store configured as upstream's
 * _init_store configures it (user.name "Hermes Checkpoint", user.email "hermes@local").
 */
export function commitBody(tree: string, parent: string | undefined, message: string, now = new Date()): Buffer {
  const who = `Hermes Checkpoint <hermes@local> ${gitDate(now)}`;
  const header = [`tree ${tree}`, ...(parent ? [`parent ${parent}`] : []), `author ${who}`, `committer ${who}`];
  return Buffer.from(`${header.join("\n")}\n\n${message.endsWith("\n") ? message : `${message}\n`}`, "utf8");
}

function sizeOnDisk(workTree: string, path: string): number {
  try {
    return lstatSync(join(workTree, ...path.split("/"))).size;
  } catch {
    return 0;
  }
}

/**
 * Paths staged with a size above `limit`, read from the index file itself (versions 2 and 3; undefined for 4 or
 * anything unexpected). The size is the one git recorded when it staged the file — exactly what was just added.
 */
export function oversizeInIndex(indexPath: string, workTree: string, limit: number): string[] | undefined {
  let data: Buffer;
  try {
    data = readFileSync(indexPath);
  } catch {
    return undefined;
  }
  if (data.length < 12 || data.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = data.readUInt32BE(8);
  const found: string[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + 62 > data.length) return undefined;
    const size = data.readUInt32BE(at + 36);
    const flags = data.readUInt16BE(at + 60);
    let pathStart = at + 62;
    // Version 3 entries with the extended flag carry two more flag bytes.
    if (version === 3 && flags & 0x4000) pathStart += 2;
    const pathEnd = data.indexOf(0, pathStart);
    if (pathEnd === -1) return undefined;
    const path = data.toString("utf8", pathStart, pathEnd);
    // Git records size 0 for "racily clean" entries (written in the index's own second): measure those afresh.
    if (size > limit || (size === 0 && sizeOnDisk(workTree, path) > limit)) found.push(path);
    // Entries are padded with 1-8 NULs to a multiple of 8 bytes from the entry start.
    const entryLength = pathEnd - at;
    at += (entryLength + 8) & ~7;
  }
  return found;
}
