#!/usr/bin/env python3
"""A loopback HTTP server for the server-account tests (standard library only).

usage: account_server.py FOLDER      prints the port it listens on, then serves until killed:

  /feeds/PATH           the file FOLDER/PATH (feeds a real FreshRSS subscribes to), with no
                        validators, so every fetch gets the file as it is now
  /fault/KIND/RUN/...   an account server that misbehaves as KIND, for any method and path
                        below (RUN keeps the counts of one test apart from another's):
      every KIND logs in (`.../accounts/ClientLogin` answers `Auth=session1`) unless said,
      and `.../reader/api/0/token` answers `token1`; the other paths answer:
      garbage           200, text that is not JSON
      status500         500
      busy              429 with Retry-After: 120
      huge              200, 3 MB of JSON (a string)
      wrongtype         200, JSON whose fields have the wrong types (Google Reader and Fever)
      refused           401 to everything, the login included
      login-error       the login answers 200 with Error=BadAuthentication
      always401         401 to everything but the login
      expired           the first login gives session1, later ones session2; only session2
                        is accepted
      stale-token       the first token asked is token1, later ones token2; edit-tag takes
                        only token2 (401 otherwise), and answers OK
      fever-refused     200 {"api_version":3,"auth":0}
      fat-items         stream/contents: as many items as `n` asks, of 300 KB each
      paged             stream/contents: items "Item 1" to "Item 7", `n` from `c` (an index)
  /counts/KIND/RUN      JSON: how many requests each path of that run received
"""
import collections
import urllib.parse
import http.server
import json
import os
import socket
import sys
import threading

FOLDER = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.getcwd()
COUNTS = collections.defaultdict(collections.Counter)
LOCK = threading.Lock()

WRONG_TYPES = json.dumps({
    "api_version": 3, "auth": 1,
    "subscriptions": [{"id": "feed/1", "title": {"text": "an object"}, "url": "http://x/f"}],
    "items": [{"id": "tag:google.com,2005:reader/item/0000000000000001", "title": ["a", "list"],
               "origin": {"streamId": "feed/1"}}],
    "itemRefs": [{"id": {"an": "object"}}],
    "feeds": {"not": "a list"}, "groups": "not a list",
    "unread_item_ids": ["not", "a", "string"], "saved_item_ids": None,
}).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, status, body=b"", content_type="application/json", headers=()):
        head = f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        for name, value in headers:
            head += f"{name}: {value}\r\n"
        self.wfile.write(head.encode() + b"\r\n" + body)  # one write: no Nagle wait

    def do_GET(self):
        self.route(b"")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.route(self.rfile.read(length) if length > 0 else b"")

    def route(self, body):
        path = self.path.split("?", 1)[0]
        parts = path.split("/")
        if path.startswith("/feeds/"):
            name = os.path.normpath(os.path.join(FOLDER, path[len("/feeds/"):]))
            if name.startswith(FOLDER + os.sep) and os.path.isfile(name):
                with open(name, "rb") as file:
                    self.answer(200, file.read(), "application/rss+xml; charset=utf-8")
            else:
                self.answer(404)
        elif path.startswith("/counts/") and len(parts) >= 4:
            with LOCK:
                counts = dict(COUNTS[parts[2] + "/" + parts[3]])
            self.answer(200, json.dumps(counts).encode())
        elif path.startswith("/fault/") and len(parts) >= 5:
            self.fault(parts[2], parts[2] + "/" + parts[3], "/" + "/".join(parts[4:]), body)
        else:
            self.answer(404)

    def fault(self, kind, run, rest, body):
        with LOCK:
            COUNTS[run][rest] += 1
            seen = COUNTS[run][rest]
        authorization = self.headers.get("Authorization") or ""
        if rest.endswith("/accounts/ClientLogin"):
            if kind == "refused":
                return self.answer(401, b"Error=BadAuthentication\n", "text/plain")
            if kind == "login-error":
                return self.answer(200, b"Error=BadAuthentication\n", "text/plain")
            session = "session2" if kind == "expired" and seen > 1 else "session1"
            return self.answer(200, f"SID={session}\nLSID=null\nAuth={session}\n".encode(), "text/plain")
        if kind in ("refused", "always401"):
            return self.answer(401, b"Unauthorized!", "text/plain")
        if kind == "expired" and not authorization.endswith("auth=session2"):
            return self.answer(401, b"Unauthorized!", "text/plain")
        if rest.endswith("/reader/api/0/token"):
            token = "token2" if kind == "stale-token" and seen > 1 else "token1"
            return self.answer(200, token.encode() + b"\n", "text/plain")
        if kind == "stale-token" and rest.endswith("/edit-tag"):
            if b"T=token2" not in body:
                return self.answer(401, b"Unauthorized!", "text/plain")
            return self.answer(200, b"OK", "text/plain")
        if kind == "garbage":
            return self.answer(200, b"<html><body>Welcome to nginx! {\"items\": [", "text/html")
        if kind == "status500":
            return self.answer(500, b"Internal Server Error!", "text/plain")
        if kind == "busy":
            return self.answer(429, b"slow down", "text/plain", [("Retry-After", "120")])
        if kind == "huge":
            return self.answer(200, b'"' + b"x" * 3_000_000 + b'"')
        if kind == "wrongtype":
            return self.answer(200, WRONG_TYPES)
        if kind == "fat-items" and "/stream/contents/" in rest:
            query = urllib.parse.parse_qs(self.path.split("?", 1)[1] if "?" in self.path else "")
            count = int(query.get("n", ["20"])[0])
            items = [{"id": "tag:google.com,2005:reader/item/%016x" % (number + 1), "title": f"Fat {number}",
                      "origin": {"streamId": "feed/1"}, "summary": {"content": "<p>" + "fat " * 75_000 + "</p>"}}
                     for number in range(count)]
            return self.answer(200, json.dumps({"items": items}).encode())
        if kind == "paged" and "/stream/contents/" in rest:
            query = urllib.parse.parse_qs(self.path.split("?", 1)[1] if "?" in self.path else "")
            count, start = int(query.get("n", ["20"])[0]), int(query.get("c", ["0"])[0])
            numbers = range(start + 1, min(start + count, 7) + 1)
            page = {"items": [{"id": "tag:google.com,2005:reader/item/%016x" % number, "title": f"Item {number}",
                               "timestampUsec": str(number), "origin": {"streamId": "feed/1"}}
                              for number in numbers]}
            if start + count < 7:
                page["continuation"] = str(start + count)
            return self.answer(200, json.dumps(page).encode())
        if kind == "fever-refused":
            return self.answer(200, b'{"api_version":3,"auth":0}')
        if kind in ("expired", "stale-token"):
            return self.answer(200, b'{"subscriptions":[],"items":[],"itemRefs":[]}')
        self.answer(404)


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 128


server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
