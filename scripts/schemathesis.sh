#!/usr/bin/env bash
# Property-based API check: schemathesis (PyPI) generates requests from the service's own /openapi.json and runs every
# check it has (--checks all): no 5xx; every answer as documented (status code, content type, headers, body schema);
# schema-violating requests refused and schema-valid ones accepted; methods and authentication as documented. What no
# schema can carry (no NUL in any string; Adobe's 400 for identifiers the service does not hold) and the demo world's
# requestor for the identifiers are in scripts/schemathesis.toml, with their reasons.
# Runs against a fresh `entitle serve` (ENTITLE_BINARY or the debug build, SQLite, the demo world, throttling off) with the headers of a
# signed-in device, on a bounded budget: --max-examples per operation and --max-time for the whole run.
#
#   scripts/schemathesis.sh [--max-examples 20] [--max-time 150]
# Needs python3 with venv; installs schemathesis into .build/schemathesis-venv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
examples=20; max_time=150
while [[ $# -gt 0 ]]; do
  case "$1" in
    --max-examples) examples="$2"; shift 2 ;;
    --max-time) max_time="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
venv=.build/schemathesis-venv
if [[ ! -x "$venv/bin/schemathesis" ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet schemathesis
fi
# The binary ENTITLE_BINARY names (scripts/test.sh sets it), else this checkout's debug build.
if [[ -n "${ENTITLE_BINARY:-}" ]]; then
  bin=$ENTITLE_BINARY
else
  swift build --product entitle >&2
  bin="$(swift build --show-bin-path)/entitle"
fi
work=$(mktemp -d /tmp/entitle-schemathesis.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
pid=""
trap '[[ -n "$pid" ]] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -rf "$work"' EXIT
"$bin" serve --port "$port" --data-dir "$work/data" --rate-limit 0 --log-level error >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
base="http://127.0.0.1:$port"
"$bin" bench prepare --server "$base" --software-statement "$work/data/demo/software-statement.jwt" >"$work/headers" 2>/dev/null
headers=()
while IFS= read -r line; do
  case "${line%%:*}" in Content-Type) continue ;; esac
  headers+=(-H "$line")
done <"$work/headers"
"$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$base/openapi.json" --url "$base" --checks all \
  --max-examples "$examples" --max-time "$max_time" --request-timeout 30 --workers 2 \
  --generation-deterministic --suppress-health-check all "${headers[@]}"
