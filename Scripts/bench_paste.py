#!/usr/bin/env python3
"""What a long paste into a prompt costs the reader: CPU seconds, measured from /proc.

Runs herald in a pseudo-terminal of 100x30 on a fresh library of the bundled demo feeds,
opens the search prompt (`/`) or the command line (`:`), and writes N characters into the
terminal as fast as it takes them (words of 2-8 letters and spaces, as pasted text is),
then waits until the reader has been quiet for a second (nothing written, no CPU used).
It reports the reader's CPU time (user + system, /proc/PID/stat) from just before the paste
to then: typing, drawing, and the one debounced search that follows. The bound on a
prompt's length (InputLimits.promptBytes) keeps what is past it from costing anything but
its reading; the figure is the product's, not the script's (the script's own writing is not
counted).

    python3 Scripts/bench_paste.py [--herald PATH] [--chars N] [--runs N] [--json]

Standard library only.
"""

import argparse
import json
import os
import pty
import random
import select
import shutil
import statistics
import struct
import fcntl
import termios
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    # After the command: state is field 3; utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / TICKS


def drain(fd, seconds):
    end, out = time.time() + seconds, b""
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out


def settle(fd, pid, quiet=1.0, limit=120.0):
    """Waits until nothing is written and no CPU is used for `quiet` seconds."""
    start = time.time()
    last_cpu, last_change = cpu_seconds(pid), time.time()
    while time.time() - start < limit:
        if drain(fd, 0.2):
            last_change = time.time()
        cpu = cpu_seconds(pid)
        if cpu != last_cpu:
            last_cpu, last_change = cpu, time.time()
        if time.time() - last_change >= quiet:
            return
    raise SystemExit("the reader did not settle within %d s" % limit)


def paste_text(count, seed=7):
    rng = random.Random(seed)
    words, size = [], 0
    while size < count:
        word = "".join(chr(97 + rng.randrange(26)) for _ in range(rng.randrange(2, 9)))
        words.append(word)
        size += len(word) + 1
    return (" ".join(words))[:count]


def run(binary, prompt, chars):
    directory = tempfile.mkdtemp(prefix="herald-paste-")
    try:
        pid, fd = pty.fork()
        if pid == 0:
            os.environ.update({
                "HERALD_DB": os.path.join(directory, "herald.db"),
                "HERALD_DEMO_DIR": os.path.join(REPO, "Resources", "demo"),
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            })
            os.execv(binary, [binary])
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        if b"q:quit" not in drain(fd, 3.0):
            drain(fd, 3.0)
        settle(fd, pid)
        os.write(fd, prompt.encode())
        settle(fd, pid, quiet=0.5)
        before = cpu_seconds(pid)
        started = time.time()
        data = paste_text(chars).encode()
        written = 0
        while written < len(data):
            _, ready, _ = select.select([fd], [fd], [], 1.0)
            if ready:
                written += os.write(fd, data[written:written + 4096])
            drain(fd, 0)
        settle(fd, pid)
        cpu = cpu_seconds(pid) - before
        wall = time.time() - started
        os.write(fd, b"\x1b")
        drain(fd, 0.3)
        os.write(fd, b"\x1bq" if prompt == ":" else b"q")
        drain(fd, 0.5)
        try:
            os.kill(pid, 15)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        return cpu, wall
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--herald", default=os.path.join(REPO, ".build", "release", "herald"))
    parser.add_argument("--chars", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for prompt, name in (("/", "search prompt"), (":", "command line")):
        runs = [run(args.herald, prompt, args.chars) for _ in range(args.runs)]
        cpus = [cpu for cpu, _ in runs]
        results[name] = {"cpu_seconds": cpus, "median": statistics.median(cpus)}
        if not args.json:
            print(f"paste of {args.chars:,} characters into the {name}: CPU {statistics.median(cpus):.2f} s "
                  f"(median of {args.runs}: {', '.join(f'{c:.2f}' for c in cpus)}; "
                  f"settled {statistics.median(w for _, w in runs):.1f} s after it began)")
    if args.json:
        json.dump(results, sys.stdout)
        print()


if __name__ == "__main__":
    main()
