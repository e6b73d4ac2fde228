#!/usr/bin/env python3
"""Reload throughput: herald (and newsboat, when installed) fetching N feeds x M items from a
loopback HTTP server, cold (empty library) and warm (every feed answers 304).

  python3 Scripts/bench_reload.py --herald .build/release/herald [--sizes 200x50,500x100] [--runs 5]
"""
import argparse
import email.utils
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

WORDS = ("garden river mountain harbour evening morning weather market station library window "
         "village coffee bread winter summer autumn forest island bridge street letter journey").split()


def make_feed(n, items):
    parts = [f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
             f"<title>Bench feed {n}</title><link>https://bench.example.org/{n}</link>"]
    for i in range(items):
        words = " ".join(WORDS[(n * 7 + i * 3 + k) % len(WORDS)] for k in range(60))
        date = email.utils.formatdate(1_790_000_000 + n * 1000 + i * 60, usegmt=True)
        parts.append(f"<item><guid>feed{n}-item{i}</guid><title>Item {i} of feed {n}</title>"
                     f"<link>https://bench.example.org/{n}/{i}</link><pubDate>{date}</pubDate>"
                     f"<description>&lt;p&gt;{words}&lt;/p&gt;&lt;p&gt;{words}&lt;/p&gt;</description></item>")
    parts.append("</channel></rss>")
    return "".join(parts).encode()


class Server:
    def __init__(self, feeds):
        self.feeds = feeds
        server_self = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # http.server sends the headers and the body in two writes; with Nagle's algorithm
            # on, the body waits for the ACK of the headers, which the client delays by 40 ms.
            # That stall is this server's, not the client's (a production server writes both
            # at once or sets TCP_NODELAY), and it made every request cost 44 ms here.
            disable_nagle_algorithm = True

            def log_message(self, *args):
                pass

            def do_GET(self):
                n = int(self.path.strip("/").split(".")[0])
                body = server_self.feeds[n]
                etag = f'"{n}"'
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


def timed(argv, env=None):
    start = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=600)
    return time.perf_counter() - start, result


def median(values):
    return statistics.median(values)


def bench(herald, feeds, items, jobs, runs):
    bodies = [make_feed(n, items) for n in range(feeds)]
    server = Server(bodies)
    work = tempfile.mkdtemp(prefix="herald-reload-bench-")
    try:
        urls = os.path.join(work, "urls")
        with open(urls, "w") as f:
            for n in range(feeds):
                f.write(f"http://127.0.0.1:{server.port}/{n}.xml\n")
        colds, warms, rows = [], [], 0
        for run in range(runs):
            env = dict(os.environ, HERALD_DB=os.path.join(work, f"herald-{run}.db"))
            subprocess.run([herald, "import", urls], check=True, stdout=subprocess.DEVNULL, env=env)
            cold, result = timed([herald, "reload", "--quiet", "--jobs", str(jobs)], env)
            if result.returncode != 0:
                print(result.stdout.decode(), result.stderr.decode(), file=sys.stderr)
            warm, _ = timed([herald, "reload", "--quiet", "--jobs", str(jobs)], env)
            colds.append(cold)
            warms.append(warm)
            rows = subprocess.run([herald, "list", "--json"], stdout=subprocess.PIPE, env=env).stdout.count(b"\n")
        cold = median(colds)
        line = (f"{feeds} feeds x {items} items ({sum(map(len, bodies)) / 1e6:.1f} MB), median of {runs}:"
                f" herald cold {cold:.2f} s (runs {', '.join(f'{c:.2f}' for c in colds)}),"
                f" warm {median(warms):.2f} s, {rows} articles stored")
        newsboat = shutil.which("newsboat")
        if newsboat:
            config = os.path.join(work, "newsboat.conf")
            with open(config, "w") as f:
                f.write("reload-threads 8\n")
            ncolds, nwarms = [], []
            for run in range(max(runs // 2, 1)):
                cache = os.path.join(work, f"newsboat-{run}.db")
                base = [newsboat, "-u", urls, "-c", cache, "-C", config, "-x", "reload"]
                ncolds.append(timed(base)[0])
                nwarms.append(timed(base)[0])
            ncold = median(ncolds)
            line += (f"; newsboat (8 threads, median of {len(ncolds)}) cold {ncold:.2f} s,"
                     f" warm {median(nwarms):.2f} s; herald is {ncold / cold:.1f}x faster cold")
        else:
            line += "; newsboat is not installed (apt-get install newsboat) so there is no ratio"
        print(line, flush=True)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--herald", required=True)
    parser.add_argument("--sizes", default="200x50,500x100")
    parser.add_argument("--jobs", type=int, default=16)
    parser.add_argument("--runs", type=int, default=5, help="herald runs per size (newsboat runs half as many)")
    options = parser.parse_args()
    for size in options.sizes.split(","):
        feeds, items = map(int, size.split("x"))
        bench(os.path.abspath(options.herald), feeds, items, options.jobs, options.runs)


if __name__ == "__main__":
    main()
