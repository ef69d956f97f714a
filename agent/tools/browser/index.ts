import { browserDialogTool } from "./browser-dialog-tool.js";
import { browserClickTool, browserPressTool, browserScrollTool, browserTypeTool } from "./browser-input-tools.js";
import { browserNavigateTool } from "./browser-navigate-tool.js";
import { browserBackTool, browserConsoleTool, browserGetImagesTool } from "./browser-page-tools.js";
import { browserSnapshotTool } from "./browser-snapshot-tool.js";
import { browserVisionTool } from "./browser-vision-tool.js";

/** Upstream's browser tools, in upstream's order (browser_cdp is not ported: see the README). */
export const BROWSER_TOOLS = [
  browserNavigateTool,
  browserSnapshotTool,
  browserClickTool,
  browserTypeTool,
  browserScrollTool,
  browserBackTool,
  browserPressTool,
  browserGetImagesTool,
  browserVisionTool,
  browserConsoleTool,
  browserDialogTool,
] as const;
