#!/usr/bin/env bash
# The table of docs/scaling.md: req/s, p50/p99 and the ratio to each call's limit, all measured in the same run, load from wrk
# (a separate process), against release builds of `entitle serve --rate-limit 0`, with each goal:
#   GET /api/v2/REF/configuration, GET /api/v2/REF/profiles, POST …/decisions/preauthorize/DemoCable (1 resource, MVPD
#   answer cached) — vs GET /healthz, goal 0.8; POST …/decisions/authorize/DemoCable (1 resource, RSA) — vs raw
#   RSA-2048 signs/s on the same cores (`openssl speed -multi N rsa2048`), goal 0.8; the same authorize with ECDSA
#   P-256 and Ed25519 media tokens (`entitle admin requestor set-media-token-algorithm`) — vs /healthz, goal 0.5;
# on SQLite, PostgreSQL (one instance) and two instances on one PostgreSQL (two wrk, one per instance, summed);
# plus the RSS of `entitle serve` idle and after 60 s of authorize (SQLite).
#
# Each row is measured in --rounds rounds; each round measures the row's limit right before the row (/healthz, or
# `openssl speed` for RSA), so a ratio compares two adjacent measurements, and the table gives the median over the rounds
# (req/s, p50, p99 and ratio each the median of their own). A shared virtual machine drifts by ±20% within a minute; one
# baseline at the start of the run, then six rows, made the later ratios a measure of the drift.
#
#   Benchmarks/bench.sh [--duration 10] [--rounds 3] [--connections 16] [--rss-seconds 60] [--engines "sqlite postgres postgres2"]
#
# Needs wrk, openssl and (for PostgreSQL) the server binaries that scripts/with-postgres.sh uses. Not run in CI.
# Ports 19100-19199 unless BENCH_PORT is set.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=10; rounds=3; connections=16; rss_seconds=60; engines="sqlite postgres postgres2"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --rss-seconds) rss_seconds="$2"; shift 2 ;;
    --engines) engines="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "bench: wrk is not installed (apt-get install -y wrk)" >&2; exit 1; }

if [[ "${BENCH_INNER:-}" != 1 ]]; then
  # Its own scratch path, so a release build never waits for (or invalidates) the debug build in .build.
  swift build -c release --product entitle --scratch-path .build-release >&2
  export BENCH_BIN="$(swift build -c release --scratch-path .build-release --show-bin-path)/entitle"
  if [[ " $engines " == *" postgres"* ]]; then
    BENCH_INNER=1 exec scripts/with-postgres.sh "$0" --duration "$duration" --rounds "$rounds" --connections "$connections" --rss-seconds "$rss_seconds" --engines "$engines"
  fi
  export BENCH_INNER=1
fi

bin="$BENCH_BIN"
port=${BENCH_PORT:-19100}
work=$(mktemp -d /tmp/entitle-bench.XXXXXX)
pids=()
stop_servers() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; pids=(); }
trap 'stop_servers; rm -rf "$work"' EXIT
cores=$(nproc)

# start_server NAME PORT DATADIR [DATABASE_URL]
start_server() {
  local name=$1 p=$2 dir=$3 url=${4:-}
  local args=(serve --port "$p" --data-dir "$dir" --rate-limit 0 --log-level warning)
  [[ -n "$url" ]] && args+=(--database-url "$url")
  "$bin" "${args[@]}" >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do curl -fs "http://127.0.0.1:$p/healthz" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "bench: $name did not start:" >&2; cat "$work/$name.log" >&2; exit 1
}

# lua_for METHOD BODY HEADERFILE > script
lua_for() {
  echo "wrk.method = \"$1\""
  [[ -n "$2" ]] && { echo "wrk.body = '$2'"; echo 'wrk.headers["Content-Type"] = "application/json"'; }
  while IFS= read -r line; do
    local name=${line%%: *} value=${line#*: }
    echo "wrk.headers[\"$name\"] = \"$value\""
  done <"$3"
}

# run_wrk URL LUA CONNECTIONS → "rps p50ms p99ms non2xx"
run_wrk() {
  local out; out=$(wrk -t1 -c"$3" -d"${duration}s" --latency ${2:+-s "$2"} "$1" 2>&1)
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps = $2 }
    /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
    /Non-2xx/ { bad = $NF }
    END { printf "%.1f %.2f %.2f %d\n", rps, p50, p99, bad + 0 }' <<<"$out"
}

