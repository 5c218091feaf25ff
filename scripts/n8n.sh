#!/usr/bin/env bash
# `npm run n8n [-- --port 5678 --sandbox-port 4010 --fresh]`: n8n-nodes-paykit in a real
# n8n (pinned 2.41.1, installed once into .tools/n8n), next to paykit-sandbox; see
# scripts/n8n/stack.ts. Ctrl-C stops everything it started.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
cd "$PAYKIT_ROOT"
bash scripts/n8n/install.sh >/dev/null
exec node scripts/n8n/start.ts "$@"
