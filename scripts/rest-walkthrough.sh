#!/usr/bin/env bash
# Runs the "Walk through the REST API v2 with curl" block of docs/rest-walkthrough.md as written, start to end, and
# checks its results.
# Against $ENTITLE_URL / $ENTITLE_DATA_DIR when set; otherwise it starts `entitle serve` (the built binary, or
# $ENTITLE_BINARY) on a free loopback port with a throwaway data directory, and stops it afterwards.
# Needs curl, jq and python3 (with venv and PyPI, for the Python media-token verifier).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in curl jq python3; do command -v "$tool" >/dev/null || { echo "rest-walkthrough: $tool is not installed" >&2; exit 2; }; done
ENTITLE_BIN=${ENTITLE_BINARY:-$(pwd)/.build/debug/entitle}
[ -x "$ENTITLE_BIN" ] || { echo "rest-walkthrough: no entitle binary at $ENTITLE_BIN (swift build first)" >&2; exit 2; }
workdir=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT

if [ -z "${ENTITLE_URL:-}" ]; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  export ENTITLE_DATA_DIR="$workdir/data" ENTITLE_URL="http://127.0.0.1:$port"
  "$ENTITLE_BIN" serve --port "$port" --log-level warning >"$workdir/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 600); do
    grep -q "Press Ctrl-C to stop." "$workdir/serve.log" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$workdir/serve.log" >&2; exit 1; }
    sleep 0.1
  done
  grep -q "Press Ctrl-C to stop." "$workdir/serve.log" || { echo "rest-walkthrough: entitle serve did not start" >&2; exit 1; }
fi

# The block, exactly as docs/rest-walkthrough.md shows it; `entitle` and `swift run entitle` are this build's binary.
block=$(awk '/^## Walk through the REST API v2 with curl/{section=1} section&&/^```sh$/{inside=1;next} inside&&/^```$/{exit} inside{print}' docs/rest-walkthrough.md)
[ -n "$block" ] || { echo "rest-walkthrough: no walk-through block in docs/rest-walkthrough.md" >&2; exit 1; }
entitle() { "$ENTITLE_BIN" "$@"; }
swift() { if [ "${1:-}" = run ] && [ "${2:-}" = entitle ]; then shift 2; "$ENTITLE_BIN" "$@"; else command swift "$@"; fi; }
echo "== REST walk-through (docs/rest-walkthrough.md) against $ENTITLE_URL"
eval "$block"

# What the walk-through must have produced.
fail() { echo "rest-walkthrough: $*" >&2; exit 1; }
[ -n "$AT" ] && [ "$AT" != null ] || fail "no access token"
[ -n "$CODE" ] && [ "$CODE" != null ] || fail "no session code"
[ -n "$MEDIA_TOKEN" ] && [ "$MEDIA_TOKEN" != null ] || fail "no media token for news"
jq -e '.decisions[] | select(.resource == "news") | .authorized' <<<"$DECISIONS" >/dev/null || fail "news was not authorized"
jq -e '.decisions[] | select(.resource == "movies") | .authorized' <<<"$DECISIONS" >/dev/null || fail "movies was not authorized"
# The media token the service signed, checked by a verifier we did not write in Swift: the Python example (the
# `cryptography` package, Python's own Base64) with the keys the service publishes.
python=$(scripts/python-verifier-venv.sh)
curl -fsS "$ENTITLE_URL/keys/media-token" >"$workdir/media-token.pem" || fail "no published media-token keys"
status=$("$python" examples/verify-media-token.py --keys "$workdir/media-token.pem" --requestor REF --resource news "$MEDIA_TOKEN") ||
  fail "the Python verifier rejects the media token: ${status:-no answer}"
[ "$status" = valid ] || fail "the Python verifier says $status"
echo "== the media token verifies with the Python example (cryptography)"
echo "== walk-through complete"
