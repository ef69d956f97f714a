import { strict as assert } from "node:assert";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { activeProfileName, hermesRoot } from "../../agent/config/hermes-profiles.js";
import { openDatabase } from "../../agent/store/schema.js";
import { SessionStore } from "../../agent/store/session-store.js";
import { parseSessionReference, sessionLink } from "../../agent/tools/session/session-links.js";
import { formatTimestamp } from "../../agent/tools/session/session-search-json.js";
import { sessionSearchTool } from "../../agent/tools/session/session-search-tool.js";
import type { SessionDatabaseAccess, ToolResult } from "../../agent/tools/tool.js";
import { addSession } from "../helpers/session-rows.js";
import { TempDirs } from "../helpers/temp-dirs.js";
import { runTool, toolEnvironment } from "../helpers/tool-env.js";

type Json = Record<string, unknown>;

describe("session links, profiles and times", () => {
  it("writes @session:<profile>/<id> links, bare when the profile cannot be named", () => {
    assert.equal(sessionLink("abc", "work"), "@session:work/abc");
    assert.equal(sessionLink("abc", "custom"), "@session:abc");
    assert.equal(sessionLink("abc", ""), "@session:abc");
  });

  it("reads a session_id given as an id, profile/id or a pasted link; an explicit profile wins", () => {
    assert.deepEqual(parseSessionReference("abc"), { sessionId: "abc" });
    assert.deepEqual(parseSessionReference(" work/abc "), { sessionId: "abc", profile: "work" });
    assert.deepEqual(parseSessionReference("@session:work/abc"), { sessionId: "abc", profile: "work" });
    assert.deepEqual(parseSessionReference("@session:abc"), { sessionId: "abc" });
    assert.deepEqual(parseSessionReference("work/abc", "home"), { sessionId: "abc", profile: "home" });
    assert.deepEqual(parseSessionReference("abc", " home "), { sessionId: "abc", profile: "home" });
    assert.deepEqual(
      parseSessionReference("abc/"),
      { sessionId: "abc/" },
      "nothing after the slash: not a profile/id pair",
    );
  });

  it("finds the Hermes root and the active profile like upstream", () => {
    const native = "/home/u/.hermes";
    assert.deepEqual([hermesRoot(native, native), activeProfileName(native, native)], [native, "default"]);
    assert.deepEqual(
      [hermesRoot(`${native}/profiles/work`, native), activeProfileName(`${native}/profiles/work`, native)],
      [native, "work"],
    );
    assert.equal(activeProfileName(`${native}/elsewhere`, native), "custom");
    assert.deepEqual(
      [hermesRoot("/opt/data", native), activeProfileName("/opt/data", native)],
      ["/opt/data", "default"],
    );
    assert.deepEqual(
      [hermesRoot("/opt/data/profiles/ops", native), activeProfileName("/opt/data/profiles/ops", native)],
      ["/opt/data", "ops"],
    );
  });

  it("formats times as upstream does (local time, 12-hour clock)", () => {
    const seconds = (d: Date) => d.getTime() / 1000;
    assert.equal(formatTimestamp(seconds(new Date(2023, 10, 4, 22, 13))), "November 04, 2023 at 10:13 PM");
    assert.equal(formatTimestamp(seconds(new Date(2026, 0, 1, 0, 5))), "January 01, 2026 at 12:05 AM");
    assert.equal(
      formatTimestamp(new Date(2026, 6, 24, 12, 0).getTime()),
      "July 24, 2026 at 12:00 PM",
      "milliseconds are recognised",
    );
    assert.equal(formatTimestamp(null), "unknown");
    assert.equal(formatTimestamp(Number.NaN), "unknown");
  });
});

