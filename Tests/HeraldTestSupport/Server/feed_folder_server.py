#!/usr/bin/env python3
"""A loopback HTTP server for the server-account tests (standard library only).

usage: feed_folder_server.py FOLDER

Prints the port it listens on (every address of 127/8), then serves until killed:
  GET /feeds/NAME      the file FOLDER/NAME, as application/rss+xml, read at each request and sent
                       without validators (no ETag, no Last-Modified: a file rewritten within the
                       same second is never answered 304)
  POST .../fault/KIND/api/   a broken answer of an account's API (the tests' faults):
      garbage          200 with bytes that are not JSON
      status-500       500 with a short page
      busy             429 with Retry-After: 120
      huge             200 with 40 MB of JSON-looking text (more than the fetcher accepts)
      wrong-type       200 with a TT-RSS answer whose content is a string where an object belongs
      wrong-field      200 with a session to a login, and to anything else getFeeds' list whose
                       feed has an id that is a list
      not-logged-in    200 with NOT_LOGGED_IN to every call, also to a login
      html             200 with an HTML page (a proxy's login page)
  POST /count          how many requests each fault answered, as JSON
"""
import http.server
import json
import os
import sys
import threading

FOLDER = sys.argv[1]
COUNTS = {}
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json", extra=()):
        head = [f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}",
                f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        head += [f"{name}: {value}" for name, value in extra]
        # Headers and body in one write: no wait on the client's delayed ACK.
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        self.wfile.flush()

    def do_GET(self):
        name = self.path[len("/feeds/"):] if self.path.startswith("/feeds/") else ""
        file = os.path.join(FOLDER, name)
        if not name or "/" in name or name.startswith(".") or not os.path.isfile(file):
            return self.answer(404, b"", "text/plain")
        with open(file, "rb") as feed:
            self.answer(200, feed.read(), "application/rss+xml; charset=utf-8")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0") or 0)
        body = self.rfile.read(length)
        try:
            op = json.loads(body).get("op", "")
        except (ValueError, AttributeError):
            op = ""
        if self.path == "/count":
            with LOCK:
                return self.answer(200, json.dumps(COUNTS).encode())
        parts = self.path.strip("/").split("/")
        kind = parts[1] if len(parts) >= 2 and parts[0] == "fault" else ""
        with LOCK:
            COUNTS[kind] = COUNTS.get(kind, 0) + 1
        if kind == "garbage":
            self.answer(200, b"{\"seq\":0,\"status\":0,\"content\":{\"session_id\":\"x\"", "text/json")
        elif kind == "status-500":
            self.answer(500, b"<h1>Internal Server Error</h1>", "text/html")
        elif kind == "busy":
            self.answer(429, b"", "text/plain", [("Retry-After", "120")])
        elif kind == "huge":
            self.answer(200, b'{"seq":0,"status":0,"content":"' + b"x" * (40 * 1024 * 1024) + b'"}', "text/json")
        elif kind == "wrong-type":
            self.answer(200, b'{"seq":0,"status":0,"content":"session"}', "text/json")
        elif kind == "wrong-field":
            content = ({"session_id": "s1", "api_level": 15} if op == "login"
                       else [{"id": [1], "title": "Feed", "feed_url": "http://a/"}])
            self.answer(200, json.dumps({"seq": 0, "status": 0, "content": content}).encode(), "text/json")
        elif kind == "not-logged-in":
            self.answer(200, b'{"seq":0,"status":1,"content":{"error":"NOT_LOGGED_IN"}}', "text/json")
        elif kind == "html":
            self.answer(200, b"<html><body><form>Sign in</form></body></html>", "text/html")
        else:
            self.answer(404, b"", "text/plain")


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 128
    daemon_threads = True


server = Server(("0.0.0.0", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
