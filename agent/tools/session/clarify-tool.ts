import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import { shorten, str } from "../describe-call.js";
import { toolError } from "../tool.js";

export const clarifyTool = defineTool({
  name: "clarify",
  toolsets: ["clarify"],
  kind: "other",
  blockedInSubagents: true,
  description:
    "Ask the user a question when you cannot proceed without their decision (ambiguous requirements, a choice " +
    "between approaches with real trade-offs). Offer choices when there are a few clear options. Do not use it " +
    "for things you can find out yourself by reading the code or running a command.",
  interactive: true,
  parameters: () =>
    z.object({
      question: z.string().describe("The question, self-contained."),
      choices: z.array(z.string()).optional().describe("Up to 6 short options for the user to pick from."),
    }),
  describe: (args) => ({ title: `Ask: ${shorten(str(args?.question))}`, locations: [] }),
  async run(args, ctx) {
    const question = args.question.trim();
    if (!question) return toolError("The question is empty.");
    const choices = Array.isArray(args.choices)
      ? args.choices
          .map(String)
          .filter((c) => c.trim())
          .slice(0, 6)
      : [];
    if (!ctx.approver.canAsk) {
      return toolError(
        "clarify is not available here: this front end cannot ask the user questions mid-turn. Put the question in your reply and end the turn; the user will answer in their next message.",
      );
    }
    const answer = await ctx.approver.clarify({ toolCallId: ctx.toolCallId, question, choices }, ctx.signal);
    if (answer === undefined) {
      return {
        content: JSON.stringify({
          question,
          answer: null,
          note: "The user dismissed the question. Proceed with your best judgement or ask in your reply.",
        }),
      };
    }
    return { content: JSON.stringify({ question, answer }) };
  },
});
