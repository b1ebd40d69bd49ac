#!/usr/bin/env python3
"""Slow-client probe: one address holds many half-sent request headers, reconnecting whenever the server
closes one, while another address asks /healthz every second with a 3 s limit. Prints how many probes went
unanswered and the longest stretch /healthz was unreachable.

    Tests/Support/slow-clients.py --port 8080 [--connections 1000] [--seconds 40] [--attacker 127.0.0.2]
"""
import argparse, selectors, socket, time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--connections", type=int, default=1000)
parser.add_argument("--seconds", type=float, default=40)
parser.add_argument("--attacker", default="127.0.0.2")
args = parser.parse_args()

PARTIAL = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "
selector = selectors.DefaultSelector()

def open_one():
    s = socket.socket()
    s.setblocking(False)
    s.bind((args.attacker, 0))
    try:
        s.connect(("127.0.0.1", args.port))
    except BlockingIOError:
        pass
    selector.register(s, selectors.EVENT_WRITE, "connecting")

def probe():
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", args.port), timeout=3) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            s.settimeout(max(0.1, 3 - (time.monotonic() - start)))
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False

for _ in range(args.connections):
    open_one()
end = time.monotonic() + args.seconds
next_probe = time.monotonic() + 1
probes = unanswered = 0
down_since = None
longest_down = 0.0
while time.monotonic() < end:
    for key, events in selector.select(timeout=0.05):
        s = key.fileobj
        if key.data == "connecting":
            try:
                s.send(PARTIAL)
                selector.modify(s, selectors.EVENT_READ, "held")
            except OSError:
                selector.unregister(s); s.close(); open_one()
        else:  # the server answered (503) or closed: reconnect
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            selector.unregister(s); s.close(); open_one()
    if time.monotonic() >= next_probe:
        probes += 1
        at = time.monotonic()
        if probe():
            if down_since is not None:
                longest_down = max(longest_down, at - down_since); down_since = None
        else:
            unanswered += 1
            if down_since is None: down_since = at
        next_probe = time.monotonic() + 1
if down_since is not None:
    longest_down = max(longest_down, time.monotonic() - down_since)
print(f"probes {probes}, unanswered within 3 s {unanswered}, longest unreachable {longest_down:.1f} s")
