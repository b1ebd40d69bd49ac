#!/usr/bin/env bash
# Monitoring files: the Prometheus alert rules (packaging/prometheus/entitle-alerts.yml) pass `promtool check rules` and
# their unit tests (entitle-alerts.test.yml: each alert fires on series shaped as /metrics emits them), and every query of the Grafana dashboard (packaging/grafana/entitle-dashboard.json) is valid PromQL — checked the same
# way, as recording rules with Grafana's variables filled in. That every series the dashboard names exists in a real
# /metrics scrape is checked by the Swift test MonitoringTests. Needs promtool (Debian: prometheus) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v promtool >/dev/null || { echo "check-monitoring: promtool is not installed (apt-get install prometheus)" >&2; exit 2; }
promtool check rules packaging/prometheus/entitle-alerts.yml
(cd packaging/prometheus && promtool test rules entitle-alerts.test.yml)
work=$(mktemp -d /tmp/entitle-monitoring.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - packaging/grafana/entitle-dashboard.json "$work/dashboard-rules.yml" <<'PY'
import json, sys
dashboard = json.load(open(sys.argv[1]))
exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
assert exprs, "the dashboard has no queries"
with open(sys.argv[2], "w") as out:
    out.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, expr in enumerate(exprs):
        expr = expr.replace("$__rate_interval", "5m").replace("$requestor", ".*").replace("$mvpd", ".*")
        expr = expr.replace("$platform", ".*").replace("$instance", ".*")
        assert "$" not in expr, "unknown Grafana variable in: " + expr
        out.write("      - record: dashboard:query%d\n        expr: %s\n" % (i, json.dumps(expr)))
PY
promtool check rules "$work/dashboard-rules.yml"
echo "check-monitoring: alert rules and dashboard queries are valid"
