import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import { str } from "../describe-call.js";
import { browserFailure, browserPageResult, guarded, NO_PAGE } from "./browser-tool-support.js";
import { readOnlyRefusal } from "./read-only-gate.js";

/*
 * Upstream's browser_dialog: answers the JavaScript dialog the page holds open (page-dialogs.ts keeps it). Upstream
 * offers it only with a CDP backend; here every browser has one (Playwright's), so it comes with the other browser
 * tools, and its description leaves out upstream's paragraph on availability.
 *
 * Either answer lets the page's script go on, down the branch the answer picks (a prompt's text is sent, a confirm's
 * cancel runs): in read-only mode it asks first, as a click does.
 */

export const browserDialogTool = defineTool({
  name: "browser_dialog",
  toolsets: ["browser"],
  kind: "execute",
  description:
    "Respond to a native JavaScript dialog (alert / confirm / prompt / beforeunload) that is currently blocking the page.\n\n" +
    "**Workflow:** call ``browser_snapshot`` first — if a dialog is open, it appears in the ``pending_dialogs`` field with " +
    "``id``, ``type``, and ``message`` (the result of the click or key press that opened it shows it too). Then call this " +
    "tool with ``action='accept'`` or ``action='dismiss'``.\n\n" +
    "**Prompt dialogs:** pass ``prompt_text`` to supply the response string. Ignored for alert/confirm/beforeunload.\n\n" +
    "**Multiple dialogs:** if more than one dialog is queued (rare — happens when a second dialog fires while the first is " +
    "still open), pass ``dialog_id`` from the snapshot to disambiguate.",
  parameters: () =>
    z.object({
      action: z
        .enum(["accept", "dismiss"])
        .describe(
          "'accept' clicks OK / returns the prompt text. 'dismiss' clicks Cancel / returns null from prompt(). For " +
            "``beforeunload`` dialogs: 'accept' allows the navigation, 'dismiss' keeps the page.",
        ),
      prompt_text: z
        .string()
        .optional()
        .describe(
          "Response string for a ``prompt()`` dialog. Ignored for other dialog types. Defaults to empty string.",
        ),
      dialog_id: z
        .string()
        .optional()
        .describe(
          "Specific dialog to respond to, from ``browser_snapshot.pending_dialogs[].id``. Required only when multiple " +
            "dialogs are queued.",
        ),
    }),
  describe: (args) => ({ title: `dialog: ${str(args?.action)}`, locations: [] }),
  async run(args, ctx) {
    const session = await ctx.state.browser.running();
    if (!session?.openedPage) return browserFailure(NO_PAGE);
    return ctx.state.browser.use(() =>
      guarded(ctx.signal, async () => {
        // Nothing to answer: said before asking for an approval that would change nothing.
        if (session.dialogs.pending.length === 0) return browserFailure("no dialog is currently open");
        const refused = await readOnlyRefusal(ctx, `browser_dialog ${args.action}`);
        if (refused) return refused;
        const result = await session.dialogs.answer(
          args.action === "accept",
          args.prompt_text ?? undefined,
          args.dialog_id ?? undefined,
        );
        if (!result.ok) return browserFailure(result.error);
        return browserPageResult(
          "browser_dialog",
          { action: args.action, dialog: result.dialog },
          result.dialog.message,
        );
      }),
    );
  },
});
