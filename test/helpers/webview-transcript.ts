import type { HostBridge } from "../../webview-ui/bridge.js";
import type { RenderContext } from "../../webview-ui/render/context.js";
import { Transcript } from "../../webview-ui/transcript.js";

/**
 * The chat page's transcript mounted in a jsdom document, with a bridge whose requests the test sees. jsdom has no
 * layout: the list window's resize observer gets one that observes nothing.
 */
export function mountTranscript(
  ctx: RenderContext,
  bridge: HostBridge,
  options: { editMessage?: (id: string) => void; reportError?: (message: string) => void } = {},
): Transcript {
  Object.assign(globalThis, {
    ResizeObserver: class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  });
  const transcript = new Transcript({
    ctx,
    bridge,
    requestRender: () => {},
    reportError:
      options.reportError ??
      ((message) => {
        throw new Error(message);
      }),
    editMessage: options.editMessage ?? (() => {}),
  });
  ctx.doc.body.replaceChildren(transcript.element);
  return transcript;
}
