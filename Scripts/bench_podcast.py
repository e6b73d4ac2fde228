#!/usr/bin/env python3
"""Podcast benchmark: a large episode downloaded from loopback, headless and under the reader.

Both sections serve the episode from the test fixture server
(Tests/HeraldTestSupport/Server/fixture_server.py, on 127.0.0.1): `/podcast/N` is a feed of one
item whose enclosure is `/episode/N/episode.mp3`, N bytes where byte i is i % 251. Each section
runs in a fresh temporary HOME (its config sets `download-path`) and library: the feed is added
and reloaded, and its episode queued with `herald podcasts add`.

  1. headless: `herald podcasts download` of a --megabytes MiB episode (default 200), the
     server sending as fast as it can: wall seconds, MB/s, the child's CPU seconds (user+sys,
     os.wait4) and its peak RSS (ru_maxrss from wait4, and VmHWM of /proc/PID/status read
     until it exits: ru_maxrss also counts this script's pages, which the fork copied);
  2. the reader while it downloads: the same episode throttled (`?rate=`, --rate-mb MB/s,
     which the fixture paces by the clock; 0 sends unthrottled) is queued before the reader
     starts, with a second feed (`/podcast/1000`) so the feed list has two rows for `j`/`k` to
     move between. The reader runs in a 100x30 pty (xterm-256color) and starts the download
     itself. While the `.part` file grows, `j` and `k` alternately, every ~--key-gap-ms once
     the output has been quiet --quiet-ms, up to --keys of them: the time from writing a key
     to the first byte written after it, and to the frame that draws the new selection bar
     ("> N" of the feed row). /proc/PID/status VmRSS of the reader (the pty's child is herald
     itself) is sampled between keys, with the download's progress, and VmHWM is read when
     the finished file appears. Then `q` (until it exits, at most 3), which must end it with
     status 0.

Each downloaded file is checked, streaming: its size, and every byte i == i % 251. The
targets (the issue's): p99 of key to new selection <= 16 ms, and the reader's peak <= 60 MB
(10^6 bytes) while it downloads. Exits 1 when a file is wrong, a run fails or a target is
missed.

  python3 Scripts/bench_podcast.py --herald .build/release/herald [--megabytes 200]
      [--rate-mb 20] [--keys 200]

Standard library only.
"""

import argparse
import errno
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE_SERVER = os.path.join(REPO, "Tests", "HeraldTestSupport", "Server", "fixture_server.py")
COLUMNS, ROWS = 100, 30
MIB = 1 << 20
TARGET_P99_MS = 16.0
TARGET_PEAK_BYTES = 60_000_000
SECOND_FEED_BYTES = 1000

# The reader's first frame (feed list: status line and key hint), and its selected row, drawn
# as "> N  (unread/total)  title" (N the feed's number).
FIRST_FRAME = [b"feeds \xc2\xb7", b"q:quit"]
SELECTED = re.compile(rb">\s+(\d+)\s")


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------
# The server, and the library each section starts from


