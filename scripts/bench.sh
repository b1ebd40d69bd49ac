#!/usr/bin/env bash
# Authorization decisions/s and p50/p99 vs /healthz in the same run (entitle bench decisions).
#
#   scripts/bench.sh                       in-process service (SQLite in a temp dir, throttling off), debug build
#   scripts/bench.sh --release             same with a release build (slow first build)
#   scripts/bench.sh --server http://127.0.0.1:8080 --software-statement .entitle/demo/software-statement.jwt
#                                          a running `entitle serve --rate-limit 0` (the default 1 req/s per device
#                                          would answer most requests 429)
# Any other arguments go to `entitle bench decisions` (--concurrency 8 --duration 10 --resource news --json …).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=debug
args=()
for arg in "$@"; do
  if [[ "$arg" == "--release" ]]; then configuration=release; else args+=("$arg"); fi
done
swift build -c "$configuration" --product entitle
bin="$(swift build -c "$configuration" --show-bin-path)/entitle"
exec "$bin" bench decisions "${args[@]}"
