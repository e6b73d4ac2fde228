#!/usr/bin/env python3
"""Article extraction benchmark: Herald's reader view against the benchmark's ground truth,
and against trafilatura's speed on the same pages.

    python3 Scripts/bench_extract.py --bench .build/release/herald-bench [--data DIR]
        [--skip-trafilatura] [--no-fail]

DIR (default ../shared/extraction beside the repository, or $EXTRACTION_DATA) holds the
benchmark's pages (html/ID.html.gz), ground-truth.json and ANCHORS.md (see its README.md).

1. Runs `herald-bench extract --pages DIR/html --out OUT.json`, which extracts every page
   several times, writes `{ID: {"articleBody": text}}` and prints `median_ms=X p90_ms=Y
   pages=N` (per page, over all pages). A missing or failing subcommand fails the run.
2. Scores OUT.json with Scripts/extraction_score.py (the benchmark's metric) and prints it
   beside the ANCHORS.md rows of readability_js, trafilatura (PyPI, run here) and
   rs_trafilatura.
3. Times trafilatura 2.3.1 on the same pages: in a virtual environment made once at
   ~/.cache/herald-bench/trafilatura-venv (`python3 -m venv`, `pip install
   trafilatura==2.3.1`), a child Python decompresses each page, then times
   `trafilatura.extract(html, url=URL, include_comments=False)` (html the page's bytes, URL its
   address from the ground truth): one warm-up, then the median of 3 runs per page; prints the
   median and p90 of those per-page times, and scores its output with the same scorer. That
   call reproduces ANCHORS.md's row (F1 0.950, precision 0.930, recall 0.971, exact 0.311);
   trafilatura's default, with comments, scores 0.942 (exact 0.267): reader comments are not
   the article. When pip cannot install it (no index reachable), says so and skips this
   part; --skip-trafilatura skips it. The pip of a new venv is upgraded first (pip 23.2 leaves
   out lxml_html_clean, which trafilatura's justext needs).
4. Prints trafilatura's median over Herald's, and a verdict line. Exits with status 1 when
   F1 < 0.96, Herald's median > 2 ms, or (when trafilatura was timed) it is less than 10
   times faster than trafilatura, unless --no-fail.

Percentiles are nearest-rank over the per-page medians (p90 of 90 pages is the 81st).
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extraction_score  # noqa: E402

TRAFILATURA_VERSION = "2.3.1"
VENV = os.path.join(os.path.expanduser("~"), ".cache", "herald-bench", "trafilatura-venv")
TARGET_F1 = 0.96
TARGET_MEDIAN_MS = 2.0
TARGET_RATIO = 10.0
TIMING_LINE = re.compile(r"median_ms=([0-9.]+)\s+p90_ms=([0-9.]+)\s+pages=(\d+)")

# The ANCHORS.md rows shown beside Herald's: (label, extractor, version or None).
COMPARED = [
    ("readability_js", "readability_js", None),
    ("trafilatura (PyPI) 2.3.1", "trafilatura (PyPI, run here)", TRAFILATURA_VERSION),
    ("rs_trafilatura", "rs_trafilatura", None),
]

# Run by the venv's Python: argv = pages dir, ground-truth.json, output JSON.
# Writes {"outputs": {ID: {"articleBody"}}, "ms": {ID: median ms}, "version": ...}.
TRAFILATURA_CHILD = r"""
import gzip, json, os, statistics, sys, time
import trafilatura
pages, truth_path, out_path = sys.argv[1:4]
truth = json.load(open(truth_path, encoding="utf-8"))
outputs, ms = {}, {}
for name in sorted(os.listdir(pages)):
    if name.endswith(".html.gz"):
        pid, opener = name[:-8], gzip.open
    elif name.endswith(".html"):
        pid, opener = name[:-5], open
    else:
        continue
    with opener(os.path.join(pages, name), "rb") as f:
        html = f.read()
    url = truth.get(pid, {}).get("url")
    text = trafilatura.extract(html, url=url, include_comments=False)  # warm-up
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        text = trafilatura.extract(html, url=url, include_comments=False)
        runs.append((time.perf_counter() - t0) * 1000)
    outputs[pid] = {"articleBody": text or ""}
    ms[pid] = statistics.median(runs)
