#!/usr/bin/env bash
# Prints the path of a Python with the `cryptography` package, for the Python media-token verifier
# (examples/verify-media-token.py): a venv under .build/, made on first use (needs python3 with venv, and PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python-verifier-venv
if ! "$venv/bin/python" -c 'import cryptography' 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet cryptography >&2
fi
echo "$PWD/$venv/bin/python"
