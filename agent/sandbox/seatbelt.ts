import type { SandboxPolicy } from "./sandbox-policy.js";

/**
 * The policy as a Seatbelt profile for macOS's `sandbox-exec -p`. In SBPL the last matching rule wins, so the
 * profile allows everything, then denies every write, allows the writable folders, denies the protected paths
 * inside them again, and finally denies reading or writing credentials. /dev/null, /dev/tty and the standard
 * descriptors stay writable (every shell needs them).
 */
export function seatbeltProfile(policy: SandboxPolicy): string {
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)"];
  const devices = [
    '(literal "/dev/null")',
    '(literal "/dev/zero")',
    '(literal "/dev/tty")',
    '(regex #"^/dev/fd/")',
    '(regex #"^/dev/tty")',
  ];
  const writable = policy.privateTmp ? [] : policy.writable.map(subpath);
  // Read-only mode: no private temp folder on macOS; the per-user temp folder stays writable so compilers work.
  const temp = policy.privateTmp ? [subpath(policy.tmp)] : [];
  lines.push(`(allow file-write* ${[...devices, ...writable, ...temp].join(" ")})`);
  const protectedPaths = [...policy.readOnly, ...policy.readOnlyEmpty];
  if (protectedPaths.length > 0) lines.push(`(deny file-write* ${protectedPaths.map(subpath).join(" ")})`);
  if (policy.hidden.length > 0)
    lines.push(`(deny file-read* file-write* ${policy.hidden.map((h) => subpath(h.path)).join(" ")})`);
  if (policy.network === "deny") lines.push("(deny network-outbound (remote ip))", "(deny network-inbound (local ip))");
  return lines.join("\n");
}

function subpath(path: string): string {
  return `(subpath ${JSON.stringify(path)})`;
}
