#!/usr/bin/env python3
"""Hostile servers benchmark: what one reload costs when feeds attack.

One loopback server, each hostile feed on a host of its own (127.0.0.N), beside one honest
feed, in one `herald reload` on a fresh library:
  - four gzip bombs, each 1 GiB of spaces unpacked (about 1 MB on the wire);
  - a server that sends one byte a second (headers and body);
  - a server that accepts the connection and never answers;
  - a 429 with Retry-After, and a redirect to file:///etc/passwd.
Prints the reload's wall time, CPU time and peak RSS, and each feed's outcome. Herald's
limits (docs/LIMITS.md): 16 MB unpacked per feed, checked while bytes arrive; under 16
bytes/s for 15 s, or no connection within 15 s, ends a feed; 60 s in all per feed.

  python3 Scripts/bench_hostile.py --herald .build/release/herald
"""
import argparse
import gzip
import http.server
import os
import resource
import socketserver
import subprocess
import tempfile
import threading
import time

BOMB_BYTES = 1 << 30
FEED = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>Honest</title>'
        b'<item><guid>1</guid><title>One</title><description>Fine.</description></item></channel></rss>')


def make_bomb():
    """1 GiB of spaces inside <rss>, gzipped in pieces (no 1 GiB buffer here either)."""
    out = tempfile.TemporaryFile()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as z:
        z.write(b"<rss>")
        chunk = b" " * (1 << 20)
        for _ in range(BOMB_BYTES >> 20):
            z.write(chunk)
        z.write(b"</rss>")
    out.seek(0)
    return out.read()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    bomb = b""

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path
        try:
            if path == "/honest":
                self.send(200, FEED)
            elif path == "/bomb":
                self.send(200, Handler.bomb, [("Content-Encoding", "gzip")])
            elif path == "/trickle":
                for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b" " * 100000:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
            elif path == "/silent":
                time.sleep(3600)
            elif path == "/busy":
                self.send(429, headers=[("Retry-After", "3600")])
            elif path == "/to-file":
                self.send(302, headers=[("Location", "file:///etc/passwd")])
            else:
                self.send(404)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 64


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--herald", required=True)
    args = parser.parse_args()
    started = time.time()
    Handler.bomb = make_bomb()
    print(f"bomb: {len(Handler.bomb):,} bytes gzipped, {BOMB_BYTES:,} unpacked (made in {time.time() - started:.1f} s)")
    server = Server(("0.0.0.0", 0), Handler)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    feeds = [("honest", "127.0.0.1", "/honest")]
    feeds += [(f"bomb {n}", f"127.0.0.{n + 1}", "/bomb") for n in range(1, 5)]
    feeds += [("trickle", "127.0.0.6", "/trickle"), ("silent", "127.0.0.7", "/silent"),
              ("429", "127.0.0.8", "/busy"), ("to file:", "127.0.0.9", "/to-file")]
    with tempfile.TemporaryDirectory(prefix="herald-hostile-") as work:
        urls = os.path.join(work, "urls")
        with open(urls, "w") as f:
            for name, host, path in feeds:
                f.write(f'http://{host}:{port}{path} ~"{name}"\n')
        env = dict(os.environ, HERALD_DB=os.path.join(work, "h.db"))
        subprocess.run([args.herald, "import", urls], env=env, check=True, stdout=subprocess.DEVNULL)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        result = subprocess.run([args.herald, "reload"], env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"reload of {len(feeds)} feeds (4 gzip bombs of 1 GiB, a trickle, a silent server, a 429, "
          f"a redirect to file:, one honest feed): wall {wall:.1f} s, CPU {cpu:.2f} s, "
          f"peak RSS {after.ru_maxrss / 1024:.1f} MiB, exit {result.returncode}")
    for line in result.stdout.splitlines():
        print("   " + line)
    server.shutdown()


if __name__ == "__main__":
    main()
