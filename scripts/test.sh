#!/usr/bin/env bash
# The test command: the whole suite on SQLite, then the service suites again on PostgreSQL.
# PostgreSQL comes from ENTITLE_TEST_DATABASE_URL if set, else a throwaway local server (scripts/with-postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
echo "== all tests (SQLite) =="
ENTITLE_TEST_DATABASE_URL= swift test --skip-build
echo "== service tests (PostgreSQL) =="
if [ -n "${ENTITLE_TEST_DATABASE_URL:-}" ]; then
  swift test --skip-build --filter EntitleServerTests
else
  scripts/with-postgres.sh swift test --skip-build --filter EntitleServerTests
fi
