import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findPython } from "../../agent/tools/code/find-python.js";

describe("execute_code: finding python3", () => {
  let dir = "";
  const executable = (path: string) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "#!/bin/sh\n");
    chmodSync(path, 0o755);
    return path;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "find-python-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("prefers the active venv, then the system's python3, then PATH, skipping version-manager shims first", () => {
    const venv = executable(join(dir, "venv", "bin", "python3"));
    const system = executable(join(dir, "usr", "bin", "python3"));
    const shim = executable(join(dir, "pyenv", "shims", "python3"));
    const plain = executable(join(dir, "local", "python3"));
    const pathOf = (...dirs: string[]) => dirs.join(":");
    assert.deepEqual(findPython({ env: { VIRTUAL_ENV: join(dir, "venv"), PATH: "" } }, [system]), {
      ok: true,
      path: venv,
    });
    assert.deepEqual(findPython({ env: { PATH: pathOf(join(dir, "pyenv", "shims")) } }, [system]), {
      ok: true,
      path: system,
    });
    assert.deepEqual(findPython({ env: { PATH: pathOf(join(dir, "pyenv", "shims"), join(dir, "local")) } }, []), {
      ok: true,
      path: plain,
    });
    assert.deepEqual(findPython({ env: { PATH: pathOf(join(dir, "pyenv", "shims")) } }, []), { ok: true, path: shim });
  });

  it("says plainly when there is none, and when the configured one is missing", () => {
    const none = findPython({ env: { PATH: join(dir, "empty") } }, [join(dir, "nope")]);
    assert.equal(none.ok, false);
    assert.match((none as { error: string }).error, /^execute_code needs Python 3, and no python3 was found/);
    const configured = findPython({ configured: join(dir, "gone"), env: {} });
    assert.match((configured as { error: string }).error, /code_execution\.python in config\.yaml names .*gone/);
    const notFile = findPython({ configured: dir, env: {} });
    assert.equal(notFile.ok, false);
  });
});
