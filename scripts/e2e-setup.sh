#!/usr/bin/env bash
# Installs what `npm run test:extension` needs to run the extension inside real VS Code, offline:
#   - Debian packages: chromium (the browser playwright-core drives), ripgrep (seeds @vscode/ripgrep, whose
#     postinstall would otherwise download rg from GitHub), libkrb5-dev (code-server's `kerberos` addon builds on it)
#   - code-server 4.100.3 (VS Code 1.100.3, the last release on Node 20), into a cache folder outside the
#     repository, so that it neither becomes a project dependency nor is reinstalled per run.
# (playwright-core, which drives Chromium, is a devDependency: it downloads no browser at install.)
# Idempotent: every step is skipped when its result is already there, so CI can call it on every run and
# cache the folder (see HERMES_E2E_CACHE). The recipe is /work/shared/spec/testing-offline.md.
set -euo pipefail

CODE_SERVER_VERSION="4.100.3"
# @vscode/ripgrep 1.15.11 (pulled in by code-server 4.100.3) looks for this archive before downloading.
RIPGREP_PACKAGE_VERSION="1.15.11"
RIPGREP_RELEASE="v13.0.0-10"

CACHE="${HERMES_E2E_CACHE:-$HOME/.cache/hermes-e2e}"
CODE_SERVER_DIR="$CACHE/code-server"

started=$SECONDS
log() { printf 'e2e-setup: %s\n' "$*"; }

mkdir -p "$CACHE"
# Two CI jobs sharing a cache must not install into the same folder at once.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.lock"
  flock 9
fi

# --- Debian packages -------------------------------------------------------------------------------------------
missing=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  log "installing Debian packages: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "Debian packages present (libkrb5-dev, ripgrep, chromium)"
fi

# --- code-server -----------------------------------------------------------------------------------------------
# The marker is written only after a complete install: a half-finished one (postinstall killed, say) is redone.
code_server_marker="$CODE_SERVER_DIR/.installed-$CODE_SERVER_VERSION"
if [ -f "$code_server_marker" ] && [ -x "$CODE_SERVER_DIR/node_modules/.bin/code-server" ]; then
  log "code-server $CODE_SERVER_VERSION present in $CODE_SERVER_DIR"
else
  log "installing code-server $CODE_SERVER_VERSION into $CODE_SERVER_DIR (about a minute)"
  rm -rf "$CODE_SERVER_DIR"
  mkdir -p "$CODE_SERVER_DIR"
  # A package.json of its own keeps npm from walking up and installing into an enclosing project.
  printf '{ "name": "hermes-e2e-code-server", "private": true }\n' >"$CODE_SERVER_DIR/package.json"

  # Seed @vscode/ripgrep's download cache with Debian's rg (it resolves the cache under os.tmpdir()).
  case "$(uname -m)" in
    x86_64) rg_target="x86_64-unknown-linux-musl" ;;
    aarch64 | arm64) rg_target="aarch64-unknown-linux-musl" ;;
    *) log "unsupported architecture $(uname -m)"; exit 1 ;;
  esac
  tmp_root="${TMPDIR:-/tmp}"
  rg_cache="$tmp_root/vscode-ripgrep-cache-$RIPGREP_PACKAGE_VERSION"
  rg_archive="$rg_cache/ripgrep-$RIPGREP_RELEASE-$rg_target.tar.gz"
  if [ ! -f "$rg_archive" ]; then
    rg_seed="$(mktemp -d "$tmp_root/rgseed.XXXXXX")"
    cp "$(command -v rg)" "$rg_seed/rg"
    mkdir -p "$rg_cache"
    tar czf "$rg_archive" -C "$rg_seed" rg
    rm -rf "$rg_seed"
    log "seeded $rg_archive with $(command -v rg)"
  fi

  # unsafe_perm: code-server's postinstall refuses to run as root without it.
  # yes: node-pty's install runs `npx node-gyp`, which would otherwise wait for a confirmation and be cancelled.
  (
    cd "$CODE_SERVER_DIR"
    npm_config_unsafe_perm=true npm_config_yes=true npm install "code-server@$CODE_SERVER_VERSION" \
      --no-audit --no-fund --foreground-scripts --loglevel=error
  )
  touch "$code_server_marker"
  log "code-server installed ($(du -sh "$CODE_SERVER_DIR" | cut -f1))"
fi

log "ready in $((SECONDS - started)) s (cache: $CACHE)"
