#!/usr/bin/env bash
# The README's two commands: `npm start` (install, build, run the demo end to end)
# and `npm test` (install, lint, format check, type check, build, every test); and
# `npm run sandbox -- [options]` (paykit-sandbox on the project's Node, built first if needed);
# and `npm run n8n -- [options]` (tools/n8n.sh: installed and built first if needed).
#
# The tools' own output goes to .tools/logs/<step>.log and is printed when a step fails
# (`npm test` prints the checks' output as each finishes); between them come lines of
# our own, `paykit: [N s] ...`, N the seconds since the command started.
set -euo pipefail
PAYKIT_STARTED=$(date +%s)
export PAYKIT_STARTED
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
cd "$PAYKIT_ROOT"
say() { echo "paykit: [$(($(date +%s) - PAYKIT_STARTED)) s] $*" >&2; }
LOGS="$PAYKIT_ROOT/.tools/logs"
mkdir -p "$LOGS"
mode="${1:-}"
shift || true
say "node $(node --version), pnpm $(pnpm --version)"

# Runs a step with its output in .tools/logs/<name>.log; on failure prints that log.
quietly() {
  local name=$1 status=0
  shift
  "$@" >"$LOGS/$name.log" 2>&1 || status=$?
  if [ "$status" != 0 ]; then
    cat "$LOGS/$name.log" >&2
    say "$name failed (exit $status; its output above and in .tools/logs/$name.log)"
  fi
  return "$status"
}

# pnpm install, quiet. @paykit/testkit's bin (dist/bin/paykit-sandbox.js) exists only after
# the build, so pnpm cannot link it on a fresh clone: `link_bins` links it after the build.
# node_modules installed from another pnpm store (or with other settings) is replaced without
# the question pnpm asks on a terminal: these commands run where no one can answer it.
install_dependencies() {
  say "installing dependencies (pnpm install; about 15 s on a fresh clone with pnpm's store warm, minutes on a first download)"
  quietly pnpm-install pnpm install --frozen-lockfile --config.confirmModulesPurge=false --reporter=append-only
  say "dependencies installed"
}
link_bins() {
  quietly pnpm-link-bins pnpm install --frozen-lockfile --offline --config.confirmModulesPurge=false --reporter=append-only
}
build() {
  say "building (tsc -b and the bundles)"
  quietly build pnpm run build
  [ -f node_modules/.bin/paykit-sandbox ] || link_bins
  say "built"
}

if [ "$mode" = sandbox ]; then
  if [ ! -f packages/testkit/dist/bin/paykit-sandbox.js ]; then
    install_dependencies
    build
  fi
  exec node packages/testkit/dist/bin/paykit-sandbox.js "$@"
fi

# Debian packages some tests need, from apt when missing (as root, else through
# passwordless sudo); if that is impossible it says what follows.
# ensure_apt <file> <package> <what follows without it>
ensure_apt() {
  [ -e "$1" ] && return 0
  local as_root=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      as_root=(sudo -n)
    else
      say "$1 is missing and this is neither root nor has sudo: $3"
      return 0
    fi
  fi
  say "$1 is missing; running: ${as_root[*]} apt-get update && ${as_root[*]} apt-get install -y --no-install-recommends $2"
  if "${as_root[@]}" apt-get update >&2 &&
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >&2; then
    say "installed $2"
  else
    say "installing $2 failed: $3"
  fi
}
# The real-browser 3DS tests drive Debian's Chromium at /usr/bin/chromium (issue 4); the
# queue-mode test runs Debian's Redis (issue 20; its Postgres comes from npm).
ensure_chromium() { ensure_apt /usr/bin/chromium chromium "the browser tests will fail"; }
ensure_redis() { ensure_apt /usr/bin/redis-server redis-server "the queue-mode test will fail"; }
# n8n's SQLite driver is built against Debian's SQLite when its headers are there
# (tools/n8n/install.sh): 18 CPU-s, against 98 for compiling SQLite's own source.
ensure_sqlite_headers() {
  bash tools/n8n/install.sh --check >/dev/null 2>&1 ||
    ensure_apt /usr/include/sqlite3.h libsqlite3-dev "n8n's install compiles SQLite's own source"
}

