import { resolve } from "node:path";
import type { Database } from "sql.js";
import { activeProfileName, existingProfileHome, hermesRoot, listProfiles } from "../../config/hermes-profiles.js";
import { hasSessionStore, openSessionStoreReadOnly } from "../../store/read-only-store.js";
import { withSessionLookup } from "../../store/session-lookup.js";
import { messageOwner, messagesAround, readSession } from "../../store/session-views.js";
import { type SessionDatabaseAccess, type ToolResult, toolError } from "../tool.js";
import { sessionLink } from "./session-links.js";
import { clampInt, parseInteger } from "./session-search-args.js";
import { CONTENT_CHARS, sessionMetaJson, shapeMessage } from "./session-search-json.js";

/** SCROLL window: default 5 each side, clamped to 1..20 (upstream). */
const DEFAULT_WINDOW = 5;
const MAX_WINDOW = 20;
/** READ: the head and tail of a long session (upstream). */
const READ_HEAD = 20;
const READ_TAIL = 10;

/** The session store one call works on: this profile's live store, or another profile's, read-only. */
export interface SearchTarget {
  readonly db: Database;
  /** HERMES_HOME of the profile searched. */
  readonly home: string;
  /** Its name, for links. */
  readonly profile: string;
  /** The caller's session, left out of results; none when another profile is searched (upstream). */
  readonly currentSessionId?: string;
  /** Releases a database opened for this call (another profile's); nothing for the live store. */
  close(): void;
}

/**
 * The store to search: this profile's (lent by the front end) unless `profile` names another, whose store is then
 * read from disk without writing to it. Throws a message for the model: a bad or missing profile, a store that
 * cannot be opened.
 */
export async function openSearchTarget(
  access: SessionDatabaseAccess,
  home: string,
  profile: string | undefined,
): Promise<SearchTarget> {
  const live = async (): Promise<Database> => {
    try {
      return await access.database();
    } catch (error) {
      throw new Error(`Could not open the session store: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  if (profile === undefined) {
    return {
      db: await live(),
      home,
      profile: activeProfileName(home),
      currentSessionId: access.currentSessionId,
      close: () => {},
    };
  }
  let named: { readonly name: string; readonly home: string };
  try {
    named = existingProfileHome(hermesRoot(home), profile);
  } catch (error) {
    throw new Error(`profile '${profile}': ${error instanceof Error ? error.message : String(error)}`);
  }
  // Naming the current profile reads the live store (it has this process's latest turns), still as a cross-profile read.
  if (resolve(named.home) === resolve(home)) return { db: await live(), home, profile: named.name, close: () => {} };
  let db: Database;
  try {
    db = await openSessionStoreReadOnly(named.home);
  } catch (error) {
    throw new Error(`profile '${named.name}': ${error instanceof Error ? error.message : String(error)}`);
  }
  return { db, home: named.home, profile: named.name, close: () => db.close() };
}

const json = (value: unknown): ToolResult => ({ content: JSON.stringify(value) });

/**
 * SCROLL: the messages around one message. Refused inside the caller's own conversation (it is already in the
 * context) unless the message has left the live history (compacted or undone). A message id from a descendant
 * of the named session is followed there with a warning, since forks and continuations are separate sessions.
 */
export function scrollShape(
  db: Database,
  requestedId: string,
  rawAnchor: unknown,
  rawWindow: unknown,
  target: SearchTarget,
): ToolResult {
  const anchor = parseInteger(rawAnchor);
  if (anchor === undefined) return toolError("scroll requires integer around_message_id");
  const window = clampInt(rawWindow, DEFAULT_WINDOW, 1, MAX_WINDOW);
  return withSessionLookup(db, (sessions) => {
    let sessionId = requestedId;
    const owner = messageOwner(db, anchor);
    if (target.currentSessionId !== undefined && owner?.active !== false) {
      if (sessions.root(owner?.sessionId ?? sessionId) === sessions.root(target.currentSessionId)) {
        return toolError(
          "scroll rejected: anchor lives in the current session lineage (already in your active context)",
        );
      }
    }
    let meta = sessions.row(sessionId);
    if (!meta) return toolError(`session_id not found: ${sessionId}`);
    let slice = messagesAround(db, sessionId, anchor, window);
    let warning: string | undefined;
    if (
      !slice &&
      owner &&
      owner.sessionId !== sessionId &&
      sessions.root(owner.sessionId) === sessions.root(sessionId)
    ) {
      slice = messagesAround(db, owner.sessionId, anchor, window);
      if (slice) {
        warning = `around_message_id ${anchor} lives in ${owner.sessionId} (child of ${sessionId}); rebound transparently`;
        sessionId = owner.sessionId;
        meta = sessions.row(sessionId) ?? meta;
      }
    }
    if (!slice) return toolError(`around_message_id ${anchor} not in session_id ${sessionId}`);
    return json({
      success: true,
      mode: "scroll",
      session_id: sessionId,
      around_message_id: anchor,
      session_meta: sessionMetaJson(meta),
      window,
      messages: slice.messages.map((m) => shapeMessage(m, CONTENT_CHARS.scroll, anchor)),
      messages_before: slice.before,
      messages_after: slice.after,
      link: sessionLink(sessionId, target.profile),
      ...(warning ? { warning } : {}),
    });
  });
}

/** READ: the whole session, or its first 20 and last 10 messages; undefined when this store has no such session. */
export function readShape(
  db: Database,
  sessionId: string,
  target: Pick<SearchTarget, "profile">,
): ToolResult | undefined {
  const transcript = readSession(db, sessionId, READ_HEAD, READ_TAIL);
  if (!transcript) return undefined;
  return json({
    success: true,
    mode: "read",
    session_id: sessionId,
    link: sessionLink(sessionId, target.profile),
    session_meta: sessionMetaJson(transcript.session),
    message_count: transcript.total,
    truncated: transcript.truncated,
    messages: transcript.messages.map((m) => shapeMessage(m, CONTENT_CHARS.read)),
    ...(transcript.truncated
      ? {
          message: `Session has ${transcript.total} messages; showing first ${READ_HEAD} + last ${READ_TAIL}. Pass around_message_id (any id above) to scroll the middle.`,
        }
      : {}),
  });
}

/**
 * READ of an id the searched profile does not have: a model often drops the profile from a link, so every other
 * profile's store is looked in (read-only) and the session is read from the one that has it, tagged with
 * `profile`. Only on a miss, so the cost of opening other stores is never paid by a normal read.
 */
export async function locateAndRead(home: string, searchedHome: string, sessionId: string): Promise<ToolResult> {
  for (const profile of listProfiles(hermesRoot(home))) {
    if (resolve(profile.home) === resolve(searchedHome) || !(await hasSessionStore(profile.home))) continue;
    let db: Database;
    try {
      db = await openSessionStoreReadOnly(profile.home);
    } catch {
      continue; // an unreadable store elsewhere does not make this read fail
    }
    try {
      const found = readShape(db, sessionId, { profile: profile.name });
      if (found)
        return {
          content: JSON.stringify({ ...(JSON.parse(found.content) as Record<string, unknown>), profile: profile.name }),
        };
    } finally {
      db.close();
    }
  }
  return toolError(`session_id not found: ${sessionId}`);
}
