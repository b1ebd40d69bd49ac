#!/usr/bin/env bash
# yt-dlp's Adobe Pass client (PyPI yt-dlp==2026.10.26), unchanged, in a venv under .build/, for the test of its resumed
# run against Entitle (Tests/Support/yt-dlp/driver.py). Prints the venv's python on standard output. Idempotent: an
# existing venv with that version is reused.
#
#   Tests/Support/yt-dlp/venv.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
venv=.build/ytdlp-venv
version=2026.10.26
if ! "$venv/bin/python" -c "import yt_dlp.version as v, sys; sys.exit(v.__version__ != '$version')" >/dev/null 2>&1; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "yt-dlp==$version" >&2
fi
echo "$PWD/$venv/bin/python"
