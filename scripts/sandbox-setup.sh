#!/usr/bin/env bash
# Installs bubblewrap, the OS sandbox the agent runs its commands in on Linux (Debian/Ubuntu package `bubblewrap`),
# when it is missing and this user may install packages. Without it the server still works and says, once per
# session and in `hermes-editor --check`, that commands run unconfined. Idempotent; CI calls it before `npm test`.
set -euo pipefail
if [ "$(uname -s)" != "Linux" ] || command -v bwrap >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "sandbox-setup: bubblewrap is not installed; install the bubblewrap package to contain the agent's commands" >&2
  exit 0
fi
echo "sandbox-setup: installing bubblewrap"
DEBIAN_FRONTEND=noninteractive apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