# The full n8n the real-n8n tests start (tools/n8n/install.sh: minutes and 2.8 GB, once),
# installed in the background from the start so that it overlaps the install, the build,
# the checks and the other tests; the tests that need it wait on install.sh's lock.
n8n_pid=
start_n8n_install() {
  if bash tools/n8n/install.sh --check >/dev/null 2>&1; then
    return 0
  fi
  say "installing n8n into .tools/n8n in the background (for the real-n8n tests: minutes, once; log in .tools/logs/n8n-install.log)"
  (
    if bash tools/n8n/install.sh >"$LOGS/n8n-install.log" 2>&1; then
      say "n8n $(tail -n 1 "$LOGS/n8n-install.log") installed in .tools/n8n"
    else
      say "installing n8n failed (.tools/logs/n8n-install.log); the real-n8n tests try again"
    fi
  ) &
  n8n_pid=$!
}

# Runs `pnpm run <script>` for each name at the same time, each one's output in its log,
# printed when it ends; the status is the first failure's.
checks() {
  local name pids=() status=0 s
  for name in "$@"; do
    pnpm run "$name" >"$LOGS/$name.log" 2>&1 &
    pids+=($!)
  done
  local i=0
  for name in "$@"; do
    s=0
    wait "${pids[$i]}" || s=$?
    i=$((i + 1))
    cat "$LOGS/$name.log"
    if [ "$s" = 0 ]; then
      say "$name passed"
    else
      say "$name FAILED (exit $s)"
      [ "$status" != 0 ] || status=$s
    fi
  done
  return "$status"
}

# `npm run n8n [-- options]` (tools/n8n.sh): tools/n8n/start.ts imports the testkit and
# pg, so on a fresh clone the dependencies are installed and the workspace built before Node
# loads it; n8n installs meanwhile, in the background.
if [ "$mode" = n8n ]; then
  start_n8n_install
  if [ ! -d node_modules ] || [ ! -f packages/testkit/dist/bin/paykit-sandbox.js ] ||
    [ ! -f packages/n8n-nodes/dist/nodes/Paykit/Paykit.node.js ]; then
    install_dependencies
    build
  fi
  case " $* " in *" --queue "*) ensure_redis ;; esac
  if [ -n "$n8n_pid" ]; then
    ! kill -0 "$n8n_pid" 2>/dev/null || say "waiting for n8n's install to end"
    wait "$n8n_pid" || true
  fi
  # Installed by now, or its failure printed again.
  bash tools/n8n/install.sh >/dev/null
  exec node tools/n8n/start.ts "$@"
fi

case "$mode" in
  main)
    install_dependencies
    build
    say "running the demo (tools/demo.ts)"
    pnpm --silent run demo
    ;;
  test)
    # `pnpm run verify` does the same steps one after the other.
    rm -f .vitest-results.json
    ensure_sqlite_headers
    start_n8n_install
    install_dependencies
    ensure_chromium
    ensure_redis
    status=0
    say "format check and build"
    checks format:check build || status=$?
    if [ "$status" = 0 ]; then
      [ -f node_modules/.bin/paykit-sandbox ] || link_bins || status=$?
    fi
    if [ "$status" = 0 ]; then
      say "lint and type check"
      checks lint typecheck || status=$?
    fi
    if [ "$status" = 0 ]; then
      say "tests (vitest, the projects of vitest.workspace.ts)"
      # Each test file's CPU seconds (tools/lib/testCpu.ts), for the table printed below.
      export PAYKIT_TEST_CPU_LOG="$LOGS/test-cpu.jsonl"
      rm -f "$PAYKIT_TEST_CPU_LOG"
      pnpm run test:all || status=$?
      say "tests done"
      [ ! -f "$PAYKIT_TEST_CPU_LOG" ] || node tools/lib/testCpuReport.ts "$PAYKIT_TEST_CPU_LOG" 20 || true
    fi
    if [ -n "$n8n_pid" ]; then
      # Not left running unseen: the install ends before the command does.
      ! kill -0 "$n8n_pid" 2>/dev/null || say "waiting for the n8n install started in the background to end"
      wait "$n8n_pid" || true
    fi
    # One plain closing line that any CI reads: 'N passed, N failed'.
    if [ -f .vitest-results.json ]; then
      node -e 'const r = require("./.vitest-results.json"); console.log(`vitest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)'
    fi
    exit "$status"
    ;;
  *) echo "usage: tools/run.sh main|test|sandbox|n8n [options]" >&2; exit 2 ;;
esac
