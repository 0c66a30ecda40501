#!/usr/bin/env python3
"""A web-calendar server for the feed tests: one calendar served under several misbehaviours.

    scripts/feed_server.py [--lifetime SECONDS] [--serve FILE] [--tls CERT KEY]

Binds 127.0.0.1 on a free port, prints the port on the first line of standard output, and serves until standard
input closes or the lifetime (default 300 s) ends. Standard library only.

  PUT  /calendar          the calendar every feed serves (the body of the request)
  PUT  /mode/NAME         serve /feed/NAME.ics in the mode given as the body, instead of the mode called NAME
  GET  /log               the requests so far, as JSON: path, If-None-Match, If-Modified-Since, status, Host,
                          whether an Authorization header came
  GET, PROPFIND, REPORT /login/…   200 with an HTML login page (a CalDAV URL that leads to a web sign-in)
  GET  /feed/NAME.ics     the calendar, in mode NAME (or the one PUT for NAME):
       correct     ETag and Last-Modified, both honoured (304 when they match)
       none        no validators at all; always 200
       ignore-ims  Last-Modified only, and If-Modified-Since ignored: always 200
       always-304  ETag and Last-Modified; any conditional request gets 304, changed or not
       regen       a new UID for every item on every request (no validators)
       truncated   the calendar cut off before its last END lines (no validators)
       flaky       500 with Retry-After: 0 for every second request (the first fails), else as correct
       drip        200 with headers at once and the body one byte a second
       gzip        the calendar with Content-Encoding: gzip
       bomb        64 MB of line ends, gzip-compressed to some 64 kB (Content-Encoding: gzip)
       private     401 unless Basic authentication as ana with the password s3cr3t-Pa55; no validators
       moved       301 to /feed/correct.ics
       temporary   302 to /feed/correct.ics
       offsite     301 to /feed/correct.ics under the host name localhost (another origin than 127.0.0.1)
       html        200 with an HTML page (a login screen) instead of the calendar
       drop-kept   as correct on a new connection; on a connection kept from an earlier request, closed without
                   an answer (a server that timed the idle connection out just as the request came)
       chunked     as correct, the body sent in two chunks and a trailer field (Transfer-Encoding: chunked)
       quiet-close as correct, then the connection closed although the answer did not say so (servers may close an
                   idle connection at any time)
The log also names the client's port of each request (the connection it came over).
"""
import argparse
import base64
import email.utils
import gzip
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import uuid

