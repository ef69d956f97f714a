#!/usr/bin/env bash
# Installs what the agent's commands run in on Linux (Debian/Ubuntu packages), when missing and this user may install
# packages: bubblewrap, the OS sandbox around every command, python3, which execute_code runs scripts with, and
# Chromium, which the browser tools drive (found on the system, never downloaded by npm).
# Without them the server still works: it says, once per session and in `hermes-editor --check`, that commands run
# unconfined, execute_code refuses with a clear message, and the browser tools are not offered. Idempotent; CI calls
# it before `npm test`, whose sandbox, execute_code and browser tests run for real.
set -euo pipefail
if [ "$(uname -s)" != "Linux" ]; then exit 0; fi
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
# The system's python3 (execute_code prefers it to a version manager's shim, which the sandbox may not let run).
[ -x /usr/bin/python3 ] || command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
  command -v google-chrome >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "sandbox-setup: not installed: ${missing[*]}; install these packages to contain the agent's commands, run execute_code and offer the browser tools" >&2
  exit 0
fi
echo "sandbox-setup: installing ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
