import * as z from "zod/v4";
import { defineTool } from "../define-tool.js";
import { browserPageResult, withPage } from "./browser-tool-support.js";

export const browserSnapshotTool = defineTool({
  name: "browser_snapshot",
  toolsets: ["browser"],
  kind: "read",
  description:
    "Get a text-based snapshot of the current page's accessibility tree. Returns interactive elements with ref IDs (like @e1, @e2) " +
    "for browser_click and browser_type. full=false (default): compact view with interactive elements. full=true: complete page " +
    "content. Snapshots over 15000 chars are truncated; when that happens the complete snapshot is saved to a file and the output " +
    "includes its path so you can page through the rest with read_file. Requires browser_navigate first. Note: browser_navigate " +
    "already returns a compact snapshot — use this to refresh after interactions that change the page, or with full=true for " +
    "complete content.",
  parameters: () =>
    z.object({
      full: z
        .boolean()
        .default(false)
        .describe(
          "If true, returns complete page content. If false (default), returns compact view with interactive elements only.",
        ),
    }),
  run: (args, ctx) =>
    withPage(
      ctx,
      async (page) => {
        const { takeSnapshot } = await import("./page-snapshot.js");
        const { snapshot, elementCount } = await takeSnapshot(page, args.full === true, ctx.home);
        return browserPageResult("browser_snapshot", { snapshot, element_count: elementCount }, snapshot);
      },
      "browser_snapshot",
    ),
});