with open(out_path, "w", encoding="utf-8") as f:
    json.dump({"outputs": outputs, "ms": ms, "version": trafilatura.__version__}, f)
"""


def percentile(values, q):
    """Nearest-rank percentile of the values (q in 0..100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def score_line(label, s):
    return f"  {label:<38} F1 {s['f1']:.3f}  precision {s['precision']:.3f}  recall {s['recall']:.3f}  exact {s['exact']:.3f}"


def run_herald(bench, pages, out):
    """Runs herald-bench extract; returns (median_ms, p90_ms, pages) or exits."""
    if not os.path.isfile(bench) or not os.access(bench, os.X_OK):
        sys.exit(f"bench_extract: no executable herald-bench at {bench} (build it: make build)")
    cmd = [bench, "extract", "--pages", pages, "--out", out]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"bench_extract: cannot run {bench}: {e}")
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        sys.exit(f"bench_extract: `{' '.join(cmd)}` failed with status {proc.returncode} "
                 "(does this herald-bench have the extract subcommand?)")
    match = None
    for line in proc.stdout.splitlines():
        match = TIMING_LINE.search(line) or match
    if not match:
        sys.stderr.write(proc.stdout)
        sys.exit("bench_extract: herald-bench extract printed no `median_ms=X p90_ms=Y pages=N` line")
    if not os.path.isfile(out):
        sys.exit(f"bench_extract: herald-bench extract wrote no {out}")
    return float(match.group(1)), float(match.group(2)), int(match.group(3))


def venv_python():
    return os.path.join(VENV, "bin", "python")


def installed_version(python):
    proc = subprocess.run([python, "-c", "import trafilatura; print(trafilatura.__version__)"],
                          capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def make_venv():
    """Makes the venv (once); installs python3-venv when `python3 -m venv` lacks it and we
    are root. Returns the venv's python, or None (with the reason printed) when it cannot."""
    python = venv_python()
    if os.path.exists(python) and installed_version(python) == TRAFILATURA_VERSION:
        return python
    if not os.path.exists(python):
        shutil.rmtree(VENV, ignore_errors=True)  # a half-made venv of an earlier run
        os.makedirs(os.path.dirname(VENV), exist_ok=True)
        print(f"making {VENV}")
        made = subprocess.run([sys.executable, "-m", "venv", VENV], capture_output=True, text=True)
        if made.returncode != 0:
            shutil.rmtree(VENV, ignore_errors=True)
            if os.geteuid() != 0:
                print(f"trafilatura skipped: `python3 -m venv` failed ({made.stderr.strip()}); "
                      "install python3-venv (sudo apt-get install -y python3-venv) and run again")
                return None
            print("`python3 -m venv` failed; installing python3-venv")
            apt = subprocess.run(["apt-get", "install", "-y", "python3-venv"], capture_output=True, text=True)
            made = subprocess.run([sys.executable, "-m", "venv", VENV], capture_output=True, text=True)
            if apt.returncode != 0 or made.returncode != 0:
                shutil.rmtree(VENV, ignore_errors=True)
                print("trafilatura skipped: cannot make a virtual environment even after "
                      f"apt-get install python3-venv:\n{apt.stderr.strip()}\n{made.stderr.strip()}")
                return None
    # The venv's own pip (23.2 with Python 3.11) does not match justext's `lxml[html_clean]`
    # with lxml's `html-clean` extra (PEP 685), leaving lxml_html_clean out and trafilatura
    # failing to import: upgrade pip first.
    print(f"pip install trafilatura=={TRAFILATURA_VERSION} into {VENV}")
    pip = subprocess.run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                         capture_output=True, text=True)
    if pip.returncode == 0:
        pip = subprocess.run([python, "-m", "pip", "install", "--quiet", f"trafilatura=={TRAFILATURA_VERSION}"],
                             capture_output=True, text=True)
    if pip.returncode == 0 and installed_version(python) != TRAFILATURA_VERSION:
        check = subprocess.run([python, "-c", "import trafilatura"], capture_output=True, text=True)
        print(f"trafilatura skipped: installed, but it does not import:\n{check.stderr.strip()[-1000:]}")
        return None
    if pip.returncode != 0:
        tail = "\n".join((pip.stdout + pip.stderr).strip().splitlines()[-5:])
        unreachable = re.search(r"No matching distribution|Could not find a version|connection|"
                                r"Network is unreachable|Temporary failure|timed out", tail, re.I)
        reason = "pip cannot reach the package index" if unreachable else "pip install failed"
        print(f"trafilatura skipped: {reason}:\n{tail}")
        return None
    return python


