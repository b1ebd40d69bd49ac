#!/usr/bin/env bash
# Builds the container image from a release tarball (packaging/Containerfile.tarball) and checks it as an operator
# would: it starts with --no-demo on a volume, answers /readyz, runs as the non-root user with an owner-only data
# directory, takes `entitle admin` commands through `podman exec`, and stops cleanly on SIGTERM.
#
#   scripts/check-container.sh [TARBALL]        (default: the newest dist/entitle-*.tar.gz; scripts/package.sh makes one)
#
# Needs podman and the base image docker.io/library/debian:bookworm-slim (pulled, or imported offline:
# `debootstrap --variant=minbase bookworm ROOT http://deb.debian.org/debian && tar -C ROOT -c . | podman import -
# docker.io/library/debian:bookworm-slim`). PODMAN_OPTIONS adds global podman options, e.g. on a host without cgroup v2
# delegation: PODMAN_OPTIONS="--runtime runc --cgroup-manager=cgroupfs". Not run in CI (no registry there).
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=${1:-$(ls -t dist/entitle-*.tar.gz 2>/dev/null | head -1)}
[[ -n "$tarball" && -f "$tarball" ]] || { echo "check-container: no tarball (run scripts/package.sh first)" >&2; exit 1; }
command -v podman >/dev/null || { echo "check-container: podman is not installed (apt-get install -y podman)" >&2; exit 1; }
read -r -a podman_options <<<"${PODMAN_OPTIONS:-}"
podman=(podman "${podman_options[@]}")
# Limits lowered explicitly: some hosts refuse to let the runtime raise them.
limits=(--ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
name="entitle-check-$$"
volume="entitle-check-data-$$"
image="localhost/entitle-check:$$"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
cleanup() {
  "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true
  "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
  "${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "check-container: $*" >&2; "${podman[@]}" logs "$name" 2>&1 | tail -20 >&2 || true; exit 1; }

echo "== build $image from $tarball"
"${podman[@]}" build --pull=never --network host "${limits[@]}" -f packaging/Containerfile.tarball \
  --build-arg TARBALL="$tarball" -t "$image" . >/dev/null

echo "== run (host network, loopback port $port, volume $volume)"
"${podman[@]}" run -d --name "$name" --network host "${limits[@]}" -e ENTITLE_HOST=127.0.0.1 -e ENTITLE_PORT="$port" \
  -v "$volume:/var/lib/entitle" "$image" --public-url "http://127.0.0.1:$port" >/dev/null
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
[[ "$(curl -s "http://127.0.0.1:$port/readyz")" == *ready* ]] || fail "/readyz did not answer ready"
curl -s "http://127.0.0.1:$port/api/v2/REF/configuration" -o /dev/null -w "%{http_code}" | grep -qv 200 \
  || fail "the demo requestor answers: the image must run without the demo world"

echo "== user, data directory and files"
[[ "$("${podman[@]}" exec "$name" id -u)" == 10001 ]] || fail "the service does not run as the entitle user (10001)"
[[ "$("${podman[@]}" exec "$name" stat -c %a /var/lib/entitle)" == 700 ]] || fail "the data directory is not 0700"
loose=$("${podman[@]}" exec "$name" find /var/lib/entitle -type f -perm /077)
[[ -z "$loose" ]] || fail "files readable by others: $loose"

echo "== entitle admin through podman exec"
"${podman[@]}" exec "$name" entitle admin requestor add --id MYNET --name "My Network" --domain mynet.example.com >/dev/null
"${podman[@]}" exec "$name" entitle admin requestor list | grep -q MYNET || fail "the new requestor is not listed"

echo "== stop (SIGTERM)"
"${podman[@]}" stop -t 20 "$name" >/dev/null
code=$("${podman[@]}" inspect "$name" --format '{{.State.ExitCode}}')
[[ "$code" == 0 ]] || fail "exit code $code after SIGTERM"
echo "check-container: ok"