STATE = {"calendar": b"", "modified": time.time(), "modes": {}, "log": [], "served": {}}
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=(), chunked=False):
        with LOCK:
            STATE["log"].append({
                "path": self.path, "if_none_match": self.headers.get("If-None-Match"),
                "if_modified_since": self.headers.get("If-Modified-Since"), "status": status,
                "host": self.headers.get("Host"), "authorization": self.headers.get("Authorization") is not None,
                "client_port": self.client_address[1]})
        self.answered = getattr(self, "answered", 0) + 1
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            if self.command != "HEAD":
                half = len(body) // 2
                for part in (body[:half], body[half:]):
                    if part:
                        self.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
                self.wfile.write(b"0\r\nX-Trailer: t\r\n\r\n")
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_PUT(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with LOCK:
            if self.path == "/calendar":
                STATE["calendar"] = body
                STATE["modified"] = time.time()
            elif self.path.startswith("/mode/"):
                STATE["modes"][self.path[len("/mode/"):]] = body.decode().strip()
            else:
                return self.reply(404)
        self.reply(204)

    def login_page(self):
        return self.reply(200, b"<!DOCTYPE html><html><body><form>Sign in</form></body></html>",
                          [("Content-Type", "text/html; charset=utf-8")])

    def do_PROPFIND(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        return self.login_page() if self.path.startswith("/login/") else self.reply(405)

    do_REPORT = do_PROPFIND

    def do_GET(self):
        if self.path.startswith("/login/"):
            return self.login_page()
        if self.path == "/log":
            with LOCK:
                body = json.dumps(STATE["log"]).encode()
            return self.reply(200, body, [("Content-Type", "application/json")])
        if not (self.path.startswith("/feed/") and self.path.endswith(".ics")):
            return self.reply(404)
        name = self.path[len("/feed/"):-len(".ics")]
        with LOCK:
            mode = STATE["modes"].get(name, name)
            calendar = STATE["calendar"]
            modified = STATE["modified"]
            STATE["served"][name] = STATE["served"].get(name, 0) + 1
            count = STATE["served"][name]
        etag = '"' + hashlib.sha1(calendar).hexdigest() + '"'
        last_modified = email.utils.formatdate(int(modified), usegmt=True)
        conditional = self.headers.get("If-None-Match") or self.headers.get("If-Modified-Since")
        ics = [("Content-Type", "text/calendar; charset=utf-8")]
        if mode == "drop-kept" and getattr(self, "answered", 0) > 0:
            self.close_connection = True
            return
        if mode == "drip":
            # Headers at once, then the body one byte a second: only a deadline on the whole answer ends it.
            self.send_response(200)
            self.send_header("Content-Type", "text/calendar")
            self.send_header("Content-Length", str(len(calendar)))
            self.end_headers()
            for byte in calendar:
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(1)
            return
        if mode in ("gzip", "bomb"):
            # The calendar gzip-compressed; a bomb is 64 MB of line ends that compress a thousandfold.
            body = gzip.compress(calendar if mode == "gzip" else b"\r\n" * (32 << 20), compresslevel=9)
            return self.reply(200, body, ics + [("Content-Encoding", "gzip")])
        if mode == "private":
            # Basic authentication as ana with a password tests look for in everything icskit keeps and prints.
            expected = "Basic " + base64.b64encode(b"ana:s3cr3t-Pa55").decode()
            if self.headers.get("Authorization") != expected:
                return self.reply(401, b"", [("WWW-Authenticate", 'Basic realm="feed"')])
            return self.reply(200, calendar, ics)
        if mode == "quiet-close":
            self.close_connection = True
        if mode in ("correct", "drop-kept", "quiet-close", "chunked") or (mode == "flaky" and count % 2 == 0):
            match = self.headers.get("If-None-Match")
            since = self.headers.get("If-Modified-Since")
            fresh = match == etag if match else (
                since is not None and email.utils.parsedate_to_datetime(since).timestamp() >= int(modified))
            validators = [("ETag", etag), ("Last-Modified", last_modified)]
            if fresh:
                return self.reply(304, b"", validators)
            return self.reply(200, calendar, ics + validators, chunked=mode == "chunked")
        if mode == "flaky":
            return self.reply(500, b"try again", [("Retry-After", "0")])
        if mode == "none":
            return self.reply(200, calendar, ics)
        if mode == "ignore-ims":
            return self.reply(200, calendar, ics + [("Last-Modified", last_modified)])
        if mode == "always-304":
            if conditional:
                return self.reply(304, b"", [("ETag", etag)])
            return self.reply(200, calendar, ics + [("ETag", etag), ("Last-Modified", last_modified)])
        if mode == "regen":
            lines = [b"UID:" + str(uuid.uuid4()).encode() + b"@regen" if line.startswith(b"UID:") else line
                     for line in calendar.split(b"\r\n")]
            return self.reply(200, b"\r\n".join(lines), ics)
        if mode == "truncated":
            text = calendar.rstrip(b"\r\n")
            cut = text.rfind(b"END:VEVENT")
            return self.reply(200, text[:cut] if cut > 0 else text[: len(text) // 2], ics)
        if mode == "offsite":
            port = self.server.server_address[1]
            return self.reply(301, b"", [("Location", f"http://localhost:{port}/feed/correct.ics")])
        if mode in ("moved", "temporary"):
            return self.reply(301 if mode == "moved" else 302, b"", [("Location", "/feed/correct.ics")])
        if mode == "html":
            return self.reply(200, b"<!DOCTYPE html><html><body>Please log in</body></html>",
                              [("Content-Type", "text/html")])
        return self.reply(404)

    do_HEAD = do_GET


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--serve", help="a calendar file to serve from the start")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve https with this certificate")
    arguments = parser.parse_args()
    if arguments.serve:
        with open(arguments.serve, "rb") as handle:
            STATE["calendar"] = handle.read()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if arguments.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*arguments.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Stop when the test that started us goes away (standard input closes) or the lifetime ends.
    watcher = threading.Thread(target=lambda: sys.stdin.read(), daemon=True)
    watcher.start()
    watcher.join(arguments.lifetime)
    os._exit(0)


if __name__ == "__main__":
    main()
