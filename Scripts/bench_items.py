#!/usr/bin/env python3
"""Item-limit benchmark: what one reload costs when feeds hold millions of items.

--feeds feeds (8) of --items empty items (`<item/>`, 2,000,000: 14 MB, under the 16 MB body
cap) each, every feed on a loopback host of its own (127.0.1.1 to 127.0.1.8), served by
bench_reload's server (each response in one sendall on a TCP_NODELAY socket), read by one
`herald reload` on a fresh library. Prints the reload's wall time, CPU time and peak RSS
(ru_maxrss of herald alone: bench_reload's launcher), what the reload said of each feed, and
the articles stored (empty items all have the same id: one article per feed). Exits with
status 1 when the reload fails or peaks above --target-mib.

Herald reads InputLimits.itemsPerFeed (10,000) items of a document and no more, and says so
(docs/LIMITS.md); the target is a peak RSS of 100 MB at most. Before the limit, 8 such
feeds peaked at 6.1 GiB.

  python3 Scripts/bench_items.py --herald .build/release/herald [--feeds 8] [--items 2000000]
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_reload import Launcher, Server, count_rows, host_address, run_child  # noqa: E402


def empty_items_feed(items):
    return (b'<?xml version="1.0"?><rss version="2.0"><channel><title>Empty items</title>'
            + b"<item/>" * items + b"</channel></rss>")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--herald", required=True)
    parser.add_argument("--feeds", type=int, default=8)
    parser.add_argument("--items", type=int, default=2_000_000)
    parser.add_argument("--target-mib", type=float, default=100 * 1e6 / (1 << 20),
                        help="peak RSS above this fails the run (default: 100 MB)")
    args = parser.parse_args()
    body = empty_items_feed(args.items)
    server = Server([body] * args.feeds)  # the same bytes for every feed: no copies here
    status = 0
    try:
        with tempfile.TemporaryDirectory(prefix="herald-items-") as work:
            urls = os.path.join(work, "urls")
            with open(urls, "w") as f:
                for n in range(args.feeds):
                    f.write(f"http://{host_address(n, args.feeds)}:{server.port}/{n}.xml\n")
            library = os.path.join(work, "h.db")
            env = dict(os.environ, HERALD_DB=library)
            imported = run_child([args.herald, "import", urls], env)
            if imported.status != 0:
                sys.exit(f"herald import failed: {imported.stderr.strip()}")
            result = run_child([args.herald, "reload"], env, timeout=600, keep_stdout=True)
            articles = count_rows(library, "articles")
        peak = result.rss_kib / 1024
        print(f"reload of {args.feeds} feeds of {args.items:,} empty items ({len(body) / 1e6:.1f} MB each, "
              f"{args.feeds} loopback hosts): wall {result.wall:.1f} s, CPU {result.cpu:.2f} s, "
              f"peak RSS {peak:.1f} MiB ({result.rss_kib * 1024 / 1e6:.1f} MB; target <= {args.target_mib:.1f} MiB), "
              f"{articles} articles stored, exit {result.status}")
        for line in result.stdout.splitlines():
            print("   " + line)
        if result.stderr.strip():
            print("   stderr: " + result.stderr.strip()[-500:])
        if result.status != 0 or peak > args.target_mib:
            status = 1
    finally:
        server.stop()
        if Launcher.instance is not None:
            Launcher.instance.stop()
    return status


if __name__ == "__main__":
    sys.exit(main())
