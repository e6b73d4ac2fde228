#!/usr/bin/env python3
"""Measure what herald costs a real terminal: time to the first frame, bytes per keystroke.

Runs the herald binary in a pseudo-terminal of 100x40 (TERM=xterm-256color, LANG=C.UTF-8) on
a temporary directory of 30 small JSON Feed 1.1 files ("Feed 01" .. "Feed 30", 3 items each),
so the feed list has 30 rows, all visible. For each of --runs runs it reports:

  1. time to first frame: from just before fork/exec until the output stream holds the whole
     first frame -- the last feed's title "Feed 30", the status line "1/30 feeds · …" and the
     key hint's "q:quit" (the hint is the last row ncurses draws);
  2. bytes for `j`: once the first frame is out and the output has been quiet for 300 ms,
     send `j` and count everything written until quiet for 300 ms again (the selection
     bar moves from one feed row to the next); where newsboat is installed, the same for
     newsboat on the same 30 feeds written as RSS 2.0, in the same pty;

and, for comparison, the size of the first full frame (everything written from start until
the output first goes quiet). Then it sends `q` and reaps the child (killing it if it hangs).

Standard library only.

    python3 Scripts/measure_terminal.py [--binary PATH] [--runs N] [--json]
"""

import argparse
import errno
import fcntl
import json
import os
import pty
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

COLUMNS = 100
ROWS = 40
FEEDS = 30
ITEMS_PER_FEED = 3
QUIET = 0.300  # seconds of silence that count as "the terminal is idle"
FIRST_FRAME_TIMEOUT = 15.0
SETTLE_TIMEOUT = 10.0
EXIT_TIMEOUT = 5.0

# What the complete first frame must contain (see the module docstring).
FIRST_FRAME_MARKERS = [
    f"Feed {FEEDS:02d}".encode(),
    f"{FEEDS} feeds".encode(),
    b"q:quit",
]

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_binary():
    release = os.path.join(REPO, ".build", "release", "herald")
    debug = os.path.join(REPO, ".build", "debug", "herald")
    return release if os.path.exists(release) else debug


