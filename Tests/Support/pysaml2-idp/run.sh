#!/usr/bin/env bash
# Runs the pysaml2 test IdP (idp.py) from a venv under .build/ made on first use (PyPI's pysaml2; Debian's xmlsec1).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="$root/.build/pysaml2-venv"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import saml2' 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet pysaml2 >&2
fi
exec "$venv/bin/python" "$root/Tests/Support/pysaml2-idp/idp.py" "$@"