class FixtureServer:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, FIXTURE_SERVER], stdout=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.strip().isdigit():
            self.stop()
            raise Failure(f"the fixture server printed no port ({line!r})")
        self.port = int(line)

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Library:
    """A temporary HOME (with a config setting download-path) and a library in it."""

    def __init__(self, herald, tag):
        self.herald = herald
        self.home = tempfile.mkdtemp(prefix=f"herald-podcast-bench-{tag}-")
        self.db = os.path.join(self.home, "library.db")
        self.downloads = os.path.join(self.home, "episodes")
        config = os.path.join(self.home, ".config", "herald")
        os.makedirs(config)
        with open(os.path.join(config, "config"), "w") as f:
            f.write(f'set download-path "{self.downloads}/"\n')
        self.env = dict(os.environ, HOME=self.home)
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "HERALD_DB",
                     "HERALD_PLAYER", "TMUX", "TMUX_PANE", "STY"):
            self.env.pop(name, None)

    def run(self, *args):
        argv = [self.herald, "--db", self.db] + list(args)
        done = subprocess.run(argv, env=self.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=600)
        if done.returncode != 0:
            raise Failure(f"`herald {' '.join(args)}` exited {done.returncode}: {done.stderr.strip()[-500:]}")
        return done.stdout

    def queue(self, feed_urls, episode_feed):
        """Adds and reloads the feeds; queues the episode of `episode_feed`: its path."""
        for url in feed_urls:
            self.run("add", url)
        self.run("reload", "--quiet")
        articles = [json.loads(line) for line in self.run("list", "--json").splitlines() if line.strip()]
        wanted = [a for a in articles if a.get("feed_url") == episode_feed]
        if len(wanted) != 1:
            raise Failure(f"expected one article from {episode_feed}, found {len(wanted)} in {len(articles)}")
        said = self.run("podcasts", "add", str(wanted[0]["id"])).strip()
        if not said.startswith("queued:"):
            raise Failure(f"`podcasts add` said {said!r}")
        entries = self.entries()
        if len(entries) != 1 or entries[0].get("state") != "queued":
            raise Failure(f"the queue after `podcasts add`: {entries}")
        return entries[0]["path"]

    def entries(self):
        return [json.loads(line) for line in self.run("podcasts", "--json").splitlines() if line.strip()]

    def remove(self):
        shutil.rmtree(self.home, ignore_errors=True)


def verify_episode(path, size):
    """The file holds `size` bytes, byte i being i % 251; read in blocks, never whole."""
    if not os.path.exists(path):
        raise Failure(f"no file at {path}")
    actual = os.path.getsize(path)
    if actual != size:
        raise Failure(f"{path} holds {actual:,} bytes, not {size:,}")
    block = 251 * 4096  # a whole number of periods: every block starts at i % 251 == 0
    expected = bytes(range(251)) * 4096
    offset = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(block)
            if not chunk:
                break
            if chunk != expected[:len(chunk)]:
                at = next(i for i in range(len(chunk)) if chunk[i] != expected[i])
                raise Failure(f"{path}: byte {offset + at:,} is {chunk[at]}, not {(offset + at) % 251}")
            offset += len(chunk)
    if offset != size:
        raise Failure(f"{path}: read {offset:,} bytes, not {size:,}")


def proc_status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for row in f:
                if row.startswith(field + ":"):
                    return int(row.split()[1])
    except OSError:
        pass
    return None


def file_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def part_writer(pid, part):
    """Which process holds `part` open: the reader itself, a child of it, or none seen."""
    deadline = time.perf_counter() + 2.0
    while time.perf_counter() < deadline:
        pids = [pid]
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    pids += [int(p) for p in f.read().split()]
            except OSError:
                pass
        for holder in pids:
            try:
                fds = os.listdir(f"/proc/{holder}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{holder}/fd/{fd}") == part:
                        return "the reader" if holder == pid else f"its child {holder}"
                except OSError:
                    pass
        time.sleep(0.01)
    return "no process seen"


def mib(kib):
    return f"{kib / 1024:.1f} MiB ({kib * 1024 / 1e6:.1f} MB)"


# ---------------------------------------------------------------------------------------
# 1. headless: herald podcasts download


