#!/usr/bin/env bash
# `npm run n8n [-- --port 5678 --sandbox-port 4010 --fresh --queue ...]`: n8n-nodes-paykit in
# a real n8n (pinned 2.41.1, installed once into .tools/n8n), next to paykit-sandbox; see
# tools/n8n/start.ts. On a fresh clone tools/run.sh installs and builds first. Ctrl-C
# stops everything it started.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" n8n "$@"