def write_feeds(directory):
    """Writes feed-01.json .. feed-30.json into `directory`."""
    for number in range(1, FEEDS + 1):
        name = f"Feed {number:02d}"
        items = []
        for item in range(1, ITEMS_PER_FEED + 1):
            items.append({
                "id": f"https://example.org/feed-{number:02d}/items/{item}",
                "url": f"https://example.org/feed-{number:02d}/items/{item}",
                "title": f"{name}, item {item}",
                "content_text": f"Item {item} of {name}. A short body, one paragraph long.",
                "date_published": f"2026-10-{item:02d}T09:00:00Z",
            })
        feed = {
            "version": "https://jsonfeed.org/version/1.1",
            "title": name,
            "home_page_url": f"https://example.org/feed-{number:02d}",
            "feed_url": f"https://example.org/feed-{number:02d}/feed.json",
            "items": items,
        }
        path = os.path.join(directory, f"feed-{number:02d}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(feed, handle, ensure_ascii=False, indent=1)


class Child:
    """herald on the slave side of a new pty, in its own session."""

    def __init__(self, binary, feeds, db=None, argv=None, env=None, rows=None, columns=None):
        self.binary = binary
        self.feeds = feeds
        self.db = db
        self.argv = argv
        self.env = env
        self.rows = rows or ROWS
        self.columns = columns or COLUMNS
        self.pid = None
        self.master = None
        self.status = None
        self.eof = False

    def spawn(self):
        master, slave = pty.openpty()
        # The size must be right before exec: ncurses reads it once at start-up.
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.columns, 0, 0))
        env = dict(os.environ if self.env is None else self.env)
        env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   COLUMNS=str(self.columns), LINES=str(self.rows))
        for name in ("TMUX", "TMUX_PANE", "STY"):
            env.pop(name, None)
        argv = [self.binary, "--db", self.db] if self.db else [self.binary, "--feeds", self.feeds]
        if self.argv:
            argv = self.argv
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.close(master)
                os.setsid()
                fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
                for fd in (0, 1, 2):
                    os.dup2(slave, fd)
                if slave > 2:
                    os.close(slave)
                os.execve(self.binary, argv, env)
            except BaseException as error:  # noqa: BLE001 -- report anything, then die
                os.write(2, f"exec {self.binary} failed: {error}\n".encode())
            finally:
                os._exit(127)
        os.close(slave)
        self.pid = pid
        self.master = master
        return start

    def read_some(self, timeout):
        """Bytes available within `timeout` seconds (b"" on timeout or end of output)."""
        if self.eof:
            time.sleep(max(0.0, min(timeout, 0.05)))
            return b""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return b""
        try:
            data = os.read(self.master, 65536)
        except OSError as error:
            if error.errno != errno.EIO:  # EIO: the slave side is closed (child gone)
                raise
            data = b""
        if not data:
            self.eof = True
        return data

    def read_until(self, predicate, timeout, buffer):
        """Reads into `buffer` until predicate(buffer); returns the time it held, or None."""
        deadline = time.perf_counter() + timeout
        while True:
            if predicate(buffer):
                return time.perf_counter()
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or self.eof:
                return None
            buffer += self.read_some(remaining)

    def read_until_quiet(self, quiet, timeout, buffer):
        """Reads into `buffer` until nothing arrives for `quiet` seconds; False on timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            now = time.perf_counter()
            if now >= deadline:
                return False
            data = self.read_some(min(quiet, deadline - now))
            if not data:
                return True
            buffer += data

    def send(self, data):
        os.write(self.master, data)

    def reap(self, timeout):
        """Waits for the child to exit (draining its output); kills it after `timeout`."""
        deadline = time.perf_counter() + timeout
        while self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
                break
            if time.perf_counter() >= deadline:
                self.kill()
                break
            self.read_some(0.02)
        return self.status

    def kill(self):
        if self.pid is None or self.status is not None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, self.status = os.waitpid(self.pid, 0)

    def close(self):
        self.kill()
        if self.master is not None:
            os.close(self.master)
            self.master = None


def exit_description(status):
    if status is None:
        return "not reaped"
    if os.WIFEXITED(status):
        return f"exit {os.WEXITSTATUS(status)}"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"status {status}"


# With --db the library decides what is on screen: the frame is complete once the status
# line and the key hint are drawn.
DB_FIRST_FRAME_MARKERS = ["feeds \u00b7".encode(), b"unread of", b"q:quit"]


def peak_memory_kib(pid):
    """VmHWM (peak resident set) of a live process, in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def browse(child):
    """Opens the first feed, goes to its end (End: G sorts, as in newsboat), pages back, opens an
    article, searches."""
    for keys in [b"\r", b"\x1bOF", b"\x1b[5~" * 20, b"\r", b"q", b"/", b"garden", b"\x1b", b"q"]:
        child.send(keys)
        child.read_until_quiet(0.4 if keys == b"garden" else QUIET / 3, SETTLE_TIMEOUT, bytearray())


def measure_once(binary, feeds, db=None):
    child = Child(binary, feeds, db)
    markers = DB_FIRST_FRAME_MARKERS if db else FIRST_FRAME_MARKERS
    try:
        start = child.spawn()
        output = bytearray()
        shown = child.read_until(
            lambda buffer: all(marker in buffer for marker in markers),
            FIRST_FRAME_TIMEOUT, output)
        if shown is None:
            raise RuntimeError(
                f"no complete first frame within {FIRST_FRAME_TIMEOUT:.0f} s "
                f"({len(output)} bytes, tail {bytes(output[-300:])!r})")
        first_frame_ms = (shown - start) * 1000.0
        bytes_at_first_frame = len(output)
        if not child.read_until_quiet(QUIET, SETTLE_TIMEOUT, output):
            raise RuntimeError("output never went quiet after the first frame")
        settled_frame_bytes = len(output)

        child.send(b"j")
        moved = bytearray()
        if not child.read_until_quiet(QUIET, SETTLE_TIMEOUT, moved):
            raise RuntimeError("output never went quiet after j")
        # The write after `j` may begin after a scheduling gap; a 300 ms quiet window that ends
        # with nothing read means the key produced no output at all, which we report as is.

        # The same move in an article list (the feed just selected, opened with Enter).
        list_moved = bytearray()
        if not db:
            child.send(b"\r")
            child.read_until_quiet(QUIET, SETTLE_TIMEOUT, bytearray())
            child.send(b"j")
            child.read_until_quiet(QUIET, SETTLE_TIMEOUT, list_moved)
            child.send(b"q")
            child.read_until_quiet(QUIET, SETTLE_TIMEOUT, bytearray())

        peak_kib = None
        if db:
            browse(child)
            peak_kib = peak_memory_kib(child.pid)
        child.send(b"q")
        status = child.reap(EXIT_TIMEOUT)
        clean = status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        return {
            "first_frame_ms": first_frame_ms,
            "first_frame_bytes": bytes_at_first_frame,
            "settled_frame_bytes": settled_frame_bytes,
            "j_bytes": len(moved),
            "j_output": bytes(moved),
            "list_j_bytes": len(list_moved),
            "exit": exit_description(status),
            "clean_exit": clean,
            "peak_kib": peak_kib,
        }
    finally:
        child.close()