def run_trafilatura(pages, data, truth):
    """Times trafilatura in its venv; returns (median_ms, p90_ms, score) or None."""
    python = make_venv()
    if python is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trafilatura.json")
        started = time.monotonic()
        proc = subprocess.run([python, "-c", TRAFILATURA_CHILD, pages,
                               os.path.join(data, "ground-truth.json"), out], capture_output=True, text=True)
        elapsed = time.monotonic() - started
        if proc.returncode != 0:
            print(f"trafilatura skipped: its run failed:\n{proc.stderr.strip()[-2000:]}")
            return None
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
    ms = list(result["ms"].values())
    s = extraction_score.score(result["outputs"], truth)
    print(f"trafilatura {result['version']}: median {statistics.median(ms):.2f} ms, "
          f"p90 {percentile(ms, 90):.2f} ms per page over {len(ms)} pages "
          f"(the run, 4 extractions a page, took {elapsed:.1f} s)")
    print(score_line(f"trafilatura {result['version']}", s))
    return statistics.median(ms), percentile(ms, 90), s


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True, help="the herald-bench executable")
    parser.add_argument("--data", default=extraction_score.DEFAULT_DATA,
                        help="benchmark data folder (default %(default)s)")
    parser.add_argument("--skip-trafilatura", action="store_true", help="do not time trafilatura")
    parser.add_argument("--no-fail", action="store_true", help="exit 0 whatever the figures")
    args = parser.parse_args()

    pages = os.path.join(args.data, "html")
    truth = extraction_score.load_truth(args.data)
    anchors = extraction_score.load_anchors(args.data)

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "herald.json")
        median, p90, count = run_herald(args.bench, pages, out)
        herald = extraction_score.score(extraction_score.load_outputs(out), truth)
    print(f"herald: median {median:.3f} ms, p90 {p90:.3f} ms per page over {count} pages")
    if herald["missing"]:
        print(f"  {len(herald['missing'])} pages missing from its output (scored as empty)")
    print(score_line("herald", herald))
    for label, extractor, version in COMPARED:
        row = extraction_score.anchor(anchors, extractor, version)
        if row:
            print(score_line(f"{label} (ANCHORS.md)", row))

    traf = None
    if args.skip_trafilatura:
        print("trafilatura skipped (--skip-trafilatura)")
    else:
        traf = run_trafilatura(pages, args.data, truth)

    failures = []
    if herald["f1"] < TARGET_F1:
        failures.append(f"F1 {herald['f1']:.3f} < {TARGET_F1}")
    if median > TARGET_MEDIAN_MS:
        failures.append(f"median {median:.3f} ms > {TARGET_MEDIAN_MS:g} ms")
    verdict = (f"extraction: F1 {herald['f1']:.3f} (target >= {TARGET_F1}), "
               f"median {median:.3f} ms (target <= {TARGET_MEDIAN_MS:g} ms), ")
    if traf:
        ratio = traf[0] / median if median > 0 else math.inf
        print(f"trafilatura median / herald median: {ratio:.1f}")
        verdict += f"{ratio:.1f}x faster than trafilatura {TRAFILATURA_VERSION} (target >= {TARGET_RATIO:g}x)"
        if ratio < TARGET_RATIO:
            failures.append(f"only {ratio:.1f}x faster than trafilatura")
    else:
        verdict += "trafilatura not timed"
    print(verdict)
    if failures:
        print("FAILED: " + "; ".join(failures) + (" (--no-fail: exit 0)" if args.no_fail else ""))
        return 0 if args.no_fail else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
