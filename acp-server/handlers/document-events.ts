import type * as acp from "@agentclientprotocol/sdk";
import type { NesCapabilities } from "@agentclientprotocol/sdk/experimental/nes";
import type { ServerContext } from "../rpc/server-context.js";

/**
 * The document events this server asks for (ACP's unstable `nes` capability): which files the user opens and looks
 * at feeds the session's subdirectory hints. `didChange` / `didSave` are not asked for: edits say nothing new about
 * which folders matter, and full-text change events would be the costliest traffic on the wire.
 */
export const DOCUMENT_EVENTS_CAPABILITY: NesCapabilities = {
  events: { document: { didOpen: {}, didFocus: {}, didClose: {} } },
};

interface DocumentRef {
  readonly sessionId: string;
  readonly uri: string;
}

interface FocusEvent extends DocumentRef {
  readonly line: number;
}

/**
 * The `sessionId` and `uri` of a document event, or undefined when they are missing or not strings. These are
 * notifications: malformed ones are dropped silently (a thrown parse error would be logged once per message, and
 * a misbehaving client can send thousands). The other fields (`text`, `languageId`, `version`) are not used.
 */
export function parseDocumentRef(params: unknown): DocumentRef | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const { sessionId, uri } = params as { sessionId?: unknown; uri?: unknown };
  return typeof sessionId === "string" && typeof uri === "string" ? { sessionId, uri } : undefined;
}

/** A `document/didFocus`'s document and cursor line (0-based), or undefined when malformed. */
export function parseFocusEvent(params: unknown): FocusEvent | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const { sessionId, uri, position } = params as {
    sessionId?: unknown;
    uri?: unknown;
    position?: { line?: unknown } | null;
  };
  const line = typeof position === "object" && position !== null ? position.line : undefined;
  if (typeof sessionId !== "string" || typeof uri !== "string" || !Number.isSafeInteger(line) || (line as number) < 0)
    return undefined;
  return { sessionId, uri, line: line as number };
}

type DocumentEventHandler = (ctx: ServerContext, params: unknown) => void;

// Events for unknown sessions, and malformed ones, are ignored: notifications never get an error reply.
const HANDLERS = new Map<string, DocumentEventHandler>([
  [
    "document/didFocus",
    (ctx, raw) => {
      const event = parseFocusEvent(raw);
      const moved = event && ctx.sessions.get(event.sessionId)?.documents.focused(event.uri, event.line);
      if (moved) ctx.log.debug(`editor focus: ${moved}`);
    },
  ],
  [
    "document/didOpen",
    (ctx, raw) => {
      const event = parseDocumentRef(raw);
      const path = event && ctx.sessions.get(event.sessionId)?.documents.opened(event.uri);
      if (path) ctx.log.debug(`editor opened: ${path}`);
    },
  ],
  [
    "document/didClose",
    (ctx, raw) => {
      const event = parseDocumentRef(raw);
      if (event) ctx.sessions.get(event.sessionId)?.documents.closed(event.uri);
    },
  ],
]);

/** Applies one document event; false when `method` is not one this server handles. */
export function handleDocumentEvent(ctx: ServerContext, method: string, params: unknown): boolean {
  const handler = HANDLERS.get(method);
  if (!handler) return false;
  handler(ctx, params);
  return true;
}

/**
 * Wires the document events into the SDK's dispatch. Over stdio most of them never get there (the input tap takes
 * them off the wire first, see document-event-tap.ts); these cover the rest. Registered before the session methods:
 * the SDK tries handlers in registration order, so a focus event is matched after a few comparisons.
 */
export function onDocumentEvents(app: acp.AgentApp, ctx: ServerContext): acp.AgentApp {
  for (const method of HANDLERS.keys())
    app.onNotification(
      method,
      (params: unknown) => params,
      ({ params }) => void handleDocumentEvent(ctx, method, params),
    );
  return app;
}