def write_rss_feeds(directory):
    """The same 30 feeds as RSS 2.0 files (newsboat reads no JSON Feed), and a urls file."""
    urls = []
    for number in range(1, FEEDS + 1):
        name = f"Feed {number:02d}"
        items = "".join(
            f"<item><title>{name}, item {item}</title>"
            f"<link>https://example.org/feed-{number:02d}/items/{item}</link>"
            f"<guid>https://example.org/feed-{number:02d}/items/{item}</guid>"
            f"<description>Item {item} of {name}. A short body, one paragraph long.</description>"
            f"<pubDate>Thu, {item:02d} Oct 2026 09:00:00 +0000</pubDate></item>"
            for item in range(1, ITEMS_PER_FEED + 1))
        path = os.path.join(directory, f"feed-{number:02d}.xml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>'
                         f"<link>https://example.org/feed-{number:02d}</link>{items}</channel></rss>")
        urls.append("file://" + path)
    with open(os.path.join(directory, "urls"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(urls) + "\n")


def measure_newsboat(runs):
    """Bytes newsboat writes for `j` on the same 30 feeds in the same pty (None if absent)."""
    import shutil
    import subprocess
    newsboat = shutil.which("newsboat")
    if not newsboat:
        return None
    counts = []
    with tempfile.TemporaryDirectory(prefix="herald-newsboat-") as directory:
        write_rss_feeds(directory)
        base = [newsboat, "-u", os.path.join(directory, "urls"), "-c", os.path.join(directory, "cache.db"),
                "-C", os.path.join(directory, "config")]
        open(os.path.join(directory, "config"), "w").close()
        subprocess.run(base + ["-x", "reload"], check=True, capture_output=True, timeout=60)
        for _ in range(runs):
            child = Child(newsboat, None, argv=base)
            try:
                child.spawn()
                output = bytearray()
                if child.read_until(lambda buffer: f"Feed {FEEDS:02d}".encode() in buffer,
                                    FIRST_FRAME_TIMEOUT, output) is None:
                    return None
                child.read_until_quiet(QUIET, SETTLE_TIMEOUT, output)
                # newsboat 2.21 binds no `j` on the feed list: its move is the down arrow, which
                # the terminal sends as ESC O B once newsboat has switched on application keys.
                child.send(b"\x1bOB")
                moved = bytearray()
                child.read_until_quiet(QUIET, SETTLE_TIMEOUT, moved)
                child.send(b"\r")
                child.read_until_quiet(QUIET, SETTLE_TIMEOUT, bytearray())
                child.send(b"\x1bOB")
                list_moved = bytearray()
                child.read_until_quiet(QUIET, SETTLE_TIMEOUT, list_moved)
                counts.append((len(moved), len(list_moved)))
                child.send(b"q")
                child.reap(EXIT_TIMEOUT)
            finally:
                child.close()
    return counts


def percentile(values, fraction):
    """Nearest-rank percentile (p90 of 15 runs is the 14th smallest)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))  # ceil(n * fraction)
    return ordered[int(rank) - 1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=default_binary(),
                        help="herald to measure (default: .build/release/herald if present, "
                             "else .build/debug/herald)")
    parser.add_argument("--runs", type=int, default=15, help="runs (default 15)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--db", help="open this library instead of 30 generated feed files; "
                                     "also browses it and reports peak memory")
    options = parser.parse_args()

    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        parser.error(f"no executable herald at {binary} (run `swift build` first)")
    if options.runs < 1:
        parser.error("--runs must be at least 1")

    results = []
    with tempfile.TemporaryDirectory(prefix="herald-measure-") as feeds:
        write_feeds(feeds)
        for run in range(options.runs):
            try:
                results.append(measure_once(binary, feeds, options.db))
            except RuntimeError as error:
                print(f"run {run + 1}: {error}", file=sys.stderr)
                return 1

    first = [r["first_frame_ms"] for r in results]
    summary = {
        "binary": binary,
        "runs": len(results),
        "terminal": {"columns": COLUMNS, "rows": ROWS, "TERM": "xterm-256color"},
        "feeds": FEEDS,
        "first_frame_ms": {
            "median": round(statistics.median(first), 2),
            "p90": round(percentile(first, 0.90), 2),
            "min": round(min(first), 2),
            "max": round(max(first), 2),
        },
        "first_frame_bytes": {
            "median": statistics.median(r["first_frame_bytes"] for r in results),
            "settled_median": statistics.median(r["settled_frame_bytes"] for r in results),
        },
        "j_bytes": {
            "median": statistics.median(r["j_bytes"] for r in results),
            "min": min(r["j_bytes"] for r in results),
            "max": max(r["j_bytes"] for r in results),
        },
        "j_output_example": results[0]["j_output"].decode("utf-8", "backslashreplace"),
        "clean_exits": sum(r["clean_exit"] for r in results),
        "peak_memory_mib": (round(max(r["peak_kib"] for r in results) / 1024, 1)
                            if options.db else None),
        "library": options.db,
        "exits": sorted({r["exit"] for r in results}),
    }
    # newsboat on the same feeds, where it is installed (the feed-file run only).
    newsboat = None if options.db else measure_newsboat(min(options.runs, 5))
    summary["newsboat_j_bytes"] = (
        {"median": statistics.median(n[0] for n in newsboat), "list_median": statistics.median(n[1] for n in newsboat)}
        if newsboat else None)
    summary["list_j_bytes"] = {"median": statistics.median(r["list_j_bytes"] for r in results)}

    if options.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0 if summary["clean_exits"] == len(results) else 1

    fm = summary["first_frame_ms"]
    fb = summary["first_frame_bytes"]
    jb = summary["j_bytes"]
    print(f"herald: {binary}")
    library = f"library {options.db}" if options.db else f"{FEEDS} feeds x {ITEMS_PER_FEED} items"
    print(f"terminal: {COLUMNS}x{ROWS} xterm-256color, {library}, {len(results)} runs")
    print()
    rows = [
        ("time to first frame", f"median {fm['median']:.1f} ms", f"p90 {fm['p90']:.1f} ms",
         f"min {fm['min']:.1f} / max {fm['max']:.1f} ms"),
        ("first frame size", f"{fb['median']:.0f} bytes", f"{fb['settled_median']:.0f} settled", ""),
        ("bytes for `j`", f"median {jb['median']:.0f}", f"min {jb['min']}", f"max {jb['max']}"),
        ("quit with q", f"{summary['clean_exits']}/{len(results)} clean",
         ", ".join(summary["exits"]), ""),
    ]
    if not options.db:
        nb = summary["newsboat_j_bytes"]
        rows.append(("… in an article list", f"median {summary['list_j_bytes']['median']:.0f}", "", ""))
        rows.append(("newsboat for ↓", f"median {nb['median']:.0f}", f"article list {nb['list_median']:.0f}", "")
                    if nb else ("newsboat for ↓", "not installed", "", ""))
    if options.db:
        rows.append(("peak memory browsing", f"{summary['peak_memory_mib']} MiB", "(VmHWM, max)", ""))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    print()
    print("bytes written for `j` (first run):")
    print(repr(results[0]["j_output"]))
    return 0 if summary["clean_exits"] == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
