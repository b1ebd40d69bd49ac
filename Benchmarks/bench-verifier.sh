#!/usr/bin/env bash
# Media-token verifier benchmark: full short-media-token verifications per second against raw RSA-2048
# PKCS#1 v1.5 SHA-256 verifications per second, on one core, in the same process and run. Goal: ratio >= 0.9.
# Usage: Benchmarks/bench-verifier.sh [SECONDS]   (needs `entitle bench verifier`, i.e. BenchVerifier in the bench tree)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5}"
swift build -c release --product entitle
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi
exec "${pin[@]}" .build/release/entitle bench verifier --seconds "$duration"
