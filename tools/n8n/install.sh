#!/usr/bin/env bash
# Installs the pinned full n8n into .tools/n8n once (docs/decisions/0013-toolchain.md):
# n8n@2.41.1 (pnpm, flat node_modules) with --ignore-scripts and the linkedom@0.18.14 override, then the two native
# addons it needs built for the project's Node 24 (sqlite3 compiled beside the install).
# Skipped when present.
# Usage: bash tools/n8n/install.sh   (prints the n8n version on stdout when done)
#        bash tools/n8n/install.sh --check   (exit 0 when installed, 1 when not; installs nothing)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../toolchain.sh"
N8N_VERSION=2.41.1
N8N_DIR="$PAYKIT_ROOT/.tools/n8n"
installed_version() {
  node -p "require('$N8N_DIR/node_modules/n8n/package.json').version" 2>/dev/null || true
}
ready() {
  [ "$(installed_version)" = "$N8N_VERSION" ] && [ -f "$N8N_DIR/.paykit-rebuilt" ]
}
if [ "${1:-}" = --check ]; then
  ready
  exit
fi
if ready; then
  echo "$N8N_VERSION"
  exit 0
fi
# One installer at a time (npm start and a test may both ask for it).
mkdir -p "$N8N_DIR"
exec 9>"$N8N_DIR/.install.lock"
flock 9
if ready; then
  echo "$N8N_VERSION"
  exit 0
fi
start=$(date +%s)
echo "paykit: installing n8n@$N8N_VERSION into .tools/n8n (about 5 minutes, once)" >&2
rm -f "$N8N_DIR/.paykit-rebuilt"
cat >"$N8N_DIR/package.json" <<JSON
{
  "name": "paykit-n8n-tool",
  "private": true,
  "description": "The pinned full n8n that tools/n8n.sh runs (installed by tools/n8n/install.sh)",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "pnpm": { "overrides": { "linkedom": "0.18.14" } }
}
JSON
: "${npm_config_nodedir:=$(dirname "$(dirname "$(command -v node)")")}"
export npm_config_nodedir
# sqlite3 (n8n's SQLite driver, pinned by n8n 2.41.1) compiles from source here: its prebuilt
# binaries come from GitHub, which is not reachable. The compile took 237 s of a 637 s cold
# install at a load of 8 when it ran after n8n's download: now it runs beside it, in a folder
# of its own, and its build/ is copied into n8n's sqlite3 (a Node-API addon: any Node >= 18).
# With Debian's libsqlite3-dev present (npm test installs it), the addon is built against
# the system's SQLite (sqlite3's documented --sqlite option): 18 CPU-s instead of the 98 that
# compiling SQLite's own source takes; without it, the bundled SQLite is compiled.
SQLITE3_VERSION=5.1.7
SQLITE3_DIR="$N8N_DIR/.sqlite3-build"
build_sqlite3() {
  rm -rf "$SQLITE3_DIR"
  mkdir -p "$SQLITE3_DIR"
  cd "$SQLITE3_DIR"
  printf '{ "private": true, "dependencies": { "sqlite3": "%s" } }\n' "$SQLITE3_VERSION" >package.json
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
  if [ -f /usr/include/sqlite3.h ]; then
    echo "paykit: sqlite3 built against the system's SQLite (/usr/include/sqlite3.h)" >&2
    npm rebuild sqlite3 --build-from-source --sqlite=/usr --loglevel=error >&2
  else
    echo "paykit: sqlite3 compiles its bundled SQLite (no /usr/include/sqlite3.h: Debian's libsqlite3-dev)" >&2
    npm rebuild sqlite3 --loglevel=error >&2
  fi
}
build_sqlite3 &
sqlite3_pid=$!
(
  cd "$N8N_DIR"
  # pnpm with the project's store: on a fresh clone the workspace's install (n8n-core,
  # n8n-nodes-base) and this one download their shared packages once; cold, 245 s against
  # npm's 400 s. node_modules is laid out flat as npm's (node-linker=hoisted), outside the
  # workspace; no package's install script runs but the two addons' below.
  pnpm install --ignore-workspace --config.node-linker=hoisted --ignore-scripts \
    --config.confirmModulesPurge=false --loglevel=error >&2
  # isolated-vm ships a prebuilt binary for Node 24 (node-gyp-build finds it: no compile).
  npm rebuild isolated-vm --loglevel=error >&2
)
wait "$sqlite3_pid"
installed_sqlite3=$(node -p "require('$N8N_DIR/node_modules/sqlite3/package.json').version")
if [ "$installed_sqlite3" != "$SQLITE3_VERSION" ]; then
  echo "paykit: n8n installed sqlite3 $installed_sqlite3, not $SQLITE3_VERSION: install.sh pins the wrong one" >&2
  exit 1
fi
rm -rf "$N8N_DIR/node_modules/sqlite3/build"
cp -r "$SQLITE3_DIR/node_modules/sqlite3/build" "$N8N_DIR/node_modules/sqlite3/build"
rm -rf "$SQLITE3_DIR"
# The copied binary loads, or the install fails here rather than at n8n's first start.
node -e "
const sqlite3 = require('$N8N_DIR/node_modules/sqlite3')
new sqlite3.Database(':memory:').get('SELECT sqlite_version() AS v', (e, row) => {
  if (e) throw e
  console.error('paykit: n8n runs on SQLite ' + row.v)
})
" >&2
touch "$N8N_DIR/.paykit-rebuilt"
echo "paykit: n8n@$(installed_version) installed in $(($(date +%s) - start)) s" >&2
echo "$N8N_VERSION"
