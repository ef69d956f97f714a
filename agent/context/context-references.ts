import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { readBlockedError } from "../security/file-safety.js";
import { realpathOr } from "./fs-probe.js";
import { type Expansion, fileBlock, folderBlock, gitBlock } from "./reference-blocks.js";
import { type ContextReference, parseReferences } from "./reference-parser.js";
import { urlBlock } from "./url-block.js";

export interface ReferenceOptions {
  readonly cwd: string;
  readonly contextLength: number;
  readonly userHome: string;
  readonly hermesHome: string;
  readonly signal: AbortSignal;
  /** Where to look for references when `message` holds more than the user typed (attached files' text is never scanned). */
  readonly referenceText?: string;
}

export interface ExpandedMessage {
  readonly message: string;
  readonly expanded: boolean;
  /** Over the 50% budget: nothing was attached. */
  readonly blocked: boolean;
  readonly warnings: readonly string[];
  /** Files and folders the references named (they feed the subdirectory hints). */
  readonly paths: readonly string[];
}

const SENSITIVE_HOME_FILES = [
  ".ssh/authorized_keys",
  ".ssh/id_rsa",
  ".ssh/id_ed25519",
  ".ssh/config",
  ".bashrc",
  ".zshrc",
  ".profile",
  ".bash_profile",
  ".zprofile",
  ".netrc",
  ".pgpass",
  ".npmrc",
  ".pypirc",
];
const SENSITIVE_HOME_DIRS = [".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config/gh"];

/**
 * Expands `@file:`, `@folder:`, `@diff`, `@staged`, `@git:N` and `@url:` references in a prompt (hermes-behaviour.md
 * §5.2, with the [LATER] behaviour of keeping the tokens in place). Upstream's ACP adapter does not do this; ours
 * does, with the same workspace confinement, sensitive-path guard, and 25% warning / 50% refusal budgets.
 */
export async function expandContextReferences(message: string, options: ReferenceOptions): Promise<ExpandedMessage> {
  const refs = parseReferences(options.referenceText ?? message);
  if (refs.length === 0) return { message, expanded: false, blocked: false, warnings: [], paths: [] };
  const { hard, soft } = contextBudget(options.contextLength);
  const warnings: string[] = [];
  const blocks: string[] = [];
  const paths: string[] = [];
  let tokens = 0;
  for (const ref of refs) {
    const expansion = await expand(ref, options, hard, paths);
    if ("warning" in expansion) warnings.push(expansion.warning);
    else {
      blocks.push(expansion.block);
      tokens += expansion.tokens;
    }
  }
  if (tokens > hard) {
    return {
      message,
      expanded: false,
      blocked: true,
      warnings: [`@ context injection refused: ${tokens} tokens exceeds the 50% hard limit (${hard}).`],
      paths: [],
    };
  }
  if (tokens > soft)
    warnings.push(`@ context injection warning: ${tokens} tokens exceeds the 25% soft limit (${soft}).`);
  let out = message;
  if (warnings.length > 0) out += `\n\n--- Context Warnings ---\n${warnings.map((w) => `- ${w}`).join("\n")}`;
  if (blocks.length > 0) out += `\n\n--- Attached Context ---\n\n${blocks.join("\n\n")}`;
  return { message: out.trim(), expanded: blocks.length > 0 || warnings.length > 0, blocked: false, warnings, paths };
}

async function expand(
  ref: ContextReference,
  options: ReferenceOptions,
  hard: number,
  paths: string[],
): Promise<Expansion> {
  try {
    switch (ref.kind) {
      case "diff":
      case "staged":
      case "git":
        return await gitBlock(ref, options.cwd);
      case "url":
        return await urlBlock(ref, options.signal, options.hermesHome);
      case "file":
      case "folder": {
        const path = checkReferencePath(ref.target, options);
        if ("warning" in path) return { warning: `${ref.raw}: ${path.warning}` };
        if (!existsSync(path.path))
          return { warning: `${ref.raw}: ${ref.kind === "file" ? "file" : "folder"} not found` };
        paths.push(path.path);
        return ref.kind === "file"
          ? await fileBlock(ref, path.path, hard)
          : await folderBlock(ref, path.path, options.cwd);
      }
    }
  } catch (error) {
    return { warning: `${ref.raw}: ${(error as Error).message}` };
  }
}

/** What attached context may cost: over `soft` tokens the user is warned, over `hard` nothing is attached. */
export function contextBudget(contextLength: number): { readonly hard: number; readonly soft: number } {
  return { hard: Math.max(1, Math.floor(contextLength * 0.5)), soft: Math.max(1, Math.floor(contextLength * 0.25)) };
}

/** Resolves a referenced path inside the workspace, refusing credential files and Hermes internals (fail closed). */
export function checkReferencePath(
  target: string,
  options: Pick<ReferenceOptions, "cwd" | "userHome" | "hermesHome">,
): { path: string } | { warning: string } {
  let path = target.startsWith("~") ? join(options.userHome, target.slice(1)) : target;
  if (!isAbsolute(path)) path = join(options.cwd, path);
  path = resolve(path);
  try {
    if (existsSync(path)) path = realpathSync(path);
  } catch {
    return { warning: "path could not be verified against the credential deny-list and cannot be attached" };
  }
  const home = options.userHome;
  if (SENSITIVE_HOME_FILES.some((f) => path === join(home, f)) || path === join(options.hermesHome, ".env")) {
    return { warning: "path is a sensitive credential file and cannot be attached" };
  }
  const sensitiveDirs = [...SENSITIVE_HOME_DIRS.map((d) => join(home, d)), join(options.hermesHome, "skills", ".hub")];
  if (
    sensitiveDirs.some((d) => path === d || path.startsWith(`${d}/`)) ||
    readBlockedError(path, { hermesHome: options.hermesHome, home })
  ) {
    return { warning: "path is a sensitive credential or internal Hermes path and cannot be attached" };
  }
  const rel = relative(realpathOr(options.cwd), path);
  if (rel.startsWith("..") || isAbsolute(rel)) return { warning: "path is outside the allowed workspace" };
  return { path };
}
