#!/usr/bin/env python3
"""Probes a running `icskit serve` on loopback, for the tests (ShareServeCLITests).

feed_probe.py levels URL ORIGINAL START END  the feed and the calendar shared (ORIGINAL, its busy instances only) read
                                          by python icalendar + recurring-ical-events: one JSON object
                                          {"instances": [[start-UTC, summary, location]...], "expected": [...],
                                           "text": the feed's body}
feed_probe.py hostile HOST PORT GOODPATH  hostile requests, then a good one; one JSON object of what each got
"""
import json
import socket
import sys
import time
import urllib.request
from datetime import datetime, timezone


def instances(body, start, end, shown_only=False):
    """[start-UTC, summary, location] of each event instance between start and end, sorted."""
    import icalendar
    import recurring_ical_events

    calendar = icalendar.Calendar.from_ical(body)
    found = []
    span = (datetime.fromisoformat(start), datetime.fromisoformat(end))
    for event in recurring_ical_events.of(calendar).between(*span):
        if shown_only and (
            str(event.get("TRANSP", "")).upper() == "TRANSPARENT" or str(event.get("STATUS", "")).upper() == "CANCELLED"
        ):
            continue
        begin = event.decoded("DTSTART")
        if isinstance(begin, datetime):
            begin = begin.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        else:
            begin = begin.strftime("%Y%m%d")
        found.append([begin, str(event.get("SUMMARY", "")), str(event.get("LOCATION", ""))])
    return sorted(found)


def levels(url, original, start, end):
    body = urllib.request.urlopen(url, timeout=30).read()
    with open(original, "rb") as file:
        expected = instances(file.read(), start, end, shown_only=True)
    print(json.dumps({"instances": instances(body, start, end), "expected": expected, "text": body.decode("utf-8")}))


def status_of(sock, timeout=5.0):
    """The status code of the first response on `sock`, or 0 when it closed (or said nothing) first."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        return 0
    parts = data.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def request(host, port, raw, timeout=5.0):
    with socket.create_connection((host, port), timeout=timeout) as sock:
        try:
            sock.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return status_of(sock, timeout)


def hostile(host, port, good):
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    port = int(port)
    result = {}
    get = lambda path: ("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode()
    for name, path in [
        ("dotdot", "/feeds/../../etc/passwd"),
        ("encoded", "/feeds/%2e%2e/%2e%2e/etc/passwd"),
        ("encoded-token", good.replace("/feeds/", "/feeds/%2e%2e/")),
        ("other", "/"),
    ]:
        result[name] = request(host, port, get(path))
    # Line ends of a bare LF, and empty lines before the request line: answered, not left waiting.
    result["bare-lf"] = request(host, port, b"\r\n\nGET / HTTP/1.1\nHost: x\nConnection: close\n\n")
    big = "GET %s HTTP/1.1\r\nHost: x\r\nX-Filler: %s\r\n\r\n" % (good, "a" * 65536)
    result["64k-header"] = request(host, port, big.encode())
    # A slow drip: one byte a second, never a whole head. The server closes it; how long it took is reported.
    began = time.monotonic()
    with socket.create_connection((host, port), timeout=60) as sock:
        closed = False
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            sock.settimeout(1.0)
            try:
                if sock.recv(4096) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
            except ConnectionResetError:
                closed = True
                break
            if time.monotonic() - began > 60:
                break
        result["drip-closed"] = closed
        result["drip-seconds"] = round(time.monotonic() - began, 1)
    # Two thousand connections that say nothing, held open while a good request is made.
    idle = []
    refused = 0
    for _ in range(2000):
        try:
            idle.append(socket.create_connection((host, port), timeout=10))
        except OSError:
            refused += 1
    time.sleep(0.5)
    result["idle-refused"] = refused
    result["good-while-idle"] = request(host, port, get(good), timeout=20)
    for sock in idle:
        sock.close()
    result["good-after"] = request(host, port, get(good))
    print(json.dumps(result))


if __name__ == "__main__":
    if sys.argv[1] == "levels":
        levels(*sys.argv[2:6])
    else:
        hostile(*sys.argv[2:5])
