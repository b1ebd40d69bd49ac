#!/usr/bin/env bash
# Type-checks the AccessEnabler SDK's Apple-only code on Linux (what `#if canImport(UIKit)` … hides from the
# Linux build) against stand-in modules that declare exactly the Apple APIs the SDK uses, with Apple's
# signatures, availability and concurrency annotations (Tests/Support/apple-standins/README.md).
#
# It also fails when the SDK uses an API newer than the platforms Package.swift declares: every stand-in
# declaration must be available at those minimums, and the stand-in `Synchronization` makes `Mutex` (iOS 18 /
# tvOS 18 / macOS 15) unavailable.
#
# Needs the debug build of the package (swift build --target AccessEnabler): it reads EntitleCore and Crypto
# from .build/debug/Modules. Stand-ins are compiled into a temporary directory, never into the package graph.
set -euo pipefail
cd "$(dirname "$0")/.."
STANDINS=Tests/Support/apple-standins
SOURCES=Sources/AccessEnabler
BUILD=${ENTITLE_BUILD_DIR:-.build/debug}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

fail() { echo "typecheck-apple: $*" >&2; exit 1; }

# 1. The SDK's platform minimums, from Package.swift.
platforms=$(grep -o 'platforms: \[[^]]*\]' Package.swift) || fail "no platforms in Package.swift"
min_ios=$(sed -n 's/.*\.iOS(\.v\([0-9]*\)).*/\1/p' <<<"$platforms")
min_tvos=$(sed -n 's/.*\.tvOS(\.v\([0-9]*\)).*/\1/p' <<<"$platforms")
min_macos=$(sed -n 's/.*\.macOS(\.v\([0-9]*\)).*/\1/p' <<<"$platforms")
[[ -n $min_ios && -n $min_tvos && -n $min_macos ]] || fail "could not read iOS/tvOS/macOS minimums from: $platforms"

# 2. No stand-in declaration may need more than those minimums (they list only what the SDK uses).
too_new=$(grep -nE '@available\(' "$STANDINS"/*.swift | awk -v ios="$min_ios" -v tvos="$min_tvos" -v macos="$min_macos" '
  /unavailable/ { next }
  { line=$0
    while (match(line, /(iOS|tvOS|macOS) [0-9]+/)) {
      split(substr(line, RSTART, RLENGTH), p, " ")
      limit = (p[1] == "iOS") ? ios : (p[1] == "tvOS") ? tvos : macos
      if (p[2] + 0 > limit + 0) { print $0; break }
      line = substr(line, RSTART + RLENGTH)
    } }')
[[ -z $too_new ]] || fail "stand-in API newer than the declared platforms (iOS $min_ios, tvOS $min_tvos, macOS $min_macos):
$too_new"

# 3. Compile the stand-ins (Swift 5 mode, like Objective-C frameworks without strict-concurrency annotations).
[[ -d $BUILD/Modules ]] || fail "$BUILD/Modules not found: run swift build --target AccessEnabler first"
compile() { swiftc -emit-module -parse-as-library -swift-version 5 -module-name "$1" -I "$OUT" \
    -emit-module-path "$OUT/$1.swiftmodule" "$STANDINS/$1.swift"; }
for module in os Synchronization Security UIKit SafariServices VideoSubscriberAccount; do compile "$module"; done

# 4. Type-check every SDK source (Public/ and Internal/, at any depth) with the stand-ins visible: canImport(UIKit)
#    etc. are now true.
modulemaps=()
for map in "$BUILD"/*.build/module.modulemap; do modulemaps+=(-Xcc "-fmodule-map-file=$map"); done
mapfile -t sources < <(find "$SOURCES" -name '*.swift' | LC_ALL=C sort)
[[ ${#sources[@]} -gt 0 ]] || fail "no Swift sources under $SOURCES"
swiftc -typecheck -parse-as-library -swift-version 6 -module-name AccessEnabler \
    -I "$OUT" -I "$BUILD/Modules" "${modulemaps[@]}" "${sources[@]}"
echo "typecheck-apple: AccessEnabler type-checks against the Apple stand-ins (iOS $min_ios, tvOS $min_tvos, macOS $min_macos)"
