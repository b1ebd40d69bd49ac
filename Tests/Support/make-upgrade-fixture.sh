#!/usr/bin/env bash
# Makes the upgrade fixture: a small SQLite database written by this build's `entitle serve` (the demo world: requestor
# REF, its MVPDs and signing keys) plus one registered client and one signed-in profile, copied as one compact file to
# Tests/EndToEndTests/Fixtures/previous-release.sqlite, with what the test checks in previous-release.json.
# Run it with the binary of a release (ENTITLE_BINARY=…) just before its schema changes; the upgrade test
# (UpgradeFixtureTests) opens the file with today's binary and checks nothing was lost.
# Needs curl, jq and python3 (its sqlite3 module).
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in curl jq python3; do command -v "$tool" >/dev/null || { echo "make-upgrade-fixture: $tool is not installed" >&2; exit 2; }; done
ENTITLE_BIN=${ENTITLE_BINARY:-$(pwd)/.build/debug/entitle}
[ -x "$ENTITLE_BIN" ] || { echo "make-upgrade-fixture: no entitle binary at $ENTITLE_BIN (swift build first)" >&2; exit 2; }
out=Tests/EndToEndTests/Fixtures
mkdir -p "$out"
workdir=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data="$workdir/data"
B="http://127.0.0.1:$port"
"$ENTITLE_BIN" serve --port "$port" --data-dir "$data" --rate-limit 0 --log-level warning >"$workdir/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 600); do
  grep -q "Press Ctrl-C to stop." "$workdir/serve.log" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$workdir/serve.log" >&2; exit 1; }
  sleep 0.1
done
grep -q "Press Ctrl-C to stop." "$workdir/serve.log" || { echo "make-upgrade-fixture: entitle serve did not start" >&2; exit 1; }

SS=$(cat "$data/demo/software-statement.jwt")
DI=$(printf '{"model":"fixture","osName":"Linux","osVersion":"1","connectionType":"LAN"}' | base64 -w0)
DEVICE="upgrade-fixture-device"
DEV="fingerprint $(printf '%s' "$DEVICE" | base64 -w0)"
CLIENT=$(curl -sf -X POST "$B/o/client/register" -H 'Content-Type: application/json' -H "X-Device-Info: $DI" \
  -d "{\"software_statement\":\"$SS\",\"redirect_uri\":\"adobepass://ios.app\"}")
CID=$(jq -r .client_id <<<"$CLIENT")
CSECRET=$(jq -r .client_secret <<<"$CLIENT")
AT=$(curl -sf -X POST "$B/o/client/token" -H "X-Device-Info: $DI" \
  -d "client_id=$CID&client_secret=$CSECRET&grant_type=client_credentials" | jq -r .access_token)
H=(-H "Authorization: Bearer $AT" -H "AP-Device-Identifier: $DEV" -H "X-Device-Info: $DI")
SESSION=$(curl -sf "${H[@]}" -X POST "$B/api/v2/REF/sessions" -d 'mvpd=DemoCable&redirectUrl=adobepass://ios.app')
python3 scripts/play-login.py "$B$(jq -r .url <<<"$SESSION")" alice alice-pass >/dev/null
USER_ID=$(curl -sf "${H[@]}" "$B/api/v2/REF/profiles/DemoCable" | jq -r '.profiles.DemoCable.attributes.userID | if type == "object" then .value else . end')
[ -n "$USER_ID" ] && [ "$USER_ID" != null ] || { echo "make-upgrade-fixture: no profile after the sign-in" >&2; exit 1; }
KEYS=$(curl -sf "$B/keys/media-token" | grep -c 'BEGIN CERTIFICATE')
MADE_AT=$(date +%s%3N)

kill -INT "$server_pid"
wait "$server_pid" || true
server_pid=""

rm -f "$out/previous-release.sqlite"
python3 - "$data/entitle.sqlite" "$out/previous-release.sqlite" <<'EOF'
import sqlite3, sys
source = sqlite3.connect(sys.argv[1])
source.execute("VACUUM INTO ?", (sys.argv[2],))
source.close()
target = sqlite3.connect(sys.argv[2])
target.execute("PRAGMA journal_mode=DELETE")
target.close()
EOF
jq -n --arg client "$CID" --arg secret "$CSECRET" --arg device "$DEVICE" --arg user "$USER_ID" --argjson keys "$KEYS" --argjson madeAt "$MADE_AT" \
  --arg revision "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  '{madeBy: $revision, requestor: "REF", mvpd: "DemoCable", clientID: $client, clientSecret: $secret, deviceID: $device,
    userID: $user, mediaTokenCertificates: $keys, madeAt: $madeAt}' >"$out/previous-release.json"
echo "make-upgrade-fixture: wrote $out/previous-release.sqlite ($(stat -c %s "$out/previous-release.sqlite") bytes) and previous-release.json"
