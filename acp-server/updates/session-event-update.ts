import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { redactSecrets } from "../../agent/index.js";
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
    case "notice": {
      // Notices quote config problems and MCP servers' failures, which may carry a key: redacted like the log, here
      // on the way out rather than when the session opens (the first redaction compiles its patterns).
      const description = redactSecrets(event.description);
      if (asNotice) return { sessionUpdate: "notice", severity: "warning", title: event.title, description };
      return eventToUpdate({ type: "notice", title: event.title, message: description }, session.cwd)!;
    }
    case "title":
      return { sessionUpdate: "session_info_update", title: event.title, updatedAt: new Date().toISOString() };
    case "config_changed":
      return { sessionUpdate: "config_option_update", configOptions: configOptionsOf(session) };
  }
}
