#!/usr/bin/env bash
# TLS-terminating proxy check: nginx (packaging/nginx-entitle.conf, as docs/deployment.md shows it) on loopback with a
# self-signed certificate, in front of `entitle serve --no-demo --trusted-proxy 127.0.0.1/32`. Over HTTPS, from the
# client address 127.0.0.2: the activation page's cookie is Secure, the service's request log names 127.0.0.2 (not
# nginx's 127.0.0.1), /readyz answers, /metrics, /console and /admin/ are not public, and a client's own X-Forwarded-For is not believed.
# Skips (exit 0) when nginx is not installed (Debian: nginx-light). Needs curl and openssl.
set -euo pipefail
cd "$(dirname "$0")/.."
nginx_bin=$(command -v nginx || true)
[ -z "$nginx_bin" ] && [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx
if [ -z "$nginx_bin" ]; then echo "check-proxy: nginx is not installed (apt-get install nginx-light): skipped"; exit 0; fi
ENTITLE_BIN=${ENTITLE_BINARY:-$(pwd)/.build/debug/entitle}
[ -x "$ENTITLE_BIN" ] || { echo "check-proxy: no entitle binary at $ENTITLE_BIN (swift build first)" >&2; exit 2; }
work=$(mktemp -d /tmp/entitle-proxy.XXXXXX)
chmod 755 "$work"
service_pid=""; nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
service_port=$(free_port); tls_port=$(free_port)

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
  -keyout "$work/server.key" -out "$work/server.pem" 2>/dev/null

"$ENTITLE_BIN" serve --no-demo --host 127.0.0.1 --port "$service_port" --trusted-proxy 127.0.0.1/32 \
  --public-url "https://localhost:$tls_port" --data-dir "$work/data" --log-level info >"$work/serve.out" 2>"$work/serve.log" &
service_pid=$!
for _ in $(seq 1 600); do
  grep -q "Press Ctrl-C to stop." "$work/serve.out" 2>/dev/null && break
  kill -0 "$service_pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.1
done

# The documented server block, with this run's ports and certificate, inside a minimal nginx.conf.
sed -e "s#server 127.0.0.1:8080;#server 127.0.0.1:$service_port;#" -e "s#listen 443 ssl;#listen 127.0.0.1:$tls_port ssl;#" \
    -e "s#/etc/ssl/certs/tve.example.com.pem#$work/server.pem#" -e "s#/etc/ssl/private/tve.example.com.key#$work/server.key#" \
    -e "s#tve.example.com#localhost#" packaging/nginx-entitle.conf >"$work/entitle.conf"
mkdir -p "$work/nginx"
cat >"$work/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 64; }
http {
    access_log $work/nginx-access.log;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    include $work/entitle.conf;
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx.conf" -g "daemon off;" 2>"$work/nginx-stderr.log" &
nginx_pid=$!
for _ in $(seq 1 100); do
  curl -s -o /dev/null --cacert "$work/server.pem" "https://localhost:$tls_port/healthz" && break
  kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx-stderr.log" "$work/nginx-error.log" >&2 2>/dev/null; exit 1; }
  sleep 0.1
done

passed=0; failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
https() { curl -s --interface 127.0.0.2 --cacert "$work/server.pem" "$@"; }

https -D "$work/activate.headers" -o /dev/null "https://localhost:$tls_port/activate"
check "the activation page answers over HTTPS" 'grep -q "^HTTP/[0-9.]* 200" "$work/activate.headers"'
check "its cookie is Secure" 'grep -i "^set-cookie:" "$work/activate.headers" | grep -q "; *Secure"'
sleep 0.3
check "the request log names the client (127.0.0.2), not nginx" \
  'grep "route=/activate" "$work/serve.log" | grep -q "client=127.0.0.2"'
https -H "X-Forwarded-For: 203.0.113.9" -o /dev/null "https://localhost:$tls_port/activate?spoofed"
sleep 0.3
check "a client's own X-Forwarded-For is not believed" \
  '! grep "route=/activate" "$work/serve.log" | grep -q "client=203.0.113.9"'
check "/readyz answers 200 through the proxy" '[ "$(https -o /dev/null -w "%{http_code}" "https://localhost:$tls_port/readyz")" = 200 ]'
check "/metrics is not public" '[ "$(https -o /dev/null -w "%{http_code}" "https://localhost:$tls_port/metrics")" = 404 ]'
check "/console and /admin/api are not public" '[ "$(https -o /dev/null -w "%{http_code}" "https://localhost:$tls_port/console/sign-in")" = 404 ] && [ "$(https -o /dev/null -w "%{http_code}" "https://localhost:$tls_port/admin/api/session")" = 404 ]'
echo "check-proxy: $passed passed, $failed failed"
[ "$failed" = 0 ] || { echo "--- service log" >&2; tail -n 20 "$work/serve.log" >&2; exit 1; }
