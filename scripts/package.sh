#!/usr/bin/env bash
# Builds the release tarball: dist/entitle-VERSION-linux-ARCH.tar.gz with
#   bin/entitle (release build, Swift runtime statically linked) and its resource bundle,
#   share/entitle/ (systemd unit, example configuration, nginx example), share/doc/entitle/ (README and docs).
# VERSION is $ENTITLE_VERSION or `git describe`. Uses its own scratch path (.build-release), never .build.
# Needs the -dev packages of .ci/run plus libcurl4-openssl-dev (the static Foundation links -lcurl). A clean release
# build took 47 minutes on the shared 2-core machine (other builds beside it); after a change, 2-3 minutes. Check the result with scripts/check-package.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${ENTITLE_VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
arch=$(uname -m)
started=$(date +%s)
# No debug information: the tarball strips it anyway, and DWARF costs compile and link time.
flags=(-c release --static-swift-stdlib -debug-info-format none --scratch-path .build-release)
swift build "${flags[@]}" --product entitle
bin=$(swift build "${flags[@]}" --show-bin-path)
built=$(date +%s)

stage_root=$(mktemp -d)
trap 'rm -rf "$stage_root"' EXIT
stage="$stage_root/entitle-$version"
mkdir -p "$stage/bin" "$stage/share/entitle" "$stage/share/doc/entitle"
install -m 0755 "$bin/entitle" "$stage/bin/entitle"
strip --strip-debug "$stage/bin/entitle" 2>/dev/null || true
for bundle in "$bin"/*.resources; do cp -R "$bundle" "$stage/bin/"; done
install -m 0644 packaging/entitle.service packaging/entitle.yaml packaging/nginx-entitle.conf "$stage/share/entitle/"
install -m 0644 packaging/grafana/entitle-dashboard.json packaging/prometheus/entitle-alerts.yml "$stage/share/entitle/"
install -m 0644 README.md docs/*.md "$stage/share/doc/entitle/"
echo "$version" >"$stage/share/entitle/VERSION"
mkdir -p dist
tarball="dist/entitle-$version-linux-$arch.tar.gz"
tar -C "$stage_root" --owner=0 --group=0 -czf "$tarball" "entitle-$version"
echo "package: $tarball ($(du -h "$tarball" | cut -f1)); release build $((built - started)) s, total $(($(date +%s) - started)) s"
