import { bubblewrapArgs } from "./bubblewrap.js";
import type { SandboxPolicy } from "./sandbox-policy.js";
import type { SandboxAvailability } from "./sandbox-probe.js";
import { seatbeltProfile } from "./seatbelt.js";

/** The program and arguments to put before `bash -c <command>` so that it runs contained by `policy`. */
export function sandboxLauncher(
  sandbox: SandboxAvailability & { available: true },
  policy: SandboxPolicy,
  cwd: string,
): string[] {
  if (sandbox.kind === "seatbelt") return [sandbox.program, "-p", seatbeltProfile(policy)];
  return [sandbox.program, ...bubblewrapArgs(policy, cwd), "--"];
}
