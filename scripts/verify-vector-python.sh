#!/usr/bin/env bash
# Runs the Python verification example (examples/verify-media-token.py) against the media-token test vector
# (Tests/MediaTokenVerifierTests/Fixtures/media-token-vector.json): every case must give its expected verdict.
# `cryptography` comes from the venv of scripts/python-verifier-venv.sh (made on first use; needs PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(scripts/python-verifier-venv.sh)
"$python" - <<'PY'
import json, subprocess, sys
fixtures = "Tests/MediaTokenVerifierTests/Fixtures/"
vector = json.load(open(fixtures + "media-token-vector.json"))
passed = failed = 0
for case in vector["cases"]:
    command = [sys.executable, "examples/verify-media-token.py", "--keys", fixtures + vector["keys"], "--requestor", case["requestor"],
               "--resource", case["resource"], "--now", case["now"], case.get("token", vector["token"])]
    run = subprocess.run(command, capture_output=True, text=True)
    status = run.stdout.strip()
    ok = status == case["expected"] and (run.returncode == 0) == (case["expected"] == "valid")
    print(("ok   " if ok else "FAIL ") + f'{case["expected"]:17} at {case["now"]}: {status or run.stderr.strip()}')
    passed, failed = passed + ok, failed + (not ok)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
