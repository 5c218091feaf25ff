#!/usr/bin/env bash
# Installs the pinned full n8n into .tools/n8n once (docs/decisions/0013-toolchain.md):
# n8n@2.41.1 with --ignore-scripts and the linkedom@0.18.14 override, then the two native
# addons it needs rebuilt against the project's Node 24 headers. Skipped when present.
# Usage: bash scripts/n8n/install.sh   (prints the n8n version on stdout when done)
#        bash scripts/n8n/install.sh --check   (exit 0 when installed, 1 when not; installs nothing)
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
  "description": "The pinned full n8n that scripts/n8n.sh runs (installed by scripts/n8n/install.sh)",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14" }
}
JSON
: "${npm_config_nodedir:=$(dirname "$(dirname "$(command -v node)")")}"
export npm_config_nodedir
(
  cd "$N8N_DIR"
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
  npm rebuild sqlite3 isolated-vm --loglevel=error >&2
)
touch "$N8N_DIR/.paykit-rebuilt"
echo "paykit: n8n@$(installed_version) installed in $(($(date +%s) - start)) s" >&2
echo "$N8N_VERSION"
