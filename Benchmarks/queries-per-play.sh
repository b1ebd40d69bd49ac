#!/usr/bin/env bash
# Counts the SQL statements that reach PostgreSQL per call (docs/scaling.md): starts a throwaway PostgreSQL with
# every statement logged, one `entitle serve` on it, signs a device in (entitle bench prepare), warms each call once,
# then sends each call N times and divides the statements logged meanwhile by N.
#
#   Benchmarks/queries-per-play.sh [N [SERVE-OPTION…]]   (N default 200; e.g. `200 --profile-cache-ms 0` for the cache off)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
extra=("${@:2}")
if [[ -z "${ENTITLE_TEST_DATABASE_URL:-}" ]]; then exec scripts/with-postgres.sh "$0" "$@"; fi
swift build --product entitle >&2
bin="$(swift build --show-bin-path)/entitle"
work=$(mktemp -d /tmp/entitle-queries.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
pid=""
trap '[[ -n "$pid" ]] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }; rm -rf "$work"' EXIT
psql "$ENTITLE_TEST_DATABASE_URL" -qc "CREATE DATABASE queries" >/dev/null
url="${ENTITLE_TEST_DATABASE_URL%/*}/queries"
# Log every statement of this database only (the session setting applies to the pool's new connections).
psql "$ENTITLE_TEST_DATABASE_URL" -qc "ALTER DATABASE queries SET log_statement = 'all'" >/dev/null
logfile=${ENTITLE_TEST_POSTGRES_LOG:?run through scripts/with-postgres.sh, which names the server log}
"$bin" serve --port "$port" --data-dir "$work/data" --database-url "$url" --rate-limit 0 --log-level warning ${extra[@]+"${extra[@]}"} >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
"$bin" bench prepare --server "http://127.0.0.1:$port" --software-statement "$work/data/demo/software-statement.jwt" >"$work/headers"
headers=(); while IFS= read -r line; do headers+=(-H "$line"); done <"$work/headers"
statements() { grep -c "statement:\|execute " "$logfile" || true; }
printf "%-44s %s\n" call "statements per call (N=$n)"
for call in "GET /api/v2/REF/configuration" "GET /api/v2/REF/profiles" \
            "POST /api/v2/REF/decisions/preauthorize/DemoCable" "POST /api/v2/REF/decisions/authorize/DemoCable"; do
  method=${call%% *}; path=${call#* }
  args=(-fs -o /dev/null -X "$method" "${headers[@]}")
  [[ "$method" == POST ]] && args+=(-H "Content-Type: application/json" --data '{"resources":["news"]}')
  curl "${args[@]}" "http://127.0.0.1:$port$path"   # warm: catalog, keys, MVPD answer
  sleep 0.7                                         # past the catalog bound, as in steady state
  before=$(statements)
  for _ in $(seq 1 "$n"); do curl "${args[@]}" "http://127.0.0.1:$port$path"; done
  sleep 0.3
  after=$(statements)
  awk -v a="$after" -v b="$before" -v n="$n" -v c="$call" 'BEGIN { printf "%-44s %.2f\n", c, (a - b) / n }'
done
