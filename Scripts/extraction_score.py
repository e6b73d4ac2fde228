#!/usr/bin/env python3
"""Scores article extraction against the ground truth of the extraction benchmark pages.

    python3 Scripts/extraction_score.py [--data DIR] [--worst N] OUTPUTS.json...
    python3 Scripts/extraction_score.py [--data DIR] --check

DIR (default ../shared/extraction beside the repository, or $EXTRACTION_DATA) holds
ground-truth.json (`{ID: {"url", "articleBody"}}`), ANCHORS.md (published scores) and
outputs/NAME.json (`{ID: {"articleBody": text}}` of six published extractors). Each
OUTPUTS.json has that same shape; a page it lacks counts as an empty extraction.

The metric is the benchmark's, as DIR/README.md describes it:

- words are the runs of `\\w+` (Unicode word characters, Python's `re`), case kept;
- a text's shingles are its 4-word sequences, with their counts; a text of fewer than 4
  words is one shingle of all its words, an empty text has none;
- per page, tp = shingles shared (the lesser count), fp = extracted but not in the truth,
  fn = in the truth but not extracted, the three divided by their sum;
- precision is the mean of tp/(tp+fp) over pages with tp+fp > 0, recall the mean of
  tp/(tp+fn) over pages with tp+fn > 0; a page with fp = fn = 0 (both texts empty, or equal
  shingles) scores 1 for both. F1 = 2PR/(P+R) of the two means;
- exact is the share of pages whose word list equals the truth's.

Prints one row per OUTPUTS file: name, F1, precision, recall, exact. With --worst N, also
the N pages of each file with the lowest per-page F1, by ID. With --check, scores every
file of DIR/outputs and compares it with the ANCHORS.md row of the same extractor; exit
status 1 when a figure differs by more than 0.002.

As a module: `score(outputs, truth)` returns
`{"f1", "precision", "recall", "exact", "pages", "per_page": {ID: {...}}}`.
"""

import argparse
import json
import os
import re
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DATA = os.environ.get("EXTRACTION_DATA") or os.path.join(ROOT, "..", "shared", "extraction")

WORD = re.compile(r"\w+")  # str patterns are Unicode-aware in Python 3
SHINGLE = 4
TOLERANCE = 0.002

# outputs/NAME.json -> the extractor column of ANCHORS.md (with the version, where the
# table has several rows of one extractor).
ANCHOR_ROWS = {
    "readability_js": ("readability_js", None),
    "rs_trafilatura": ("rs_trafilatura", None),
    "go_trafilatura": ("go_trafilatura", None),
    "trafilatura": ("trafilatura", "2.0.0"),
    "newspaper": ("newspaper", None),
    "boilerpipe": ("boilerpipe", None),
}


def words(text):
    """The text's words: every run of Unicode word characters, case kept."""
    return WORD.findall(text or "")


def shingles(ws):
    """Counts of the word list's 4-word shingles (one shingle of all words when fewer)."""
    if not ws:
        return Counter()
    if len(ws) < SHINGLE:
        return Counter([tuple(ws)])
    return Counter(tuple(ws[i:i + SHINGLE]) for i in range(len(ws) - SHINGLE + 1))


def page_score(extracted, truth):
    """tp/fp/fn (normalised), precision, recall, F1 and exactness of one page; precision
    is None when nothing was extracted, recall None when the truth is empty."""
    we, wt = words(extracted), words(truth)
    se, st = shingles(we), shingles(wt)
    tp = sum((se & st).values())
    fp = sum(se.values()) - tp
    fn = sum(st.values()) - tp
    total = tp + fp + fn
    if fp == 0 and fn == 0:
        precision = recall = 1.0
        ntp, nfp, nfn = (1.0, 0.0, 0.0) if total else (0.0, 0.0, 0.0)
    else:
        ntp, nfp, nfn = tp / total, fp / total, fn / total
        precision = ntp / (ntp + nfp) if ntp + nfp > 0 else None
        recall = ntp / (ntp + nfn) if ntp + nfn > 0 else None
    p, r = precision or 0.0, recall or 0.0
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return {"tp": ntp, "fp": nfp, "fn": nfn, "precision": precision, "recall": recall,
            "f1": f1, "exact": we == wt, "words": len(we), "truth_words": len(wt)}


def body(entry):
    """The articleBody of an outputs or ground-truth entry (a plain string is taken as is)."""
    if isinstance(entry, dict):
        return entry.get("articleBody") or ""
    return entry or ""


def score(outputs, truth):
    """Scores `outputs` ({ID: {"articleBody"}}) against `truth` ({ID: {"articleBody"}}) over
    every page of the truth; a page missing from `outputs` is an empty extraction."""
    per_page = {pid: page_score(body(outputs.get(pid)), body(t)) for pid, t in truth.items()}
    ps = [s["precision"] for s in per_page.values() if s["precision"] is not None]
    rs = [s["recall"] for s in per_page.values() if s["recall"] is not None]
    precision = sum(ps) / len(ps) if ps else 0.0
    recall = sum(rs) / len(rs) if rs else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    exact = sum(s["exact"] for s in per_page.values()) / len(per_page) if per_page else 0.0
    missing = sorted(set(truth) - set(outputs))
    return {"f1": f1, "precision": precision, "recall": recall, "exact": exact,
            "pages": len(per_page), "missing": missing, "per_page": per_page}


