#!/usr/bin/env bash
# The test command: the whole suite on SQLite, then the service suites again on PostgreSQL.
# PostgreSQL comes from ENTITLE_TEST_DATABASE_URL if set, else a throwaway local server (scripts/with-postgres.sh).
# When Debian's chromium-driver is installed, chromedriver runs on a free loopback port for the browser tests
# (CHROMEDRIVER_URL) and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
echo "== AccessEnabler's Apple-only code, type-checked against Apple stand-ins =="
scripts/typecheck-apple.sh
driver_pid=""
cleanup() { [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null || true; }
trap cleanup EXIT
if [ -z "${CHROMEDRIVER_URL:-}" ] && command -v chromedriver >/dev/null 2>&1; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  chromedriver --port="$port" --allowed-ips=127.0.0.1 >/dev/null 2>&1 &
  driver_pid=$!
  export CHROMEDRIVER_URL="http://127.0.0.1:$port"
fi
# Suites that hold a thousand connections, cap connections, stop a database of their own or wait on a timed poller, with time
# limits in their assertions:
# run on their own, not beside a hundred other suites on two cores.
alone='FairShareTests|ReadinessTests|ConnectionLimitTests|CatalogVersionPollerTests'
echo "== all tests (SQLite) =="
ENTITLE_TEST_DATABASE_URL= swift test --skip-build --skip "$alone"
echo "== slow-client and readiness tests, alone =="
ENTITLE_TEST_DATABASE_URL= swift test --skip-build --filter "$alone"
echo "== REST walk-through (docs/rest-walkthrough.md) (curl, jq, python3) =="
env -u ENTITLE_URL -u ENTITLE_DATA_DIR scripts/rest-walkthrough.sh
echo "== media-token test vector, Python example (cryptography) =="
scripts/verify-vector-python.sh
echo "== TLS-terminating proxy: nginx in front of the service (skipped without nginx) =="
scripts/check-proxy.sh
echo "== monitoring: Prometheus alert rules and Grafana dashboard queries (promtool) =="
scripts/check-monitoring.sh
echo "== schemathesis against /openapi.json: no 5xx, every answer as documented (bounded: 120 s) =="
scripts/schemathesis.sh --max-examples 10 --max-time 120
echo "== service tests (PostgreSQL) =="
if [ -n "${ENTITLE_TEST_DATABASE_URL:-}" ]; then
  swift test --skip-build --filter 'EntitleServerTests|SQLReplayGuardTests' --skip "$alone"
else
  scripts/with-postgres.sh swift test --skip-build --filter 'EntitleServerTests|SQLReplayGuardTests' --skip "$alone"
fi
if [ "${ENTITLE_TSAN:-0}" = "1" ]; then
  # The SDK must be free of data races: its unit tests and its flows against the in-process service under TSan.
  echo "== SDK tests under ThreadSanitizer =="
  swift build --build-tests --sanitize=thread --scratch-path .build-tsan
  TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt" swift test --skip-build --sanitize=thread --scratch-path .build-tsan \
    --filter 'AccessEnablerTests|SDKFlowTests|SDKPlatformSSOTests|SDKDegradedAccessTests|SDKSafariViewTests|AdobeStyleDelegateTests|MismatchedCallbackTests'
fi
