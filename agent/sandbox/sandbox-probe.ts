import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { rememberedWorking, rememberWorking } from "./sandbox-probe-cache.js";

export type SandboxKind = "bubblewrap" | "seatbelt";

export type SandboxAvailability =
  | { readonly available: true; readonly kind: SandboxKind; readonly program: string }
  | { readonly available: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 5000;
let cached: Promise<SandboxAvailability> | undefined;

/**
 * Whether this machine can contain commands, found once per process (~10 ms, off the start-up path: the first
 * command or the first session asks). Linux: bubblewrap, tried for real, since a kernel or container that refuses
 * user namespaces only shows when bwrap runs. macOS: sandbox-exec. `HERMES_BWRAP` names another bwrap binary.
 * A success is remembered across processes (sandbox-probe-cache.ts), so a later server does not spawn it again.
 */
export function probeSandbox(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<SandboxAvailability> {
  cached ??= detect(env);
  return cached;
}

async function detect(env: Readonly<Record<string, string | undefined>>): Promise<SandboxAvailability> {
  if (process.platform === "darwin") {
    const program = "/usr/bin/sandbox-exec";
    const failure = await tryRemembered(program, ["-p", "(version 1)(allow default)", "/usr/bin/true"]);
    return failure === undefined
      ? { available: true, kind: "seatbelt", program }
      : { available: false, reason: `sandbox-exec does not run: ${failure}` };
  }
  if (process.platform !== "linux")
    return { available: false, reason: `no OS sandbox is supported on ${process.platform}` };
  const program = env.HERMES_BWRAP?.trim() || findOnPath("bwrap", env.PATH ?? "");
  if (!program)
    return { available: false, reason: "bubblewrap (bwrap) is not installed; install the bubblewrap package" };
  const failure = await tryRemembered(program, [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-pid",
    "--die-with-parent",
    "true",
  ]);
  return failure === undefined
    ? { available: true, kind: "bubblewrap", program }
    : {
        available: false,
        reason: `bubblewrap cannot create a sandbox here (${failure}); the kernel may refuse unprivileged user namespaces`,
      };
}

/** tryRun, unless this program was seen to work here before; a success is remembered. */
async function tryRemembered(program: string, args: readonly string[]): Promise<string | undefined> {
  if (rememberedWorking(program)) return undefined;
  const failure = await tryRun(program, args);
  if (failure === undefined) rememberWorking(program);
  return failure;
}

function tryRun(program: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      resolve(error ? String(stderr).trim().split("\n")[0] || error.message : undefined);
    });
  });
}

function findOnPath(name: string, path: string): string | undefined {
  for (const dir of [...path.split(delimiter), "/usr/bin", "/usr/local/bin", "/bin"]) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** For tests: forget the answer, so the next probe looks again. */
export function forgetSandboxProbe(): void {
  cached = undefined;
}
