import type { ContentBlock } from "@agentclientprotocol/sdk";

/**
 * Local file paths an ACP prompt names: `resource_link` blocks (the active editor, attached files) and embedded
 * `resource` blocks (selections), when their URI is a local file. Other URIs are ignored.
 */
export function promptFilePaths(blocks: readonly ContentBlock[]): string[] {
  const paths: string[] = [];
  for (const block of blocks) {
    const uri = block.type === "resource_link" ? block.uri : block.type === "resource" ? block.resource.uri : undefined;
    const path = uri ? pathFromFileUri(uri) : undefined;
    if (path) paths.push(path);
  }
  return paths;
}

/**
 * Upstream's `_path_from_file_uri`: a `file://` URI (local host only) or a bare path, as a local path; undefined for
 * other schemes. Windows drive forms (Zed launched through wsl.exe sends `file:///C:/…` or `C:\…`) become
 * `/mnt/<drive>/…`, where WSL mounts them.
 */
export function pathFromFileUri(uri: string): string | undefined {
  const raw = uri.trim();
  if (!raw) return undefined;
  let path: string;
  if (/^[A-Za-z]:[/\\]/.test(raw)) {
    path = raw;
  } else if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) {
    if (!/^file:/i.test(raw)) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return undefined;
    }
    if (url.hostname && url.hostname !== "localhost") return undefined;
    path = safeDecode(url.pathname);
  } else {
    path = safeDecode(raw);
  }
  const drive = /^\/?([A-Za-z]):(?:[/\\]|$)(.*)$/s.exec(path);
  if (!drive) return path;
  const rest = drive[2]!.replace(/^[/\\]+/, "").replace(/\\/g, "/");
  return process.platform === "win32" ? `${drive[1]}:/${rest}` : `/mnt/${drive[1]!.toLowerCase()}/${rest}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
