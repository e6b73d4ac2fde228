#!/usr/bin/env python3
"""Server-account benchmark: herald syncing through a real Tiny Tiny RSS beside newsboat 2.21 on
the same account, and through a real FreshRSS (newsboat 2.21 has no FreshRSS backend).

The server holds --feeds feeds x --items items of the full corpus of bench_reload.py (every item
a whole HTML article, about 3.7 KB of HTML, a quarter of its paragraphs Korean), served from
loopback and fetched by the server itself before anything is measured. Then, for each reader,
in one run (the machine is shared: compare the ratios; every figure is a median of --runs):

  1. first sync: an empty library (herald) or cache (newsboat) reads the whole account;
  2. nothing new: the same again, nothing changed on the server;
  3. herald's first screen on the synced library with the server stopped (unreachable).

Wall time, CPU seconds (user+sys of the reader alone, from wait4) and peak RSS (ru_maxrss).
newsboat runs `newsboat -x reload` with urls-source "ttrss"; herald runs `herald reload`.

Both servers are started by ../shared/servers/ (TT-RSS needs root); HERALD_SERVERS overrides
where. Targets (issue 27): first sync >= 3x faster than newsboat, nothing new <= 0.5 s, the
first screen <= 50 ms with the server unreachable.

  python3 Scripts/bench_accounts.py --herald .build/release/herald [--feeds 200 --items 50]
      [--runs 3] [--skip-freshrss] [--skip-ttrss]

Standard library only (plus php, PostgreSQL and newsboat, which the server scripts and the
Makefile install).
"""

import argparse
import functools
import hashlib
import http.server
import json
import os
import shutil
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_reload  # noqa: E402  (the corpus and the child runner)
import measure_terminal  # noqa: E402  (the pty child)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = os.environ.get("HERALD_SERVERS") or os.path.join(os.path.dirname(REPO), "shared", "servers")
USER, PASSWORD = "bench", "bench-password-1"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FeedServer:
    """The corpus's feeds on loopback, for the servers to fetch."""

    def __init__(self, directory):
        handler = functools.partial(Quiet, directory=directory)
        self.httpd = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, n):
        return f"http://127.0.0.1:{self.port}/feed-{n}.xml"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def write_corpus(directory, feeds, items, seed):
    total = 0
    for n in range(feeds):
        doc, html_bytes, _, _ = bench_reload.make_full_feed(seed, n, items)
        with open(os.path.join(directory, f"feed-{n}.xml"), "wb") as handle:
            handle.write(doc)
        total += html_bytes
    return total


def psql(sql):
    env = dict(os.environ, PGPASSWORD="ttrsspw")
    out = subprocess.run(["psql", "-qtAh", "localhost", "-U", "ttrss", "ttrss", "-c", sql],
                         env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def ttrss_api(port, op, **fields):
    body = json.dumps(dict(op=op, **fields)).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.loads(response.read())
    if answer.get("status") != 0:
        raise RuntimeError(f"tt-rss {op}: {answer}")
    return answer["content"]


def ttrss_fill(work, urls):
    """A TT-RSS with the user `bench` subscribed to `urls`, every feed fetched."""
    port = free_port()
    subprocess.run(["bash", os.path.join(SERVERS, "start-ttrss.sh"), work, str(port)], check=True)
    # Debian's tt-rss may take php-mysql for "php-mysql | php-pgsql": without PDO's PostgreSQL
    # driver every call fails. Installed once, then the server started again.
    if "pdo_pgsql" not in subprocess.run(["php", "-m"], capture_output=True, text=True).stdout:
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "php-pgsql"],
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), check=True)
        stop_server(work)
        port = free_port()
        subprocess.run(["bash", os.path.join(SERVERS, "start-ttrss.sh"), work, str(port)], check=True)
    psql(f"DELETE FROM ttrss_users WHERE login = '{USER}'")
    digest = hashlib.sha1(PASSWORD.encode()).hexdigest()
    uid = psql(f"INSERT INTO ttrss_users (login, pwd_hash, access_level, salt, created) "
               f"VALUES ('{USER}', 'SHA1:{digest}', 0, '', NOW()) RETURNING id").splitlines()[0]
    psql(f"INSERT INTO ttrss_user_prefs (owner_uid, pref_name, profile, value) "
         f"VALUES ({uid}, 'ENABLE_API_ACCESS', NULL, 'true')")
    session = ttrss_api(port, "login", user=USER, password=PASSWORD)["session_id"]
    for url in urls:
        ttrss_api(port, "subscribeToFeed", sid=session, feed_url=url)
    count = lambda: int(psql(f"SELECT count(*) FROM ttrss_user_entries WHERE owner_uid = {uid}"))
    for _ in range(20):
        subprocess.run(["runuser", "-u", "www-data", "--", "php", "/usr/share/tt-rss/www/update.php", "--feeds"],
                       capture_output=True, check=False)
        if count() >= len(urls) * ARGS.items:
            break
    return port, count()


