/**
 * Writes blobs as one git pack (version 2) with its index (version 2), in two file writes. Used for a project's
 * first snapshot: git writes one loose object per file (and fast-import one small write per object), which costs
 * ~1.5 ms of system time per file on sandboxed kernels — 15 s for 10,000 files. The format is git's documented
 * pack format (Documentation/gitformat-pack.txt); SHA-1 stores only.
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";

const OBJ_BLOB = 3;

/** The pack object header: type and size, 4 bits then 7 bits per byte, high bit = more. */
function objectHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** git's blob id for `content`. */
export function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

interface Entry {
  id: Buffer;
  offset: number;
  crc: number;
}

/** Writes `blobs` into store/objects/pack as pack-<sha>.{pack,idx}; returns how many distinct blobs it stored. */
export function writeBlobPack(store: string, blobs: Iterable<Buffer>): number {
  const parts: Buffer[] = [];
  const entries: Entry[] = [];
  const seen = new Set<string>();
  let offset = 12;
  for (const content of blobs) {
    const hex = blobId(content);
    if (seen.has(hex)) continue;
    seen.add(hex);
    const packed = Buffer.concat([objectHeader(OBJ_BLOB, content.length), deflateSync(content)]);
    entries.push({ id: Buffer.from(hex, "hex"), offset, crc: crc32(packed) });
    parts.push(packed);
    offset += packed.length;
  }
  if (entries.length === 0) return 0;
  if (offset >= 0x80000000) throw new Error("pack too large for 32-bit offsets");
  const header = Buffer.alloc(12);
  header.write("PACK", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const body = Buffer.concat([header, ...parts]);
  const packSum = createHash("sha1").update(body).digest();
  const pack = Buffer.concat([body, packSum]);

  entries.sort((a, b) => Buffer.compare(a.id, b.id));
  const fanout = Buffer.alloc(256 * 4);
  let count = 0;
  for (let byte = 0, i = 0; byte < 256; byte++) {
    while (i < entries.length && (entries[i] as Entry).id[0] === byte) {
      i++;
      count++;
    }
    fanout.writeUInt32BE(count, byte * 4);
  }
  const crcs = Buffer.alloc(entries.length * 4);
  const offsets = Buffer.alloc(entries.length * 4);
  entries.forEach((entry, i) => {
    crcs.writeUInt32BE(entry.crc >>> 0, i * 4);
    offsets.writeUInt32BE(entry.offset, i * 4);
  });
  const idxBody = Buffer.concat([
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    fanout,
    ...entries.map((e) => e.id),
    crcs,
    offsets,
    packSum,
  ]);
  const idx = Buffer.concat([idxBody, createHash("sha1").update(idxBody).digest()]);

  const dir = join(store, "objects", "pack");
  mkdirSync(dir, { recursive: true });
  const name = `pack-${packSum.toString("hex")}`;
  // The pack first, then its index: git only looks at packs that have an index.
  for (const [ext, data] of [
    ["pack", pack],
    ["idx", idx],
  ] as const) {
    const temp = join(dir, `tmp_${name}_${process.pid}.${ext}`);
    writeFileSync(temp, data, { mode: 0o444 });
    renameSync(temp, join(dir, `${name}.${ext}`));
  }
  return entries.length;
}
