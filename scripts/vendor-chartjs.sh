#!/usr/bin/env bash
# Vendors Chart.js for the operator console from Debian's libjs-chart.js (apt-get install libjs-chart.js):
# the minified build and the package's copyright file (the license), into Sources/EntitleHTTP/Resources/console/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=Sources/EntitleHTTP/Resources/console
install -m 0644 /usr/share/javascript/chart.js/chart.min.js "$target/chart.min.js"
install -m 0644 /usr/share/doc/libjs-chart.js/copyright "$target/chart.js-LICENSE"
echo "vendored $(head -3 "$target/chart.min.js" | sed -n 2p | sed 's/^ \* //') from libjs-chart.js $(dpkg-query -W -f='${Version}' libjs-chart.js)"