def stop_server(work):
    """Kills what a server script left running: php.pid names the PHP server, or (TT-RSS)
    runuser, whose child is the PHP server, whose children are its workers."""
    try:
        pid = int(open(os.path.join(work, "php.pid")).read())
    except (OSError, ValueError):
        return
    def children(p):
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(p)], capture_output=True, text=True).stdout
        return [int(x) for x in out.split()]
    for child in children(pid):
        for grandchild in children(child):
            os.kill(grandchild, 9)
        os.kill(child, 9)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


def freshrss_fill(work, urls):
    port = free_port()
    subprocess.run(["bash", os.path.join(SERVERS, "start-freshrss.sh"), work, str(port), USER, PASSWORD,
                    PASSWORD, *urls], check=True, capture_output=True)
    return port


def herald_env(home, source, url):
    config_dir = os.path.join(home, "config", "herald")
    os.makedirs(config_dir, exist_ok=True)
    secret = os.path.join(home, "password")
    with open(secret, "w") as handle:
        handle.write(PASSWORD + "\n")
    os.chmod(secret, 0o600)
    config = os.path.join(config_dir, "config")
    with open(config, "w") as handle:
        handle.write(f"set urls-source {source}\nset {source}-url {url}\nset {source}-login {USER}\n"
                     f"set {source}-passwordfile {secret}\n")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_DATA_HOME=os.path.join(home, "data"))
    return env, config


def herald_syncs(binary, home, source, url, runs):
    """First syncs (each on an empty library) and nothing-new syncs: lists of Results."""
    env, _ = herald_env(home, source, url)
    first, again = [], []
    db = os.path.join(home, "herald.db")
    for run in range(runs):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        result = bench_reload.run_child([binary, "--db", db, "reload"], env=env, keep_stdout=True)
        if result.status != 0:
            raise RuntimeError(f"herald reload failed: {result.stderr} {result.stdout}")
        first.append(result)
    print(f"  herald said: {first[-1].stdout.strip().splitlines()[-1]}", flush=True)
    for _ in range(runs):
        again.append(bench_reload.run_child([binary, "--db", db, "reload"], env=env, keep_stdout=True))
    return first, again, db, env


def newsboat_syncs(home, port, runs):
    os.makedirs(home, exist_ok=True)
    config = os.path.join(home, "config")
    with open(config, "w") as handle:
        handle.write(f'urls-source "ttrss"\nttrss-url "http://127.0.0.1:{port}/"\n'
                     f'ttrss-login "{USER}"\nttrss-password "{PASSWORD}"\nreload-threads 8\n')
    urls = os.path.join(home, "urls")
    open(urls, "w").close()
    cache = os.path.join(home, "cache.db")
    argv = ["newsboat", "-C", config, "-u", urls, "-c", cache, "-x", "reload"]
    env = dict(os.environ, HOME=home)
    first, again = [], []
    for _ in range(runs):
        for path in (cache, cache + ".lock"):
            if os.path.exists(path):
                os.remove(path)
        first.append(bench_reload.run_child(argv, env=env))
    for _ in range(runs):
        again.append(bench_reload.run_child(argv, env=env))
    import sqlite3
    with sqlite3.connect(cache) as db:
        items = db.execute("SELECT count(*) FROM rss_item").fetchone()[0]
    print(f"  newsboat holds {items} articles", flush=True)
    return first, again


