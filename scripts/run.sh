#!/usr/bin/env bash
# The README's two commands: `npm start` (install, build, run the demo end to end)
# and `npm test` (install, lint, format check, type check, build, every test); and
# `npm run sandbox -- [options]` (paykit-sandbox on the project's Node, built first if needed).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
cd "$PAYKIT_ROOT"
echo "paykit: node $(node --version), pnpm $(pnpm --version)" >&2
mode="${1:-}"
shift || true
if [ "$mode" = sandbox ]; then
  if [ ! -f packages/testkit/dist/bin/paykit-sandbox.js ]; then
    pnpm install --frozen-lockfile --reporter=append-only >&2
    pnpm run build >&2
  fi
  exec node packages/testkit/dist/bin/paykit-sandbox.js "$@"
fi
rm -f .vitest-results.json
pnpm install --frozen-lockfile --reporter=append-only >&2
# The real-browser 3DS tests drive Debian's Chromium at /usr/bin/chromium (issue 4).
# A machine without it gets it from apt (as root, else through passwordless sudo); if
# that is impossible the browser tests fail and say why.
ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  local as_root=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      as_root=(sudo -n)
    else
      echo "paykit: /usr/bin/chromium is missing and this is neither root nor has sudo: the browser tests will fail" >&2
      return 0
    fi
  fi
  echo "paykit: /usr/bin/chromium is missing; running: ${as_root[*]} apt-get update && ${as_root[*]} apt-get install -y --no-install-recommends chromium" >&2
  if "${as_root[@]}" apt-get update >&2 &&
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >&2; then
    echo "paykit: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)" >&2
  else
    echo "paykit: installing Chromium failed: the browser tests will fail" >&2
  fi
}

case "$mode" in
  main) pnpm run build && pnpm run demo ;;
  test)
    ensure_chromium
    status=0
    pnpm run verify || status=$?
    # One plain closing line that any CI reads: 'N passed, N failed'.
    if [ -f .vitest-results.json ]; then
      node -e 'const r = require("./.vitest-results.json"); console.log(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)'
    fi
    exit "$status"
    ;;
  *) echo "usage: scripts/run.sh main|test|sandbox [options]" >&2; exit 2 ;;
esac
