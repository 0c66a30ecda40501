#!/usr/bin/env python3
"""A forward HTTP proxy for the proxy tests: absolute-form requests (http://host/path) are forwarded, CONNECT opens
a tunnel (for https). Each request's method and target is logged as one line of standard error.

    scripts/http_proxy.py [--lifetime SECONDS] [--garbage]

With --garbage it answers every request, CONNECT included, with bytes that are no HTTP, and closes the connection
(a broken proxy, whose failures must not be blamed on the server behind it).

Binds 127.0.0.1 on a free port, prints the port on the first line of standard output, and serves until standard
input closes or the lifetime (default 120 s) ends. Standard library only.
"""
import argparse
import http.client
import http.server
import os
import select
import socket
import sys
import threading
import urllib.parse


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    garbage = False

    def handle_one_request(self):
        if not Proxy.garbage:
            return super().handle_one_request()
        self.raw_requestline = self.rfile.readline(65537)
        self.note_line(self.raw_requestline)
        self.wfile.write(b"\x00\x01 this is no HTTP\r\n\r\n")
        self.close_connection = True

    def note_line(self, line):
        print(line.decode("latin-1").strip(), file=sys.stderr, flush=True)

    def log_message(self, *args):
        pass

    def note(self):
        print(f"{self.command} {self.path}", file=sys.stderr, flush=True)

    def do_CONNECT(self):
        self.note()
        host, _, port = self.path.rpartition(":")
        try:
            upstream = socket.create_connection((host, int(port)), timeout=10)
        except OSError:
            self.send_error(502)
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        sockets = [self.connection, upstream]
        while True:
            readable, _, _ = select.select(sockets, [], [], 30)
            if not readable:
                break
            for source in readable:
                data = source.recv(65536)
                if not data:
                    upstream.close()
                    return
                (upstream if source is self.connection else self.connection).sendall(data)

    def forward(self):
        self.note()
        target = urllib.parse.urlsplit(self.path)
        if target.scheme != "http":
            self.send_error(400, "absolute-form http:// targets only")
            return
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "connection")}
        upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
        upstream.request(self.command, target.path + (("?" + target.query) if target.query else ""), body, headers)
        answer = upstream.getresponse()
        data = answer.read()
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_HEAD = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = forward


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=120)
    parser.add_argument("--garbage", action="store_true")
    arguments = parser.parse_args()
    Proxy.garbage = arguments.garbage
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    watcher = threading.Thread(target=lambda: sys.stdin.read(), daemon=True)
    watcher.start()
    watcher.join(arguments.lifetime)
    os._exit(0)


if __name__ == "__main__":
    main()
