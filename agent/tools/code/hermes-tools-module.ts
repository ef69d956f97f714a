/**
 * The `hermes_tools` module a script imports: one function per tool with upstream's signatures and defaults
 * (code_execution_tool.py's stubs), each sending `{tool, args, token}` as one JSON line over the socket named by
 * HERMES_RPC_SOCKET and returning the parsed reply, plus upstream's helpers json_parse, shell_quote and retry.
 * Kept here as text and written into each run's private folder, so the npm package needs no extra file.
 */

/** The tools a script may call (upstream's SANDBOX_ALLOWED_TOOLS), with their Python signatures and payloads. */
export const SCRIPT_TOOL_STUBS: Readonly<Record<string, { signature: string; doc: string; payload: string }>> = {
  web_search: {
    signature: "query: str, limit: int = 5",
    doc: "Search the web. Returns dict with data.web list of {url, title, description}.",
    payload: '{"query": query, "limit": limit}',
  },
  web_extract: {
    signature: "urls: list, char_limit: int = None",
    doc: "Extract content from URLs. Returns dict with results list of {url, title, content, error}.",
    payload: '{"urls": urls, "char_limit": char_limit}',
  },
  read_file: {
    signature: "path: str, offset: int = 1, limit: int = 2000",
    doc: 'Read a file (1-indexed lines). Returns dict with "content" and "total_lines".',
    payload: '{"path": path, "offset": offset, "limit": limit}',
  },
  write_file: {
    signature: "path: str, content: str",
    doc: "Write content to a file (always overwrites). Returns dict with status.",
    payload: '{"path": path, "content": content}',
  },
  search_files: {
    signature:
      'pattern: str, target: str = "content", path: str = ".", file_glob: str = None, limit: int = 50, offset: int = 0, output_mode: str = "content", context: int = 0',
    doc: 'Search file contents (target="content") or find files by name (target="files"). Returns dict with "matches".',
    payload:
      '{"pattern": pattern, "target": target, "path": path, "file_glob": file_glob, "limit": limit, "offset": offset, "output_mode": output_mode, "context": context}',
  },
  patch: {
    signature:
      'path: str = None, old_string: str = None, new_string: str = None, replace_all: bool = False, mode: str = "replace", patch: str = None',
    doc: 'Targeted find-and-replace (mode="replace") or V4A multi-file patches (mode="patch"). Returns dict with status.',
    payload:
      '{"path": path, "old_string": old_string, "new_string": new_string, "replace_all": replace_all, "mode": mode, "patch": patch}',
  },
  terminal: {
    signature: "command: str, timeout: int = None, workdir: str = None",
    doc: 'Run a shell command (foreground only). Returns dict with "output" and "exit_code".',
    payload: '{"command": command, "timeout": timeout, "workdir": workdir}',
  },
};

// The client: one socket per script, one request at a time (the protocol has no request ids, so threads share a
// lock). None-valued arguments are dropped before sending, so a tool sees them as absent, as upstream's do.
const HEADER = String.raw`"""Hermes tools for execute_code scripts (generated for this run)."""
import json, os, shlex, socket, threading, time

_sock = None
_lock = threading.Lock()


def json_parse(text: str):
    """json.loads that tolerates control characters and a UTF-8 BOM (for terminal() output)."""
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    return json.loads(text, strict=False)


def shell_quote(s: str) -> str:
    """Quote a string for a terminal() command line: terminal(f"cat {shell_quote(name)}")."""
    return shlex.quote(s)


def retry(fn, max_attempts=3, delay=2):
    """Call fn until it succeeds, up to max_attempts times, waiting delay * 2**attempt seconds between tries."""
    error = None
    for attempt in range(max_attempts):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - the caller asked to retry on anything
            error = e
            if attempt < max_attempts - 1:
                time.sleep(delay * (2 ** attempt))
    raise error


def _connect():
    global _sock
    if _sock is None:
        _sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        _sock.connect(os.environ["HERMES_RPC_SOCKET"])
    return _sock


def _call(tool, args):
    line = json.dumps({
        "tool": tool,
        "args": {k: v for k, v in args.items() if v is not None},
        "token": os.environ.get("HERMES_RPC_TOKEN", ""),
    }) + "\n"
    with _lock:
        conn = _connect()
        conn.sendall(line.encode("utf-8"))
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = conn.recv(65536)
            if not chunk:
                raise RuntimeError("Agent process disconnected")
            reply += chunk
    return json.loads(reply.decode("utf-8"))

`;

/** The module's source for the tools this session has (upstream: SANDBOX_ALLOWED_TOOLS ∩ the session's tools). */
export function hermesToolsModule(toolNames: readonly string[]): string {
  const stubs = Object.entries(SCRIPT_TOOL_STUBS)
    .filter(([name]) => toolNames.includes(name))
    .map(
      ([name, stub]) =>
        `def ${name}(${stub.signature}):\n    """${stub.doc}"""\n    return _call(${JSON.stringify(name)}, ${stub.payload})\n`,
    );
  return `${HEADER}\n${stubs.join("\n\n")}`;
}
