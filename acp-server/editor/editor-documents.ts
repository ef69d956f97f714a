import { dirname, isAbsolute, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

// Directories queued between two prompts. Each costs at most a few stat calls at the next prompt; past the cap the
// oldest is dropped, so a client that opens a whole repository cannot make that prompt slow.
const MAX_PENDING_DIRECTORIES = 256;
// URIs already decoded: focus events repeat the same few files, and decoding a file URL is the costliest step left.
const MAX_REMEMBERED_URIS = 128;

interface WorkspaceFile {
  readonly absolute: string;
  readonly directory: string;
  readonly relative: string;
}

/** Where the user's cursor is: a workspace-relative path and a 0-based line, as ACP positions are. */
export interface EditorFocus {
  readonly path: string;
  readonly line: number;
}

/** What the editor showed the user since the previous turn. */
export interface EditorNews {
  /** One file per directory the user opened or focused, oldest first: their folders' hints are due. */
  readonly paths: readonly string[];
  /** Where the user is looking, when that changed since the model was last told. */
  readonly focus: EditorFocus | undefined;
}

/**
 * One session's view of the editor, fed by ACP document events (`document/didOpen`, `didFocus`, `didClose`). Events
 * arrive in floods (every editor switch, every cursor move), so recording one does no disk work at all: the URI is
 * decoded, checked to lie inside the workspace by its text, and queued by directory, O(path length). The hint tracker
 * probes the disk for the queued directories at the next prompt, each directory once per session.
 */
export class EditorDocuments {
  /** directory → the first file seen in it (insertion order is age). */
  private readonly pending = new Map<string, string>();
  /** uri → the workspace file it names, or null when it names none. */
  private readonly decoded = new Map<string, WorkspaceFile | null>();
  private focus: EditorFocus | undefined;
  private focusUri: string | undefined;
  private toldFocus: string | undefined;

  /** `roots`: the session's cwd as the client named it, and as the disk resolves it (they differ under symlinks). */
  constructor(private readonly roots: readonly string[]) {}

  /** A document the editor opened. Returns the workspace-relative path when it counts (a file in the workspace). */
  opened(uri: string): string | undefined {
    const file = this.workspaceFile(uri);
    if (file) this.queue(file);
    return file?.relative;
  }

  /**
   * The document the user focused, and the cursor's 0-based line in it. Returns the workspace-relative path when the
   * user moved to another file of the workspace; undefined for a move within the same file or a file outside.
   */
  focused(uri: string, line: number): string | undefined {
    if (uri === this.focusUri && this.focus) {
      if (line !== this.focus.line) this.focus = { path: this.focus.path, line };
      return undefined;
    }
    const file = this.workspaceFile(uri);
    // Looking at something outside the workspace: an earlier focus is no longer where the user is.
    this.focus = file ? { path: file.relative, line } : undefined;
    this.focusUri = file ? uri : undefined;
    if (!file) return undefined;
    this.queue(file);
    return file.relative;
  }

  /** A closed document is no longer where the user looks. Its folder's hints stay due: the user did open it. */
  closed(uri: string): void {
    if (uri !== this.focusUri) return;
    this.focus = undefined;
    this.focusUri = undefined;
  }

  /** Hands over what is new since the last call: the queued files, and the focus if the model has not heard it. */
  take(): EditorNews {
    const paths = [...this.pending.values()];
    this.pending.clear();
    const key = this.focus ? `${this.focus.path}:${this.focus.line}` : undefined;
    const focus = key !== undefined && key !== this.toldFocus ? this.focus : undefined;
    if (focus) this.toldFocus = key;
    return { paths, focus };
  }

  private queue(file: WorkspaceFile): void {
    if (this.pending.has(file.directory)) return;
    if (this.pending.size >= MAX_PENDING_DIRECTORIES) this.pending.delete(this.pending.keys().next().value as string);
    this.pending.set(file.directory, file.absolute);
  }

  private workspaceFile(uri: string): WorkspaceFile | undefined {
    let file = this.decoded.get(uri);
    if (file === undefined) {
      file = decode(uri, this.roots);
      if (this.decoded.size >= MAX_REMEMBERED_URIS) this.decoded.clear();
      this.decoded.set(uri, file);
    }
    return file ?? undefined;
  }
}

/** The workspace file a URI names, or null for another scheme, a malformed file URI or a file outside the roots. */
function decode(uri: string, roots: readonly string[]): WorkspaceFile | null {
  if (!uri.startsWith("file:")) return null;
  let absolute: string;
  try {
    absolute = fileURLToPath(uri);
  } catch {
    return null; // a host part or an encoded slash: nothing we can look at
  }
  for (const root of roots) {
    const rel = relative(root, absolute);
    if (rel && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
      return { absolute, directory: dirname(absolute), relative: rel };
  }
  return null;
}
