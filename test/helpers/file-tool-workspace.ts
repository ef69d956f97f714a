import { strict as assert } from "node:assert";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NON_INTERACTIVE_APPROVER } from "../../agent/tools/approver.js";
import { createFileTools } from "../../agent/tools/file/index.js";
import { SessionToolState } from "../../agent/tools/session-tool-state.js";
import type { ToolContext, ToolResult } from "../../agent/tools/tool.js";
import { LocalWorkspace } from "../../agent/workspace/local-workspace.js";
import { TempDirs } from "./temp-dirs.js";
import { toolSettings } from "./tool-env.js";

const settings = toolSettings();

export interface FileToolFolders {
  /** The workspace the file tools work in. */
  readonly root: string;
  readonly userHome: string;
  /** `userHome/.hermes`, created. */
  readonly hermesHome: string;
  /** The environment the file tools read (HERMES_WRITE_SAFE_ROOT); a test may add to it. */
  readonly env: Record<string, string>;
}

/**
 * Fresh folders for each file-tools test (`setUp` in beforeEach, `cleanup` in afterEach), and the file tools run in
 * them as the loop would, with nobody to answer a question.
 */
export class FileToolWorkspace {
  private readonly dirs = new TempDirs();
  private folders: FileToolFolders | undefined;

  setUp(): FileToolFolders {
    const root = this.dirs.make("hermes-ws-");
    const userHome = this.dirs.make("hermes-home-");
    const hermesHome = join(userHome, ".hermes");
    mkdirSync(hermesHome);
    this.folders = { root, userHome, hermesHome, env: {} };
    return this.folders;
  }

  cleanup(): void {
    this.dirs.cleanup();
  }

  private get current(): FileToolFolders {
    assert.ok(this.folders, "FileToolWorkspace.setUp was not called");
    return this.folders;
  }

  /** Runs the file tool `name` in the workspace, in accept-edits mode unless told otherwise. */
  readonly run = async (
    name: string,
    args: Record<string, unknown>,
    mode: "accept_edits" | "yolo" = "accept_edits",
  ): Promise<ToolResult> => {
    const { root, userHome, hermesHome, env } = this.current;
    const tool = createFileTools({ userHome, env }).find((t) => t.name === name);
    assert.ok(tool, `tool ${name}`);
    const ctx: ToolContext = {
      workspace: new LocalWorkspace(root),
      approver: NON_INTERACTIVE_APPROVER,
      signal: new AbortController().signal,
      toolCallId: "call-1",
      home: hermesHome,
      state: Object.assign(new SessionToolState("s1", settings), { mode }),
      progress: () => {},
    };
    return tool.run(args, ctx);
  };

  /** The text of a file in the workspace. */
  readonly file = (relative: string): string => readFileSync(join(this.current.root, relative), "utf8");
}
