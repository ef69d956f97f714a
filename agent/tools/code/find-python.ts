import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * The interpreter scripts run with. Upstream runs its own Python (or the project's venv); this server is Node, so it
 * looks for one, in this order: `code_execution.python` when set (and only it: a named interpreter that is missing is
 * an error, not a reason to pick another); the project's active venv or conda env (as upstream's project mode); the
 * system's python3 in its usual places; then python3 on PATH. The system's come before PATH because PATH often holds
 * a version manager's shim (pyenv's is a shell script that runs `pyenv`, which the sandbox may not let work).
 */
export interface PythonSearch {
  readonly configured?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const SYSTEM_PYTHONS = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"];

export type FoundPython = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly error: string };

export function findPython(search: PythonSearch, systemPythons: readonly string[] = SYSTEM_PYTHONS): FoundPython {
  if (search.configured) {
    return isExecutableFile(search.configured)
      ? { ok: true, path: search.configured }
      : {
          ok: false,
          error: `execute_code needs Python 3, and code_execution.python in config.yaml names ${search.configured}, which is not an executable file. Fix the path, or remove the key to use the system's python3. Meanwhile use normal tool calls (terminal, read_file, write_file, ...) instead.`,
        };
  }
  const envs = [search.env.VIRTUAL_ENV, search.env.CONDA_PREFIX].filter((p): p is string => Boolean(p?.trim()));
  const onPath = (search.env.PATH ?? "").split(delimiter).filter(Boolean);
  const candidates = [
    ...envs.flatMap((root) => [join(root, "bin", "python3"), join(root, "bin", "python")]),
    ...systemPythons,
    ...onPath.filter((dir) => !/[\\/]shims$/.test(dir)).map((dir) => join(dir, "python3")),
    ...onPath.map((dir) => join(dir, "python3")),
  ];
  const found = candidates.find(isExecutableFile);
  if (found) return { ok: true, path: found };
  return {
    ok: false,
    error:
      "execute_code needs Python 3, and no python3 was found on this machine (looked in the active venv, /usr/bin, /usr/local/bin, /opt/homebrew/bin and PATH). Install python3 (e.g. `apt-get install python3`), or name an interpreter in config.yaml as code_execution.python. Meanwhile use normal tool calls (terminal, read_file, write_file, ...) instead.",
  };
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
