import { strict as assert } from "node:assert";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JournalWriter, readJournal } from "../../agent/store/journal.js";
import { TempDirs } from "../helpers/temp-dirs.js";

/** The session of each record the file holds, in order. */
const sessionIdsIn = async (file: string) =>
  (await readJournal(file, 0)).records.map((r) => (r.t === "meta" ? r.sessionId : "?"));

const meta = (sessionId: string) => ({ t: "meta" as const, sessionId, title: `title of ${sessionId}`, updatedAt: 1 });

describe("journal writer: one open file, lines in order", () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  /** A writer whose file is in a folder of its own, which a test may remove. */
  const writerInFolder = () => {
    const dir = join(dirs.make(), "journal");
    mkdirSync(dir);
    const file = join(dir, "server.ndjson");
    return { dir, file, writer: new JournalWriter(file) };
  };

  it("has every appended line in the file once flushed, at the offsets append returned", async () => {
    const file = join(dirs.make(), "server.ndjson");
    const writer = new JournalWriter(file);
    const offsets = ["a", "b", "c"].map((id) => writer.append(meta(id)));
    await writer.flushed();
    assert.equal(statSync(file).size, offsets[2]);
    assert.deepEqual(await sessionIdsIn(file), ["a", "b", "c"]);
    // A reader that stopped after the first line picks up from its offset.
    const rest = await readJournal(file, offsets[0]!);
    assert.equal(rest.records.length, 2);
    writer.close();
  });

  it("notices its open file removed under it, reports it, and keeps offsets true to the file made again", async () => {
    const { dir, file, writer } = writerInFolder();
    writer.append(meta("before"));
    // Not closed: the folder goes while the file is open (another server took this one for dead, or a user cleaned up).
    rmSync(dir, { recursive: true });
    writer.append(meta("during"));
    await assert.rejects(writer.flushed(), /ENOENT/, "a record that went nowhere is reported");
    mkdirSync(dir);
    const end = writer.append(meta("after"));
    await writer.flushed();
    assert.equal(end, statSync(file).size, "the offset is the new file's length, not the old one's");
    assert.deepEqual(await sessionIdsIn(file), ["after"]);
    writer.close();
  });

  it("ends a line a failed write left unfinished before the next record", async () => {
    const file = join(dirs.make(), "server.ndjson");
    writeFileSync(file, '{"t":"meta","sessionId":"whole","updatedAt":1}\n{"t":"meta","sessio');
    const writer = new JournalWriter(file);
    const end = writer.append(meta("next"));
    await writer.flushed();
    assert.equal(end, statSync(file).size);
    assert.deepEqual(await sessionIdsIn(file), ["whole", "next"]);
    writer.close();
  });

  it("reports a write that failed (its folder gone) once, and writes again when the folder is back", async () => {
    const { dir, file, writer } = writerInFolder();
    writer.append(meta("before"));
    writer.close();
    rmSync(dir, { recursive: true });
    const sizeBefore = writer.size;
    assert.equal(writer.append(meta("lost")), sizeBefore, "a line not written moves no offset");
    await assert.rejects(writer.flushed(), /ENOENT/);
    await writer.flushed();
    mkdirSync(dir);
    writer.append(meta("after"));
    await writer.flushed();
    assert.deepEqual(await sessionIdsIn(file), ["after"]);
    writer.close();
  });
});
