import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AcpSession } from "../session/acp-session.js";
import { configOptionsOf } from "../session/session-config.js";
import type { SessionEvent } from "../session/session-events.js";
import { eventToUpdate } from "./event-to-update.js";

/**
 * The `session/update` a session event becomes. A notice is an ACP `notice` where the client shows those apart
 * (`asNotice`, when the session opens); within a reply it is a message chunk like the engine's notices, which every
 * client renders.
 */
export function sessionEventUpdate(event: SessionEvent, session: AcpSession, asNotice: boolean): SessionUpdate {
  switch (event.type) {
    case "notice":
      if (asNotice)
        return { sessionUpdate: "notice", severity: "warning", title: event.title, description: event.description };
      return eventToUpdate({ type: "notice", title: event.title, message: event.description }, session.cwd)!;
    case "title":
      return { sessionUpdate: "session_info_update", title: event.title, updatedAt: new Date().toISOString() };
    case "config_changed":
      return { sessionUpdate: "config_option_update", configOptions: configOptionsOf(session) };
  }
}