# measure LABEL PATH METHOD BODY → rps/p50/p99 summed (rps) or max (latency) over every instance of the run
measure() {
  local path=$2 method=$3 body=$4 per=$(( connections / ${#bases[@]} )) i=0
  local files=() loaders=()
  for base in "${bases[@]}"; do
    local lua="$work/$1-$i.lua"
    if [[ "$path" == /healthz ]]; then echo 'wrk.method = "GET"' >"$lua"; else lua_for "$method" "$body" "$work/headers-$i" >"$lua"; fi
    run_wrk "$base$path" "$lua" "$per" >"$work/$1-$i.out" &
    loaders+=($!); files+=("$work/$1-$i.out"); i=$((i + 1))
  done
  wait "${loaders[@]}"
  cat "${files[@]}" | awk '{ r += $1; if ($2 > p50) p50 = $2; if ($3 > p99) p99 = $3; bad += $4 }
                          END { printf "%.1f %.2f %.2f %d\n", r, p50, p99, bad }'
}

rsa_rate() {
  openssl speed -seconds 5 -multi "$cores" rsa2048 2>/dev/null | awk '/^rsa +2048 bits/ { v = $(NF-1) } END { print v + 0 }'
}

rss_kb() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }

# set_algorithm NAME: REF's media tokens signed with NAME from now on (entitle admin, as an operator would), then a
# pause longer than the service's catalog bound so every instance signs with it.
set_algorithm() {
  local storage=(--data-dir "$dir")
  [[ -n "${url:-}" && "$engine" != sqlite ]] && storage+=(--database-url "$url")
  "$bin" admin requestor set-media-token-algorithm --requestor REF --algorithm "$1" --promote-after 0 --force "${storage[@]}" >/dev/null
  sleep 1.5
}

# median_columns FILE: the median of each column of FILE's rows ("rps p50 p99 bad limit"); with five columns, a sixth:
# the median of the per-round ratios rps / limit.
median_columns() {
  awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; if (NF >= 5) v[NF + 1, NR] = ($5 > 0 ? $1 / $5 : 0); n = NR; c = (NF >= 5 ? NF + 1 : NF) }
       function median(col,   k, j, t, a) { for (k = 1; k <= n; k++) a[k] = v[col, k]
         for (k = 2; k <= n; k++) for (j = k; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
         return (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }
       END { for (i = 1; i <= c; i++) printf "%s%s", (i > 1 ? " " : ""), (i == 6 ? sprintf("%.2f", median(i)) : median(i)); print "" }' "$1"
}

echo "# Entitle benchmark: $(date -u +%FT%TZ), $cores cores, wrk -t1 -c$connections -d${duration}s × $rounds rounds, release build"
echo "raw RSA-2048 signing (openssl speed -multi $cores): measuring…" >&2
rsa=$(rsa_rate)
printf "raw RSA-2048 signs/s on %d cores: %.0f (measured again before each round of the authorize row)\n" "$cores" "$rsa"
printf "%d rounds per row, each after its own limit; medians\n\n" "$rounds"
printf "%-10s %-34s %10s %9s %9s %7s  %s\n" engine call "req/s" "p50 ms" "p99 ms" ratio "limit"

for engine in $engines; do
  stop_servers
  bases=()
  case "$engine" in
    sqlite)
      start_server sqlite "$port" "$work/sqlite"
      bases=("http://127.0.0.1:$port") ;;
    postgres|postgres2)
      db="bench_$engine"
      admin="${ENTITLE_TEST_DATABASE_URL:?PostgreSQL needs scripts/with-postgres.sh}"
      url="${admin%/*}/$db"
      psql "$admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
      start_server "$engine-a" "$port" "$work/$engine" "$url"
      bases=("http://127.0.0.1:$port")
      if [[ "$engine" == postgres2 ]]; then
        start_server "$engine-b" $((port + 1)) "$work/$engine" "$url"
        bases+=("http://127.0.0.1:$((port + 1))")
      fi ;;
    *) echo "unknown engine $engine" >&2; exit 2 ;;
  esac
  dir="$work/$engine"; [[ "$engine" == sqlite ]] && dir="$work/sqlite"
  i=0
  for base in "${bases[@]}"; do
    # Devices sign in through the instance started last: it seeded the demo world, whose DemoMVPD keys and login
    # state are per instance. Their profiles and tokens are in the shared database, valid on every instance.
    "$bin" bench prepare --server "${bases[-1]}" --software-statement "$dir/demo/software-statement.jwt" >"$work/headers-$i"
    # One preauthorize so the MVPD answer is cached before the measured window.
    curl -fs -o /dev/null -X POST -H "Content-Type: application/json" -H @"$work/headers-$i" \
      --data '{"resources":["news"]}' "$base/api/v2/REF/decisions/preauthorize/DemoCable" || true
    i=$((i + 1))
  done
  if [[ "$engine" == sqlite ]]; then idle_rss=$(rss_kb "${pids[0]}"); fi
  authz="/api/v2/REF/decisions/authorize/DemoCable"
  : >"$work/healthz-rounds"
  rows=""
  for call in "configuration|/api/v2/REF/configuration|GET||0.8" "profiles|/api/v2/REF/profiles|GET||0.8" \
              "preauthorize|/api/v2/REF/decisions/preauthorize/DemoCable|POST|{\"resources\":[\"news\"]}|0.8" \
              "authorize|$authz|POST|{\"resources\":[\"news\"]}|0.8" \
              "authorize-es256|$authz|POST|{\"resources\":[\"news\"]}|0.5" \
              "authorize-ed25519|$authz|POST|{\"resources\":[\"news\"]}|0.5"; do
    IFS='|' read -r name path method body goal <<<"$call"
    case "$name" in
      authorize-es256) set_algorithm ecdsa-p256-sha256 ;;
      authorize-ed25519) set_algorithm ed25519 ;;
    esac
    : >"$work/$name-rounds"
    for _ in $(seq 1 "$rounds"); do
      # The limit right before the row: on a shared machine the cores' speed drifts.
      if [[ "$name" == authorize ]]; then
        limit_value=$(rsa_rate)
      else
        read -r limit_value h_50 h_99 _ < <(measure healthz /healthz GET "")
        echo "$limit_value $h_50 $h_99" >>"$work/healthz-rounds"
      fi
      read -r rps p50 p99 bad < <(measure "$name" "$path" "$method" "$body")
      echo "$rps $p50 $p99 $bad $limit_value" >>"$work/$name-rounds"
    done
    rows+="$name|$path|$method|$goal"$'\n'
  done
  read -r h_rps h_50 h_99 < <(median_columns "$work/healthz-rounds")
  printf "%-10s %-34s %10.1f %9.2f %9.2f %7s  %s\n" "$engine" "GET /healthz" "$h_rps" "$h_50" "$h_99" "1.00" "(baseline: median of every round)"
  while IFS='|' read -r name path method goal; do
    [[ -z "$name" ]] && continue
    read -r rps p50 p99 bad limit_value ratio < <(median_columns "$work/$name-rounds")
    limit_value=$(printf %.0f "$limit_value")
    if [[ "$name" == authorize ]]; then limit="vs RSA-2048 signs/s ($limit_value)"; else limit="vs /healthz ($limit_value)"; fi
    verdict=$(awk -v r="$ratio" -v g="$goal" 'BEGIN { print (r + 0 >= g + 0 ? "met" : "MISSED") }')
    limit="$limit, goal >= $goal: $verdict"
    [[ "$bad" -gt 0 ]] && limit="$limit  NON-2xx: $bad"
    label="$method ${path/\/api\/v2\/REF/…}"
    [[ "$name" == authorize-* ]] && label="$label (${name#authorize-})"
    printf "%-10s %-34s %10.1f %9.2f %9.2f %7s  %s\n" "$engine" "$label" "$rps" "$p50" "$p99" "$ratio" "$limit"
  done <<<"$rows"
  set_algorithm rsa-sha256
  if [[ "$engine" == sqlite && "$rss_seconds" -gt 0 ]]; then
    lua_for POST '{"resources":["news"]}' "$work/headers-0" >"$work/rss.lua"
    wrk -t1 -c"$connections" -d"${rss_seconds}s" -s "$work/rss.lua" "${bases[0]}/api/v2/REF/decisions/authorize/DemoCable" >/dev/null 2>&1
    printf "\nRSS of entitle serve (SQLite): idle %d MB, after %d s of authorize %d MB\n\n" $((idle_rss / 1024)) "$rss_seconds" $(( $(rss_kb "${pids[0]}") / 1024 ))
  fi
done
