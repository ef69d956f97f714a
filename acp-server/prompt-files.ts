import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";

/**
 * Local file paths an ACP prompt names: `resource_link` blocks (the active editor, attached files) and embedded
 * `resource` blocks (selections), when their URI is a file:// URI. Other URIs are ignored.
 */
export function promptFilePaths(blocks: readonly ContentBlock[]): string[] {
  const paths: string[] = [];
  for (const block of blocks) {
    const uri = block.type === "resource_link" ? block.uri : block.type === "resource" ? block.resource.uri : undefined;
    if (!uri?.startsWith("file:")) continue;
    try {
      paths.push(fileURLToPath(uri));
    } catch {
      // a malformed file URI names nothing we can look at
    }
  }
  return paths;
}
