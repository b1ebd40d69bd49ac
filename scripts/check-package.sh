#!/usr/bin/env bash
# Checks a release tarball (scripts/package.sh) on this machine: unpacks it, compares the shared libraries its binary
# needs (readelf NEEDED; ldd for any not found) with the runtime libraries docs/deployment.md lists, checks that the
# resource bundle beside the binary holds every resource of Sources/EntitleHTTP/Resources (the page and console
# templates, the console's files, openapi.json), checks the systemd unit, then starts `entitle serve --no-demo --config`
# with the example configuration on a temporary data directory, waits for /readyz to answer 200, and checks that the
# activation page and the console's sign-in page are rendered from the tarball's own templates.
#   scripts/check-package.sh [dist/entitle-VERSION-linux-ARCH.tar.gz]   (default: the newest in dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=${1:-$(ls -t dist/entitle-*.tar.gz 2>/dev/null | head -n 1)}
[ -n "$tarball" ] && [ -f "$tarball" ] || { echo "check-package: no tarball (run scripts/package.sh)" >&2; exit 2; }
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
tar -xzf "$tarball" -C "$work"
bin=$(ls "$work"/entitle-*/bin/entitle)
failed=0

# The documented runtime libraries: the names in backquotes between the runtime-libraries markers of the docs.
documented=$(awk '/<!-- runtime-libraries -->/{inside=1; next} /<!-- \/runtime-libraries -->/{inside=0} inside' docs/deployment.md \
  | grep -o '`[^`]*\.so[^`]*`' | tr -d '`' | sort -u)
[ -n "$documented" ] || { echo "check-package: no runtime library list in docs/deployment.md" >&2; exit 1; }
# Every library resolves on this machine (ldd), and every one the binary itself names (its ELF NEEDED entries; the
# Debian packages of those bring their own dependencies) is documented.
if ldd "$bin" | grep -q "not found"; then echo "FAIL missing libraries:"; ldd "$bin" | grep "not found"; failed=1; fi
needed=$(readelf -d "$bin" | awk '/\(NEEDED\)/ {gsub(/[][]/, "", $5); print $5}' | grep -v '^ld-linux' | sort -u)
for library in $needed; do
  if grep -qxF "$library" <<<"$documented"; then echo "ok   $library (documented)"; else echo "FAIL $library is needed but not in docs/deployment.md"; failed=1; fi
done

# The resource bundle: every file of the module's resources, by name, beside the binary (where the binary looks first).
bundle="$(dirname "$bin")/Entitle_EntitleHTTP.resources"
expected_resources=$(cd Sources/EntitleHTTP/Resources && find . -type f | sort)
shipped_resources=$([ -d "$bundle" ] && cd "$bundle" && find . -type f | sort || true)
missing_resources=$(comm -23 <(echo "$expected_resources") <(echo "$shipped_resources"))
if [ -z "$missing_resources" ]; then echo "ok   bin/Entitle_EntitleHTTP.resources holds the $(echo "$expected_resources" | grep -c .) resources (templates, console files, openapi.json)"
else echo "FAIL bin/Entitle_EntitleHTTP.resources lacks:"; echo "$missing_resources" | sed 's/^/       /'; failed=1; fi
# A binary whose bundle is missing falls back to the bundle of the build directory it was built in, which exists on the
# machine that built it: so the pages checked below must come from the tarball's templates, marked here in the
# unpacked copy (an HTML comment), not merely render.
marker="check-package-$$-$RANDOM"
for template in pages/activate console/signIn; do
  [ -f "$bundle/templates/$template.mustache" ] && printf '<!-- %s -->\n' "$marker" >>"$bundle/templates/$template.mustache"
done

# The systemd unit parses (pointed at the unpacked binary), where systemd-analyze exists.
if command -v systemd-analyze >/dev/null 2>&1; then
  sed "s#/usr/local/bin/entitle#$bin#" "$(dirname "$bin")/../share/entitle/entitle.service" >"$work/entitle.service"
  if systemd-analyze verify "$work/entitle.service" >"$work/unit.log" 2>&1; then echo "ok   share/entitle/entitle.service verifies";
  else echo "FAIL share/entitle/entitle.service:"; cat "$work/unit.log"; failed=1; fi
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
port=$(free_port)
admin_port=$(free_port)
# With the tarball's example configuration; flags (which beat the file) put it on free ports and a temporary directory.
"$bin" serve --no-demo --config "$(dirname "$bin")/../share/entitle/entitle.yaml" --port "$port" --admin-port "$admin_port" \
  --data-dir "$work/data" --public-url "http://127.0.0.1:$port" --log-level warning >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
ready=""
for _ in $(seq 1 300); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; then ready=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -n "$ready" ]; then echo "ok   entitle serve --no-demo --config share/entitle/entitle.yaml started and /readyz answered 200"; else
  echo "FAIL entitle serve --no-demo did not become ready"; cat "$work/serve.err"; failed=1; fi
# The operator surfaces answer on the operations address only.
if [ -n "$ready" ]; then
  public=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/console/")
  operations=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$admin_port/metrics")
  if [ "$public" = 404 ] && [ "$operations" = 200 ]; then echo "ok   /console not on the service port; /metrics on the operations address"
  else echo "FAIL /console on the service port answered $public, /metrics on the operations address $operations"; failed=1; fi
fi
# The pages are the tarball's templates: the activation page (service port) and the console's sign-in (operations address).
if [ -n "$ready" ]; then
  for page in "http://127.0.0.1:$port/activate" "http://127.0.0.1:$admin_port/console/sign-in"; do
    answer=$(curl -s -w '\n%{http_code}' "$page")
    if [ "$(tail -n 1 <<<"$answer")" = 200 ] && grep -qF "$marker" <<<"$answer"; then echo "ok   /${page#http://127.0.0.1:*/} is rendered from the tarball's templates"
    else echo "FAIL /${page#http://127.0.0.1:*/} answered $(tail -n 1 <<<"$answer") without the tarball's templates"; failed=1; fi
  done
fi
[ "$failed" = 0 ] && echo "check-package: $tarball is good" || { echo "check-package: $tarball FAILED"; exit 1; }
