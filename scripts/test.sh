#!/usr/bin/env bash
# The test command: the whole suite on SQLite, then the service suites again on PostgreSQL.
# PostgreSQL comes from ENTITLE_TEST_DATABASE_URL if set, else a throwaway local server (scripts/with-postgres.sh).
# When Debian's chromium-driver is installed, chromedriver runs on a free loopback port for the browser tests
# (CHROMEDRIVER_URL) and is stopped at the end.
# Each phase prints its duration ("-- phase: N s") and the total at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
suite_started=$(date +%s)
phase_started=$suite_started
phase_name=""
# Ends the running phase (printing its duration) and announces the next one.
phase() {
  local now
  now=$(date +%s)
  [ -n "$phase_name" ] && echo "-- $phase_name: $((now - phase_started)) s"
  phase_name=$1
  phase_started=$now
  [ -n "$1" ] && echo "== $1 =="
  return 0
}
driver_pid=""
cleanup() {
  local status=$?
  [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null || true
  [ $status -eq 0 ] && phase "" && echo "-- test suite: $(($(date +%s) - suite_started)) s"
}
trap cleanup EXIT
# The services the tests start (in this process and as `entitle` processes) reuse a few RSA keys made here by OpenSSL,
# rather than spend about a second of a debug build on each (RSAKeySource; debug builds only).
export ENTITLE_TEST_RSA_KEY_POOL="$PWD/.build/test-rsa-keys"
if [ ! -f "$ENTITLE_TEST_RSA_KEY_POOL/7.pem" ]; then
  mkdir -p "$ENTITLE_TEST_RSA_KEY_POOL"
  for i in 0 1 2 3 4 5 6 7; do
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$ENTITLE_TEST_RSA_KEY_POOL/$i.pem" 2>/dev/null
  done
  chmod 600 "$ENTITLE_TEST_RSA_KEY_POOL"/*.pem
fi
# CI builds once, from clean (ENTITLE_CI_BUILD=1): without debug information, which nothing there reads, the build takes
# less time. (The index store stays: SwiftPM discovers the tests on Linux through it.) Every build of the run uses the same
# flags, so none rebuilds what another built.
build_flags=()
[ "${ENTITLE_CI_BUILD:-0}" = "1" ] && build_flags=(-debug-info-format none)
phase "build (debug, with tests)"
swift build --build-tests "${build_flags[@]}"
# The scripts below run this binary rather than build their own (schemathesis.sh, rest-walkthrough.sh, check-proxy.sh).
ENTITLE_BINARY="$(swift build --show-bin-path)/entitle"
export ENTITLE_BINARY
phase "AccessEnabler's Apple-only code, type-checked against Apple stand-ins"
scripts/typecheck-apple.sh
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
# The rest runs by layer, one `swift test` after another, each fully parallel: a few hundred tests at a time on two
# cores rather than eight hundred, so no test waits minutes for a core.
unit='AccessEnablerTests|EntitleCoreTests|MediaTokenVerifierTests|SAMLTests|DemoMVPDTests'
service='EntitleServerTests'
endToEnd='EndToEndTests|BrowserTests|AdobeStyleDelegateTests'
# Every test belongs to one of them (a new test target must be added here).
unplaced=$(swift test list --skip-build 2>/dev/null | grep -v -E "$unit|$service|$endToEnd" || true)
if [ -n "$unplaced" ]; then
  echo "tests in no phase of scripts/test.sh (add their target to a group):" >&2
  echo "$unplaced" >&2
  exit 1
fi
phase "unit tests: SDK, core, SAML, media-token verifier, DemoMVPD"
ENTITLE_TEST_DATABASE_URL= swift test --skip-build --filter "$unit"
phase "service tests (SQLite)"
ENTITLE_TEST_DATABASE_URL= swift test --skip-build --filter "$service" --skip "$alone"
phase "end-to-end tests: command line, browsers, SDK apps against a running service (SQLite)"
ENTITLE_TEST_DATABASE_URL= swift test --skip-build --filter "$endToEnd" --skip "$alone"
phase "slow-client and readiness tests, alone"
ENTITLE_TEST_DATABASE_URL= swift test --skip-build --filter "$alone"
phase "REST walk-through (docs/rest-walkthrough.md) (curl, jq, python3)"
env -u ENTITLE_URL -u ENTITLE_DATA_DIR scripts/rest-walkthrough.sh
phase "media-token test vector, Python example (cryptography)"
scripts/verify-vector-python.sh
phase "TLS-terminating proxy: nginx in front of the service (skipped without nginx)"
scripts/check-proxy.sh
phase "monitoring: Prometheus alert rules and Grafana dashboard queries (promtool)"
scripts/check-monitoring.sh
phase "schemathesis against /openapi.json: every check (conformance, valid data accepted, invalid refused), bounded: 120 s"
scripts/schemathesis.sh --max-examples 10 --max-time 120
# On PostgreSQL the service suites take several times as long as on SQLite: all at once on two cores, the pass outlasts
# the 300 s time limits of the suites that start first and wait for a core to the end. So they run in two halves by
# suite name, one after the other, on one throwaway server.
postgresFirstHalf='EntitleServerTests\.[A-L]'
postgresSecondHalf='EntitleServerTests\.[M-Z]|SQLReplayGuardTests|HomeBasedSignInTests|ProxyMVPDTests|ProxiedMVPDCommandTests'
postgres_tests() {
  swift test --skip-build --filter "$postgresFirstHalf" --skip "$alone"
  swift test --skip-build --filter "$postgresSecondHalf" --skip "$alone"
}
phase "service tests (PostgreSQL), in two halves"
if [ -n "${ENTITLE_TEST_DATABASE_URL:-}" ]; then
  postgres_tests
else
  export -f postgres_tests
  export postgresFirstHalf postgresSecondHalf alone
  ENTITLE_TEST_POSTGRES_NO_FSYNC=1 scripts/with-postgres.sh bash -c 'set -e; postgres_tests'
fi
if [ "${ENTITLE_TSAN:-0}" = "1" ]; then
  # The SDK must be free of data races: its unit tests and its flows against the in-process service, with the SDK compiled
  # under ThreadSanitizer (ENTITLE_TSAN_SDK, Package.swift) in this same build directory: only the SDK and what depends on
  # it are recompiled, and the service around it runs uninstrumented.
  phase "SDK tests under ThreadSanitizer"
  ENTITLE_TSAN_SDK=1 swift build --build-tests "${build_flags[@]}"
  ENTITLE_TSAN_SDK=1 TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt" swift test --skip-build \
    --filter 'AccessEnablerTests|SDKFlowTests|SDKPlatformSSOTests|SDKDegradedAccessTests|SDKSafariViewTests|AdobeStyleDelegateTests|MismatchedCallbackTests'
fi
