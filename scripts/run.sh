#!/usr/bin/env bash
# The README's two commands: `npm start` (install, build, run the demo end to end)
# and `npm test` (install, lint, format check, type check, build, every test).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
cd "$PAYKIT_ROOT"
echo "paykit: node $(node --version), pnpm $(pnpm --version)" >&2
pnpm install --frozen-lockfile --reporter=append-only >&2
case "${1:-}" in
  main) pnpm run build && pnpm run demo ;;
  test) pnpm run verify ;;
  *) echo "usage: scripts/run.sh main|test" >&2; exit 2 ;;
esac
