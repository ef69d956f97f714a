import { homedir, tmpdir } from "node:os";
import { sandboxLauncher } from "../../sandbox/sandbox-launcher.js";
import { buildSandboxPolicy } from "../../sandbox/sandbox-policy.js";
import { probeSandbox } from "../../sandbox/sandbox-probe.js";
import type { ToolContext } from "../tool.js";

/** How one command is launched: inside the OS sandbox (`launcher` set), or not and why. */
export interface Containment {
  readonly launcher?: readonly string[];
  /** Why the command runs unconfined (no sandbox on this machine, or `terminal.sandbox: off`). */
  readonly unconfinedBecause?: string;
}

/**
 * Decides the containment of a command the agent runs in this session, and records on the session whether its
 * commands are contained (the gate applies its stricter rules when they are not). Every mode is contained, YOLO
 * included, unless the user turned the sandbox off; read-only mode gets a read-only file system with a private temp
 * folder, the others may write in the workspace, the temp folder, package caches and `terminal.sandbox.writable`.
 */
export async function containmentFor(ctx: ToolContext, cwd: string): Promise<Containment> {
  const settings = ctx.state.settings.sandbox;
  if (!settings.enabled) {
    ctx.state.sandboxed = false;
    return { unconfinedBecause: "terminal.sandbox is off in config.yaml" };
  }
  const sandbox = await probeSandbox();
  if (!sandbox.available) {
    ctx.state.sandboxed = false;
    return { unconfinedBecause: sandbox.reason };
  }
  ctx.state.sandboxed = true;
  const policy = buildSandboxPolicy({
    access: ctx.state.mode === "read_only" ? "read_only" : "workspace_write",
    workspaceRoot: ctx.workspace.root,
    home: homedir(),
    hermesHome: ctx.home,
    tmp: tmpdir(),
    network: settings.network,
    extraWritable: settings.writable,
  });
  return { launcher: sandboxLauncher(sandbox, policy, cwd) };
}
