#!/usr/bin/env bash
# The OAuth 2.0 / OpenID provider the OAuth 2.0 MVPD tests sign in through (Tests/Support/oauth2-provider/oauth2_provider.py): Authlib's
# authorization server on Flask, from PyPI, in a venv under .build/. Prints the venv's
# python on standard output. Idempotent: an existing venv with both packages is reused.
#
#   Tests/Support/oauth2-provider/venv.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
venv=.build/oauth2-provider-venv
if ! "$venv/bin/python" -c 'import authlib, flask' >/dev/null 2>&1; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'authlib>=1.3,<2' 'flask>=3,<4' >&2
fi
echo "$PWD/$venv/bin/python"