describe("session_search across profiles", () => {
  const dirs = new TempDirs();
  let root: string;
  let workHome: string;
  let access: SessionDatabaseAccess;
  const call = (args: Json, home = root): Promise<ToolResult> =>
    runTool(sessionSearchTool, args, Object.assign(toolEnvironment(home, home), { sessions: access }));
  const body = async (args: Json, home?: string) => {
    const result = await call(args, home);
    assert.ok(!result.isError, result.content);
    return JSON.parse(result.content) as Json;
  };
  /** Every file under `dir` with its size and mtime, to show a read wrote nothing. */
  const snapshot = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .sort()
      .map((name) => {
        const s = statSync(join(dir, name));
        return `${name}:${s.size}:${s.mtimeMs}`;
      });

  before(async () => {
    root = dirs.make();
    workHome = join(root, "profiles", "work");
    // The work profile as its own server left it: one session compacted into the database file, one only in its journal.
    const store = await SessionStore.open(workHome);
    store.createSession({
      id: "w-compacted",
      cwd: "/srv/api",
      title: "Rate limiter design",
      createdAt: 1_700_000_000,
      updatedAt: 1_700_000_000,
    });
    store.appendMessages("w-compacted", [
      { seq: 0, role: "user", content: "design a token bucket rate limiter", timestamp: 1_700_000_000 },
    ]);
    await store.compact();
    store.createSession({
      id: "w-journal",
      cwd: "/srv/api",
      title: "Quarterly report",
      createdAt: 1_700_100_000,
      updatedAt: 1_700_100_000,
    });
    store.appendMessages("w-journal", [
      { seq: 0, role: "user", content: "draft the quarterly report on churn", timestamp: 1_700_100_000 },
      { seq: 1, role: "assistant", content: "Here is the churn summary.", timestamp: 1_700_100_060 },
    ]);
    await store.flushed();
    const db = await openDatabase();
    addSession(db, "mine", [{ content: "my own token bucket notes" }]);
    access = { database: async () => db, currentSessionId: "now" };
  });
  after(() => dirs.cleanup());

  it("READ follows an @session:<profile>/<id> link into that profile, read-only", async () => {
    const before = snapshot(workHome);
    const read = await body({ session_id: "@session:work/w-journal" });
    assert.deepEqual(
      [read.mode, read.session_id, read.link, read.message_count],
      ["read", "w-journal", "@session:work/w-journal", 2],
    );
    assert.equal((read.session_meta as Json).title, "Quarterly report");
    assert.equal(
      ((await body({ session_id: "w-compacted", profile: "Work" })).session_meta as Json).title,
      "Rate limiter design",
    );
    assert.deepEqual(snapshot(workHome), before, "nothing in the other profile was written");
  });

  it("READ of an id this profile lacks finds the profile that has it", async () => {
    const read = await body({ session_id: "w-compacted" });
    assert.deepEqual([read.profile, read.link], ["work", "@session:work/w-compacted"]);
    assert.equal((await call({ session_id: "nowhere" })).content, "session_id not found: nowhere");
  });

  it("DISCOVERY, SCROLL and BROWSE run on the named profile, with its links", async () => {
    const found = await body({ query: "token bucket", profile: "work" });
    assert.deepEqual(
      ((found.results as Json[]) ?? []).map((r) => [r.session_id, r.link]),
      [["w-compacted", "@session:work/w-compacted"]],
    );
    assert.deepEqual(
      ((await body({ query: "token bucket" })).results as Json[]).map((r) => [r.session_id, r.link]),
      [["mine", "@session:default/mine"]],
    );
    const anchor = (found.results as Json[])[0]!.match_message_id;
    assert.equal(
      (await body({ session_id: "work/w-compacted", around_message_id: anchor })).link,
      "@session:work/w-compacted",
    );
    assert.deepEqual(
      ((await body({ profile: "work" })).results as Json[]).map((r) => r.session_id),
      ["w-journal", "w-compacted"],
    );
  });

  it("names the running profile in its own links, and refuses bad or missing profiles with upstream's messages", async () => {
    // Run as the work profile (HERMES_HOME = <root>/profiles/work), whose live store is `access` here.
    assert.deepEqual(
      ((await body({ query: "token bucket" }, workHome)).results as Json[]).map((r) => r.link),
      ["@session:work/mine"],
    );
    assert.equal((await body({ session_id: "mine" }, workHome)).link, "@session:work/mine");
    assert.equal(
      (await call({ session_id: "x", profile: "../etc" })).content,
      "profile '../etc': Invalid profile name '../etc'. Must match [a-z0-9][a-z0-9_-]{0,63}",
    );
    assert.equal(
      (await call({ query: "x", profile: "nope" })).content,
      "profile 'nope': profile 'nope' does not exist",
    );
    assert.match((await call({ profile: "sudo" })).content, /^profile 'sudo': Profile name 'sudo' is reserved/);
  });
});
