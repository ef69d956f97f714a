import type { SandboxPolicy } from "./sandbox-policy.js";

/**
 * The policy as bubblewrap arguments (Linux). The whole file system is mounted read-only, then the writable folders
 * on top, then what stays read-only inside them, then the credentials hidden: later mounts win, so the order is the
 * policy. A fresh /dev (no disks), a fresh /proc in a new PID namespace (the command sees and signals no other
 * process), and the sandbox dies with the server. No `--new-session`: it would move the command out of the process
 * group that cancel and timeouts kill (the namespace's init ignores SIGTERM, so a kill racing bwrap's start-up left
 * the command running); local commands already have no controlling terminal to inject keystrokes into (spawned
 * detached, so in a session of their own), and an editor's ACP terminal belongs to that one command.
 */
export function bubblewrapArgs(policy: SandboxPolicy, cwd: string): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  if (policy.privateTmp) {
    args.push("--tmpfs", "/tmp");
    if (policy.tmp !== "/tmp") args.push("--tmpfs", policy.tmp);
    for (const path of policy.keepVisible) args.push("--ro-bind", path, path);
  }
  for (const path of policy.writable) args.push("--bind", path, path);
  for (const path of policy.readOnly) args.push("--ro-bind", path, path);
  for (const path of policy.readOnlyEmpty) args.push("--tmpfs", path, "--remount-ro", path);
  for (const { path, isDirectory } of policy.hidden) {
    if (isDirectory) args.push("--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  if (policy.network === "deny") args.push("--unshare-net");
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--chdir", cwd);
  return args;
}