def headless(options, server):
    size = options.megabytes * MIB
    shape = f"{options.megabytes} MiB episode ({size:,} bytes) from 127.0.0.1, unthrottled"
    print(f"== podcasts download (headless): {shape}", flush=True)
    library = Library(options.herald, "headless")
    try:
        feed = server.url(f"/podcast/{size}")
        path = library.queue([feed], feed)
        argv = [options.herald, "--db", library.db, "podcasts", "download"]
        err_path = os.path.join(library.home, "download.stderr")
        null = os.open(os.devnull, os.O_RDWR)
        err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        start = time.perf_counter()
        pid = os.posix_spawn(options.herald, argv, library.env,
                             file_actions=[(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                                           (os.POSIX_SPAWN_DUP2, err, 2)])
        os.close(null)
        os.close(err)
        hwm_kib = 0
        deadline = start + options.timeout
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.wait4(pid, 0)
                raise Failure(f"`podcasts download` still ran after {options.timeout:.0f} s")
            hwm_kib = max(hwm_kib, proc_status_kib(pid, "VmHWM") or 0)
            time.sleep(0.02)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            tail = open(err_path, errors="replace").read()[-500:]
            raise Failure(f"`podcasts download` exited {code}: {tail}")
        verify_episode(path, size)
        states = [e.get("state") for e in library.entries()]
        if states != ["finished"]:
            raise Failure(f"the queue after the download: {states}")
        cpu = usage.ru_utime + usage.ru_stime
        print(f"   [headless {options.megabytes} MiB] wall {wall:.2f} s, {size / wall / 1e6:.0f} MB/s; "
              f"CPU {cpu:.2f} s (user {usage.ru_utime:.2f}, sys {usage.ru_stime:.2f}); "
              f"peak RSS {mib(hwm_kib)} (VmHWM; ru_maxrss {usage.ru_maxrss / 1024:.1f} MiB)", flush=True)
        print(f"   [headless {options.megabytes} MiB] file checked: {size:,} bytes, byte i == i % 251", flush=True)
        return {"wall": wall, "cpu": cpu, "peak_kib": hwm_kib}
    finally:
        library.remove()


# ---------------------------------------------------------------------------------------
# 2. the reader in a pty while it downloads


class PtyChild:
    """A program on the slave side of a new COLUMNS x ROWS pty, in its own session (after
    Scripts/measure_terminal.py's Child). Its pid is the program's own: no shell between."""

    def __init__(self, argv, env):
        master, slave = pty.openpty()
        # The size must be right before exec: ncurses reads it once at start-up.
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = dict(env, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   COLUMNS=str(COLUMNS), LINES=str(ROWS))
        pid = os.fork()
        if pid == 0:
            try:
                os.close(master)
                os.setsid()
                fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
                for fd in (0, 1, 2):
                    os.dup2(slave, fd)
                if slave > 2:
                    os.close(slave)
                os.execve(argv[0], argv, env)
            except BaseException as error:  # noqa: BLE001 -- report anything, then die
                os.write(2, f"exec {argv[0]} failed: {error}\n".encode())
            finally:
                os._exit(127)
        os.close(slave)
        self.pid, self.master = pid, master
        self.status, self.usage, self.eof = None, None, False

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
        deadline = time.perf_counter() + timeout
        while not predicate(buffer):
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or self.eof:
                return False
            buffer += self.read_some(remaining)
        return True

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

    def poll(self):
        if self.status is None:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.status, self.usage = status, usage
        return self.status

    def wait(self, timeout):
        """Waits for the child to exit, draining its output; None if it still runs."""
        deadline = time.perf_counter() + timeout
        while self.poll() is None and time.perf_counter() < deadline:
            self.read_some(0.02)
        return self.status

    def close(self):
        if self.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _, self.status, self.usage = os.wait4(self.pid, 0)
        os.close(self.master)


def percentile(values, fraction):
    """Nearest-rank percentile (as Scripts/measure_terminal.py)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def spread(values):
    return (f"p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} ms, "
            f"max {max(values):.1f} ms, {len(values)} samples")


def reader(options, server):
    size = options.megabytes * MIB
    rate = int(options.rate_mb * 1e6)
    # The fixture paces `?rate=` by the clock (byte n is due n/rate s after the start): the
    # rate measured below is the one asked for, unless the server or the reader falls behind.
    shape = (f"{options.megabytes} MiB episode ({size:,} bytes) from 127.0.0.1, "
             + (f"throttled to {options.rate_mb:g} MB/s (?rate={rate})" if rate else "unthrottled"))
    print(f"== the reader while it downloads: {shape}; feed list of 2 feeds; {COLUMNS}x{ROWS} pty, "
          f"xterm-256color; j/k alternately every ~{options.key_gap_ms:.0f} ms, each once the output has "
          f"been quiet {options.quiet_ms:.0f} ms, up to {options.keys} keys", flush=True)
    prefix = f"   [reader {options.megabytes} MiB " + (f"at {options.rate_mb:g} MB/s]" if rate else "unthrottled]")
    library = Library(options.herald, "reader")
    child = None
    try:
        feed = server.url(f"/podcast/{size}" + (f"?rate={rate}" if rate else ""))
        path = library.queue([feed, server.url(f"/podcast/{SECOND_FEED_BYTES}")], feed)
        part = path + ".part"
        spawned = time.perf_counter()
        child = PtyChild([options.herald, "--db", library.db], library.env)
        output = bytearray()
        if not child.read_until(lambda b: all(m in b for m in FIRST_FRAME), 20.0, output):
            raise Failure(f"no first frame within 20 s (tail {bytes(output[-300:])!r})")
        child.read_until_quiet(0.3, 10.0, output)
        start_rss = proc_status_kib(child.pid, "VmRSS")
        # Which row each key selects.
        labels = []
        for key in (b"j", b"k"):
            child.send(key)
            answer = bytearray()
            child.read_until_quiet(0.3, 5.0, answer)
            found = SELECTED.findall(answer)
            labels.append(found[-1] if found else None)
        if None in labels or labels[0] == labels[1]:
            raise Failure(f"cannot tell the selected row from a key's frame (labels {labels}; "
                          f"tail {bytes(answer[-300:])!r})")
        # The reader starts the download by itself.
        deadline = time.perf_counter() + 30.0
        while file_size(part) is None and not os.path.exists(path):
            if time.perf_counter() > deadline:
                raise Failure(f"the reader started no download within 30 s of its first frame "
                              f"(no {part}; queue: {library.entries()})")
            child.read_some(0.05)
        started = time.perf_counter()
        before = file_size(part) or 0
        writer = part_writer(child.pid, part)
        quiet, gap = options.quiet_ms / 1000.0, options.key_gap_ms / 1000.0
        rss = []  # (seconds since the download started, bytes received, VmRSS KiB)

        def sample():
            kib = proc_status_kib(child.pid, "VmRSS")
            if kib is not None:
                rss.append((time.perf_counter() - started, file_size(part) or 0, kib))

        firsts, drawn, missed, key = [], [], 0, 0
        sink = bytearray()
        while len(firsts) < options.keys and not os.path.exists(path):
            if child.poll() is not None:
                raise Failure(f"the reader exited during the download ({child.status})")
            sink.clear()
            child.read_until_quiet(quiet, 0.5, sink)  # let the reader's own frames finish
            sample()
            if os.path.exists(path):
                break
            label = labels[key % 2]
            sent = time.perf_counter()
            child.send(b"jk"[key % 2:key % 2 + 1])
            key += 1
            answer, first, seen = bytearray(), None, None
            while seen is None and time.perf_counter() - sent < 5.0 and not child.eof:
                data = child.read_some(5.0 - (time.perf_counter() - sent))
                if not data:
                    continue
                now = time.perf_counter()
                first = first or now
                answer += data
                found = SELECTED.findall(answer)
                if found and found[-1] == label:
                    seen = now
            if first is None:
                raise Failure("no output within 5 s of a key")
            firsts.append((first - sent) * 1000.0)
            if seen is None:
                missed += 1
            else:
                drawn.append((seen - sent) * 1000.0)
            child.read_until_quiet(quiet, 2.0, sink)
            rest = gap - (time.perf_counter() - sent)
            if rest > 0:
                child.read_until_quiet(rest, rest, sink)
        keys_ended = time.perf_counter() - started
        # The rest of the download, if the keys ran out first: memory only.
        deadline = time.perf_counter() + options.timeout
        while not os.path.exists(path):
            if time.perf_counter() > deadline:
                raise Failure(f"the download did not finish within {options.timeout:.0f} s "
                              f"({file_size(part)} bytes in {part}; queue: {library.entries()})")
            if child.poll() is not None:
                raise Failure(f"the reader exited during the download ({child.status})")
            sample()
            child.read_until_quiet(0.1, 0.1, sink)
        download = time.perf_counter() - started
        spawned_to_done = time.perf_counter() - spawned
        sample()
        # VmHWM is the kernel's high-water mark, updated lazily: never below a VmRSS sampled.
        hwm = proc_status_kib(child.pid, "VmHWM")
        if hwm is not None:
            hwm = max([hwm] + [r[2] for r in rss])
        child.read_until_quiet(0.3, 5.0, sink)
        # Quit: the feed list quits on q.
        for _ in range(3):
            child.send(b"q")
            if child.wait(5.0) is not None:
                break
        if child.poll() is None:
            raise Failure("the reader did not exit after 3 q")
        code = os.waitstatus_to_exitcode(child.status)
        if code != 0:
            raise Failure(f"the reader exited {code}")
        verify_episode(path, size)
        states = [e.get("state") for e in library.entries()]
        if states != ["finished"]:
            raise Failure(f"the queue after the reader's download: {states}")
        if not drawn:
            raise Failure(f"no key drew its selection within 5 s ({len(firsts)} keys sent)")
        if hwm is None:
            raise Failure("could not read the reader's VmHWM")

        p99 = percentile(drawn, 0.99)
        peak_bytes = hwm * 1024
        print(f"{prefix} download: done {spawned_to_done:.1f} s after the reader started; "
              f"{(size - before) / 1e6:.0f} MB in the {download:.1f} s measured ({(size - before) / download / 1e6:.1f} "
              f"MB/s; {before / 1e6:.1f} MB came while the keys' rows were learnt); "
              f"file checked: {size:,} bytes, byte i == i % 251; the reader exited 0; "
              f"the .part file was held open by {writer}", flush=True)
        print(f"{prefix} j/k -> first output byte: {spread(firsts)}", flush=True)
        print(f"{prefix} j/k -> frame with the new selection drawn: {spread(drawn)}"
              + (f" ({missed} keys never drew it within 5 s)" if missed else "")
              + f"; keys during the first {keys_ended:.1f} s of the download", flush=True)
        marks = []
        for fraction in (0.1, 0.5, 0.9):
            near = [r for r in rss if r[1] >= fraction * size]
            if near:
                marks.append(f"{near[0][2] / 1024:.1f} MiB at {fraction:.0%}")
        print(f"{prefix} reader VmRSS: {start_rss / 1024:.1f} MiB at its first frame, "
              + ", ".join(marks) + f", {max(r[2] for r in rss) / 1024:.1f} MiB the most sampled "
              f"({len(rss)} samples); peak {mib(hwm)} (VmHWM)", flush=True)
        holds_keys = p99 <= TARGET_P99_MS and not missed
        holds_peak = peak_bytes <= TARGET_PEAK_BYTES
        print(f"{prefix} targets: j/k p99 {p99:.1f} ms <= {TARGET_P99_MS:.0f} ms: "
              f"{'holds' if holds_keys else 'MISSED'}; peak {peak_bytes / 1e6:.1f} MB <= "
              f"{TARGET_PEAK_BYTES / 1e6:.0f} MB: {'holds' if holds_peak else 'MISSED'}", flush=True)
        return holds_keys and holds_peak
    finally:
        if child is not None:
            child.close()
        library.remove()


# ---------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--herald", required=True, help="the herald binary")
    parser.add_argument("--megabytes", type=int, default=200, help="the episode's size in MiB (default 200)")
    parser.add_argument("--rate-mb", type=float, default=20, help="the reader section's rate, MB/s (default 20; 0: unthrottled)")
    parser.add_argument("--keys", type=int, default=200, help="at most this many keys during the download")
    parser.add_argument("--key-gap-ms", type=float, default=50)
    parser.add_argument("--quiet-ms", type=float, default=8, help="quiet before a key and after its frame")
    parser.add_argument("--timeout", type=float, default=600, help="seconds a download may take")
    parser.add_argument("--skip-headless", action="store_true")
    parser.add_argument("--skip-reader", action="store_true")
    options = parser.parse_args()
    options.herald = os.path.abspath(options.herald)
    if not os.access(options.herald, os.X_OK):
        parser.error(f"no executable herald at {options.herald}")
    print(f"herald: {options.herald}", flush=True)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    server = FixtureServer()
    ok = True
    try:
        if not options.skip_headless:
            headless(options, server)
        if not options.skip_reader:
            ok = reader(options, server)
    except Failure as error:
        print(f"FAILED: {error}", flush=True)
        return 1
    finally:
        server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
