#!/usr/bin/env bash
# A WHATWG URL parser that is not ours, for the redirect-target tests: ada-url (PyPI, the parser of Node.js) in a venv
# under .build/. Prints the venv's python on standard output. Idempotent: an existing venv with the package is reused.
#
#   Tests/Support/whatwg-url/venv.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
venv=.build/whatwg-url-venv
if ! "$venv/bin/python" -c 'import ada_url' >/dev/null 2>&1; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'ada-url>=1.15,<2' >&2
fi
echo "$PWD/$venv/bin/python"
