#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on 127.0.0.1 and ENTITLE_TEST_DATABASE_URL pointing at it.
# The server allows 1,000 connections (the suites run in parallel, each service with its own pool; 500 ran out).
# The server lives in a temporary directory and is stopped (and deleted) when the command ends.
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ]; then
  echo "with-postgres: PostgreSQL is not installed (apt-get install -y postgresql)" >&2
  exit 1
fi
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
datadir=$(mktemp -d /tmp/entitle-pg.XXXXXX)
[ "$(id -u)" = 0 ] && chown postgres "$datadir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
as_pg "$bindir/initdb" -D "$datadir/data" -A trust -U postgres >/dev/null
# ENTITLE_TEST_POSTGRES_NO_FSYNC=1 (the test command): commits are not flushed to disk (fsync, synchronous_commit and
# full-page writes off), as befits a server deleted at the end; the benchmarks leave it unset and measure a durable one.
options="-h 127.0.0.1 -p $port -k $datadir -c max_connections=1000"
if [ "${ENTITLE_TEST_POSTGRES_NO_FSYNC:-0}" = "1" ]; then
  options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi
as_pg "$bindir/pg_ctl" -D "$datadir/data" -o "$options" -l "$datadir/log" -w start >/dev/null
cleanup() { as_pg "$bindir/pg_ctl" -D "$datadir/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$datadir"; }
trap cleanup EXIT
export ENTITLE_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
export ENTITLE_TEST_POSTGRES_LOG="$datadir/log"
"$@"