def load_truth(data):
    with open(os.path.join(data, "ground-truth.json"), encoding="utf-8") as f:
        return json.load(f)


def load_outputs(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def load_anchors(data):
    """Rows of ANCHORS.md's table: a list of dicts with extractor, version, f1, precision,
    recall, exact."""
    rows = []
    with open(os.path.join(data, "ANCHORS.md"), encoding="utf-8") as f:
        header = None
        for line in f:
            line = line.strip()
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                header = [c.lower() for c in cells]
                continue
            if all(set(c) <= set("-: ") for c in cells):
                continue
            row = dict(zip(header, cells))
            try:
                rows.append({"extractor": row["extractor"], "version": row.get("version", ""),
                             **{k: float(row[k]) for k in ("f1", "precision", "recall", "exact")}})
            except (KeyError, ValueError):
                continue
    return rows


def anchor(rows, extractor, version=None):
    """The ANCHORS.md row of that extractor (and version, if given), or None."""
    for row in rows:
        if row["extractor"] == extractor and (version is None or row["version"] == version):
            return row
    return None


HEAD = f"{'extractor':<28} {'F1':>6} {'prec':>6} {'recall':>6} {'exact':>6}"


def row_text(name, s):
    return f"{name:<28} {s['f1']:6.3f} {s['precision']:6.3f} {s['recall']:6.3f} {s['exact']:6.3f}"


def worst_text(s, n):
    lines = []
    ranked = sorted(s["per_page"].items(), key=lambda kv: (kv[1]["f1"], kv[0]))[:n]
    for pid, p in ranked:
        fmt = lambda v: "  -  " if v is None else f"{v:.3f}"
        lines.append(f"    {pid}  F1 {p['f1']:.3f}  P {fmt(p['precision'])}  R {fmt(p['recall'])}"
                     f"  words {p['words']}/{p['truth_words']}")
    return lines


def check(data, truth):
    """Scores DIR/outputs/*.json and compares with ANCHORS.md; True when all agree."""
    rows = load_anchors(data)
    ok = True
    print(f"{HEAD}   {'ANCHORS.md row':<18} {'F1':>6} {'prec':>6} {'recall':>6} {'exact':>6}")
    outdir = os.path.join(data, "outputs")
    for fname in sorted(os.listdir(outdir)):
        if not fname.endswith(".json"):
            continue
        name = fname[:-5]
        s = score(load_outputs(os.path.join(outdir, fname)), truth)
        extractor, version = ANCHOR_ROWS.get(name, (name, None))
        a = anchor(rows, extractor, version)
        if a is None:
            print(f"{row_text(name, s)}   no row in ANCHORS.md")
            ok = False
            continue
        diffs = [k for k in ("f1", "precision", "recall", "exact") if abs(s[k] - a[k]) > TOLERANCE]
        verdict = "ok" if not diffs else "DIFFERS: " + ", ".join(diffs)
        label = f"{extractor} {version}" if version else extractor
        print(f"{row_text(name, s)}   {label:<18} {a['f1']:6.3f} {a['precision']:6.3f} "
              f"{a['recall']:6.3f} {a['exact']:6.3f}  {verdict}")
        ok = ok and not diffs
    print("all rows agree with ANCHORS.md" if ok else "some rows disagree with ANCHORS.md")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outputs", nargs="*", help="extraction outputs, {ID: {articleBody}}")
    ap.add_argument("--data", default=DEFAULT_DATA, help="benchmark data folder (default %(default)s)")
    ap.add_argument("--check", action="store_true", help="reproduce ANCHORS.md from DIR/outputs")
    ap.add_argument("--worst", type=int, default=0, metavar="N", help="list the N worst pages of each file")
    args = ap.parse_args()
    if not args.check and not args.outputs:
        ap.error("name OUTPUTS.json files, or --check")
    truth = load_truth(args.data)
    status = 0
    if args.check:
        status = 0 if check(args.data, truth) else 1
    if args.outputs:
        print(HEAD)
        for path in args.outputs:
            s = score(load_outputs(path), truth)
            name = os.path.splitext(os.path.basename(path))[0]
            print(row_text(name, s) + (f"   ({len(s['missing'])} pages missing)" if s["missing"] else ""))
            if args.worst:
                print("\n".join(worst_text(s, args.worst)))
    elif args.worst and args.check:
        for fname in sorted(os.listdir(os.path.join(args.data, "outputs"))):
            if fname.endswith(".json"):
                s = score(load_outputs(os.path.join(args.data, "outputs", fname)), truth)
                print(fname[:-5])
                print("\n".join(worst_text(s, args.worst)))
    return status


if __name__ == "__main__":
    sys.exit(main())
