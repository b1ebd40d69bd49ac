#!/usr/bin/env bash
# Formats the Swift sources with swift-format and the repository's .swift-format configuration.
#   scripts/format.sh          formats Sources, Tests and Package.swift in place
#   scripts/format.sh --check  changes nothing; lists every finding and exits non-zero if there is one (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
if swift format --version >/dev/null 2>&1; then
  format=(swift format)
elif command -v swift-format >/dev/null 2>&1; then
  format=(swift-format)
else
  echo "format: swift-format is missing (it ships with Swift 6 toolchains as 'swift format')" >&2
  exit 2
fi
paths=(Sources Tests Package.swift)
case "${1:-}" in
  --check) exec "${format[@]}" lint --strict --parallel --recursive "${paths[@]}" ;;
  "") exec "${format[@]}" format --in-place --parallel --recursive "${paths[@]}" ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac
