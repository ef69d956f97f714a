import * as vscode from "vscode";
import { contextMatches } from "../editor-context/context-mentions.js";
import { chatHtml } from "./chat-html.js";
import type { ChatSession } from "./chat-session.js";
import { type HostRequestHandlers, WebviewBridge } from "./webview-bridge.js";
import { openLink, openLocation, searchWorkspaceFiles } from "./workspace-links.js";

/**
 * A chat webview (the sidebar view, or a chat in an editor tab) bound to its session: the page with its CSP, the
 * typed bridge, and the session's notifications followed. The webview is a renderer only; the session holds the truth.
 */
export function bindChatWebview(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  session: ChatSession,
  log: vscode.OutputChannel,
): vscode.Disposable {
  const assets = vscode.Uri.joinPath(extensionUri, "dist", "webview");
  webview.options = { enableScripts: true, localResourceRoots: [assets] };
  const bridge = new WebviewBridge(webview, chatRequestHandlers(session, log), (message) => log.appendLine(message));
  webview.html = chatHtml(webview, assets);
  const subscription = session.subscribe((method, params) => bridge.notify(method, params));
  return {
    dispose: () => {
      subscription.dispose();
      bridge.dispose();
    },
  };
}

/** What the chat page may ask of the extension host. */
function chatRequestHandlers(session: ChatSession, log: vscode.OutputChannel): HostRequestHandlers {
  return {
    "view/ready": () => {
      // The server starts with the view, so commands and pickers are there before the first prompt.
      void session.connect().catch((error: Error) => log.appendLine(`Hermes server did not start: ${error.message}`));
      return session.snapshot;
    },
    "chat/prompt": ({ text, replaces }) => {
      // The turn runs on; the request only says it started. Failures become notices in the transcript; a retry
      // or resend that cannot start throws at once, and the view shows why.
      void (replaces ? session.resend(replaces, text) : session.prompt(text)).catch(() => undefined);
    },
    "chat/retry": () => void session.retry().catch(() => undefined),
    "checkpoint/restore": ({ itemId }) => session.restoreCheckpoint(itemId),
    "setup/start": ({ itemId, how }) => session.setup.start(itemId, how),
    "chat/cancel": () => session.cancel(),
    "chat/new": () => session.newChat(),
    "permission/answer": ({ itemId, optionId }) => session.permissions.answer(itemId, optionId),
    "review/decide": ({ proposalId, accept }) => session.review.decide(proposalId, accept),
    "review/openDiff": ({ proposalId }) => session.review.openDiff(proposalId),
    "open/location": ({ path, line }) => openLocation(path, line),
    "open/link": ({ href }) => openLink(href),
    // Editor context first (@problems, @terminal, @symbol:…), then files; a symbol query is not a file name.
    "files/search": async ({ query }) => ({
      files: [
        ...(await contextMatches(query)),
        ...(query.trim().toLowerCase().startsWith("symbol:") ? [] : await searchWorkspaceFiles(query)),
      ],
    }),
    "attachments/addFile": ({ uri }) => void session.attachments.addFile(vscode.Uri.parse(uri)),
    "attachments/addActive": () => {
      if (!session.attachments.addActive()) throw new Error("Open a file in the editor to attach it.");
    },
    "attachments/addImage": ({ name, mimeType, data }) => void session.attachments.addImage(name, mimeType, data),
    "attachments/remove": ({ id }) => session.attachments.remove(id),
    "config/set": ({ pickerId, value }) => session.setConfigOption(pickerId, value),
    "sessions/list": async () => ({ sessions: await session.listSessions() }),
    "sessions/open": async ({ sessionId }) => {
      const known = (await session.listSessions()).find((s) => s.sessionId === sessionId);
      await session.openSession(sessionId, known?.title);
    },
  };
}
