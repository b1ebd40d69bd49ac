#!/usr/bin/env bash
# Instructions the service executes per request (user space, callgrind), for /healthz, /healthz with a device's
# headers, configuration, profiles, preauthorize and authorize: within about 2% between runs where req/s vary by ±20%, so a
# change to the request path can be weighed before a benchmark. Needs valgrind (`apt-get install valgrind`).
#
#   Benchmarks/instructions-per-request.sh [--requests N] [--algorithm RS256|ES256|EdDSA] [--only NAME] [--keep DIR] [BINARY]
#
# --only measures the calls whose name contains NAME (healthz, configuration, profiles, preauthorize, authorize); --keep copies
# each call's callgrind profile to DIR (read it with callgrind_annotate).
#
# BINARY defaults to the release build (.build-release/release/entitle). Valgrind 3.19 cannot read the DWARF 5 debug
# information of Swift 6 binaries, so a copy without it (symbols kept) is what runs. Each call runs in its own
# process: 200 warm-up requests, then N (default 2000) counted ones over one keep-alive connection.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=2000
algorithm=""
only=""
keep=""
binary=.build-release/release/entitle
while [ $# -gt 0 ]; do
  case "$1" in
    --requests) requests=$2; shift 2 ;;
    --algorithm) algorithm=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) binary=$1; shift ;;
  esac
done
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ -x "$binary" ] || { echo "no binary at $binary (swift build -c release --scratch-path .build-release --product entitle)" >&2; exit 1; }
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cp "$binary" "$work/entitle" && strip --strip-debug "$work/entitle"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
url="http://127.0.0.1:$port"

wait_ready() {
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { echo "the service stopped; its log:" >&2; cat "$work/log" >&2; exit 1; }
    curl -fs "$url/healthz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "the service did not answer /healthz" >&2; exit 1
}

# A data directory with the demo world and one signed-in device, made by a normal run.
"$work/entitle" serve --port "$port" --data-dir "$work/data" --rate-limit 0 --log-level warning > "$work/log" 2>&1 & pid=$!
wait_ready
"$work/entitle" bench prepare --server "$url" --software-statement "$work/data/demo/software-statement.jwt" > "$work/headers" 2>/dev/null
if [ -n "$algorithm" ]; then
  "$work/entitle" admin requestor set-media-token-algorithm --requestor REF --algorithm "$algorithm" --promote-after 0 --force \
    --data-dir "$work/data" >/dev/null
fi
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""

cat > "$work/client.py" <<'PY'
import http.client, sys
port, path, method, count, headers_file = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
body = sys.argv[6] if len(sys.argv) > 6 else None
headers = {}
if headers_file != "-":
    for line in open(headers_file):
        if line.strip():
            name, value = line.strip().split(": ", 1)
            headers[name] = value
if body:
    headers["Content-Type"] = "application/json"
connection = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(count):
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"{method} {path}: HTTP {response.status}")
PY

measure() { # NAME PATH METHOD HEADERS(-|file) [BODY]
  [[ -n "$only" && "$1" != *"$only"* ]] && return 0
  local out="$work/$1.callgrind"
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" \
    "$work/entitle" serve --port "$port" --data-dir "$work/data" --rate-limit 0 --log-level warning > "$work/log" 2>&1 & pid=$!
  wait_ready
  python3 "$work/client.py" "$port" "$2" "$3" 200 "$4" ${5:+"$5"}
  callgrind_control -i on "$pid" >/dev/null 2>&1
  python3 "$work/client.py" "$port" "$2" "$3" "$requests" "$4" ${5:+"$5"}
  callgrind_control -i off "$pid" >/dev/null 2>&1
  callgrind_control -d "$pid" >/dev/null 2>&1
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  local total
  total=$(callgrind_annotate "$out.1" 2>/dev/null | awk '/PROGRAM TOTALS/ && !seen {gsub(",", "", $1); print $1; seen = 1}')
  printf "%-28s %9d instructions/request\n" "$1" $((total / requests))
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$out.1" "$keep/${1//[^A-Za-z0-9]/_}.callgrind"; fi
}

body='{"resources":["news"]}'
measure "healthz" /healthz GET -
measure "healthz, device headers" /healthz GET "$work/headers"
measure "configuration" /api/v2/REF/configuration GET "$work/headers"
measure "profiles" /api/v2/REF/profiles GET "$work/headers"
measure "preauthorize (cached)" /api/v2/REF/decisions/preauthorize/DemoCable POST "$work/headers" "$body"
measure "authorize ${algorithm:-RS256}" /api/v2/REF/decisions/authorize/DemoCable POST "$work/headers" "$body"