def first_screen(binary, db, env, runs):
    """herald's first frame on the synced library, the server stopped (milliseconds)."""
    times = []
    for _ in range(runs):
        child = measure_terminal.Child(binary, None, argv=[binary, "--db", db], env=env)
        try:
            start = child.spawn()
            output = bytearray()
            shown = child.read_until(
                lambda b: all(m in b for m in measure_terminal.DB_FIRST_FRAME_MARKERS), 15.0, output)
            if shown is None:
                raise RuntimeError(f"no first frame: {bytes(output[-300:])!r}")
            times.append((shown - start) * 1000)
            child.send(b"q")
            child.reap(5.0)
        finally:
            child.close()
    return times


def report(label, herald, newsboat=None):
    wall = lambda rs: [r.wall for r in rs]
    bench_reload.print_figure(label, "wall", bench_reload.med(wall(herald)),
                              newsboat and bench_reload.med(wall(newsboat)), bench_reload.seconds,
                              wall(herald), newsboat and wall(newsboat))
    cpu = lambda rs: [r.cpu for r in rs]
    bench_reload.print_figure(label, "CPU", bench_reload.med(cpu(herald)),
                              newsboat and bench_reload.med(cpu(newsboat)), bench_reload.seconds)
    rss = lambda rs: [r.rss_kib for r in rs]
    bench_reload.print_figure(label, "peak RSS", bench_reload.med(rss(herald)),
                              newsboat and bench_reload.med(rss(newsboat)), bench_reload.mib)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--herald", default=os.path.join(REPO, ".build", "release", "herald"))
    parser.add_argument("--feeds", type=int, default=200)
    parser.add_argument("--items", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skip-ttrss", action="store_true")
    parser.add_argument("--skip-freshrss", action="store_true")
    ARGS = parser.parse_args()
    binary = os.path.abspath(ARGS.herald)
    work = tempfile.mkdtemp(prefix="herald-bench-accounts-")
    try:
        corpus = os.path.join(work, "feeds")
        os.makedirs(corpus)
        html_bytes = write_corpus(corpus, ARGS.feeds, ARGS.items, ARGS.seed)
        feeds = FeedServer(corpus)
        urls = [feeds.url(n) for n in range(ARGS.feeds)]
        print(f"accounts: {ARGS.feeds} feeds x {ARGS.items} full-content articles "
              f"({html_bytes / (ARGS.feeds * ARGS.items) / 1024:.1f} KB of HTML each), {ARGS.runs} runs",
              flush=True)
        if not ARGS.skip_ttrss:
            if os.geteuid() != 0:
                print("accounts: TT-RSS skipped (its server script needs root)")
            else:
                port, held = ttrss_fill(os.path.join(work, "ttrss"), urls)
                print(f"TT-RSS holds {held} articles for {USER}", flush=True)
                h_first, h_again, db, env = herald_syncs(
                    binary, os.path.join(work, "h-ttrss"), "ttrss", f"http://127.0.0.1:{port}/", ARGS.runs)
                n_first = n_again = None
                if shutil.which("newsboat"):
                    n_first, n_again = newsboat_syncs(os.path.join(work, "n-ttrss"), port, ARGS.runs)
                report("ttrss first sync", h_first, n_first)
                report("ttrss nothing new", h_again, n_again)
                stop_server(os.path.join(work, "ttrss"))
                shown = first_screen(binary, db, env, max(ARGS.runs, 5))
                print(f"ttrss first screen, server stopped: median {bench_reload.med(shown):.1f} ms "
                      f"(runs {', '.join(f'{t:.1f}' for t in shown)})", flush=True)
        if not ARGS.skip_freshrss:
            port = freshrss_fill(os.path.join(work, "freshrss"), urls)
            h_first, h_again, _, _ = herald_syncs(
                binary, os.path.join(work, "h-freshrss"), "freshrss", f"http://127.0.0.1:{port}/", ARGS.runs)
            report("freshrss first sync", h_first)
            report("freshrss nothing new", h_again)
            stop_server(os.path.join(work, "freshrss"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
