#!/usr/bin/env python3
"""Herald's reading of the conformance corpus beside feedparser's, field by field.

    python3 Scripts/conformance.py [--herald PATH] [--all] [FILE...]

Runs `herald parse --json` on every file of Tests/HeraldCoreTests/Fixtures/conformance (or
the files named) and compares, with Python's feedparser as the reference: whether the
document is a feed at all, whether it was read with errors (feedparser's `bozo`), the feed's
title, author, id and link, and each item's title, link, id, author, date and whether it
has text, and the absolute links of its body. Prints the disagreements (every comparison
with --all), then the totals. Exit status 1 when something disagrees.

Titles are compared as the text a reader sees (feedparser keeps HTML titles as HTML: its
tags are stripped and its entities decoded here), white space collapsed. A plain RSS title's
entities are decoded too (Herald reads entities an RSS feed escaped twice); an Atom text
construct is the text as written (`&amp;lt;` in it is the four characters `&lt;`). Authors
are names: feedparser's `author_detail.name`, else its `author`. Dates are feedparser's
`published_parsed`, else `updated_parsed`, in UTC.

Some differences are deliberate; they are counted apart ("kept"), each with its reason in
KEPT below.
"""

import argparse
import html
import html.entities
import json
import os
import re
import subprocess
import sys
import time
from html.parser import HTMLParser

try:
    import feedparser
except ImportError:
    sys.exit("feedparser is needed: pip install feedparser")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "HeraldCoreTests", "Fixtures", "conformance")

# Deliberate disagreements: (field, reason). A rule in `kept()` names one of these.
KEPT = {
    "derived title": "Herald titles an untitled item with the start of its text (a list row needs one)",
    "derived id": "Herald identifies an item without an id by its link, else a hash of title and date "
    "(the library needs an identity to tell new items from old)",
    "inherited author": "Herald shows the feed's author on items naming none (Atom says entries inherit "
    "it; newsboat does the same)",
    "id as link": "feedparser takes an id for the link when there is no link; Herald takes only "
    "an RSS permalink guid (an Atom id is a name, not an address)",
    "untitled feed": "Herald names a feed without a title '(untitled feed)'",
    "HTML entity names": "Herald reads HTML entity names (&nbsp;, &eacute;) that a feed uses without "
    "declaring them as the characters they name, without calling the feed broken (they are that common)",
    "contributor as author": "Herald names an Atom feed's contributor as its author when it has no author",
    "escaped markup in a div": "in HTML given as elements, feedparser skips a <div> without reading what it "
    "holds as XHTML (a TypePad habit), so markup the feed escaped inside it becomes tags its sanitizer drops; "
    "Herald reads the div as XHTML and shows that markup as text",
}

XML_ENTITIES = {"lt", "gt", "amp", "quot", "apos"}


def holds_div(path):
    with open(path, "rb") as f:
        return b"<div" in f.read()


def without_tags(text):
    """`text` with what looks like tags taken out, as feedparser's sanitizer takes them."""
    return one_line(re.sub(r"<[^<>]*>", " ", text))


def only_html_entities_undeclared(path):
    """True when every entity reference of the document that XML does not predefine is an
    HTML name, and the document declares no entity."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    names = set(re.findall(r"&([A-Za-z][A-Za-z0-9]*);", text)) - XML_ENTITIES
    return bool(names) and "<!ENTITY" not in text and names <= set(html.entities.name2codepoint)


class TextOfHTML(HTMLParser):
    """The text of an HTML fragment, and the targets of its links and images."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and ((tag == "a" and name == "href") or (tag == "img" and name == "src")):
                self.links.append(value)

    def handle_data(self, data):
        self.parts.append(data)


def of_html(fragment):
    parser = TextOfHTML()
    parser.feed(fragment or "")
    parser.close()
    return "".join(parser.parts), parser.links


def one_line(text):
    return " ".join((text or "").replace("\u00a0", " ").split()) or None


def shown(detail, value, atom=False):
    """The text a reader sees of a feedparser text construct (of an Atom document: `atom`)."""
    if value is None:
        return None
    kind = (detail or {}).get("type", "text/plain")
    if kind in ("text/html", "application/xhtml+xml"):
        return one_line(of_html(value)[0])
    # Atom text is text (RFC 4287, 3.1.1.1): only RSS titles are decoded once more.
    decode = kind == "text/plain" and "&" in value and not atom
    return one_line(html.unescape(value) if decode else value)


def person(context, key):
    detail = context.get(key + "_detail") or {}
    return one_line(detail.get("name") or context.get(key))


def when(entry):
    parsed = entry.get("published_parsed") or entry.get("updated_parsed")
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", parsed) if parsed else None


def real_link(context):
    """feedparser's link, unless it only copied an id that is no address there (an RSS
    permalink guid is an address: it stays)."""
    link = context.get("link")
    if (
        link
        and link == context.get("id")
        and not link.startswith(("http://", "https://"))
        and not any(l.get("href") == link for l in context.get("links", []))
    ):
        return None
    return link


def body_of(entry):
    if entry.get("content"):
        return entry["content"][0].get("value", "")
    return entry.get("summary", "")


def reference(path):
    d = feedparser.parse(path)
    is_feed = bool(d.get("version")) or bool(d.entries)
    feed = d.feed
    atom = (d.get("version") or "").startswith("atom")
    reading = {
        "is a feed": is_feed,
        "read with errors": bool(d.bozo) if is_feed else None,
        "feed title": shown(feed.get("title_detail"), feed.get("title"), atom),
        "feed author": person(feed, "author") or person(feed, "publisher"),
        "feed id": one_line(feed.get("id")),
        "feed link": real_link(feed),
        "feed contributor": one_line((feed.get("contributors") or [{}])[0].get("name")),
        "id of feed": feed.get("id"),
        "items": [],
    }
    for entry in d.entries:
        text, links = of_html(body_of(entry))
        reading["items"].append(
            {
                "title": shown(entry.get("title_detail"), entry.get("title"), atom),
                "link": real_link(entry),
                "id": one_line(entry.get("id")),
                "author": person(entry, "author"),
                "published": when(entry),
                "has text": bool(one_line(text)),
                "body links": sorted(l for l in links if l.startswith(("http://", "https://"))),
                "id of entry": entry.get("id"),
            }
        )
    return reading


def herald_reading(herald, path):
    run = subprocess.run([herald, "parse", path, "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        return {"is a feed": False, "error": (run.stderr or run.stdout).strip(), "items": []}
    doc = json.loads(run.stdout)
    reading = {
        "is a feed": True,
        "read with errors": bool(doc.get("warnings")),
        "feed title": one_line(doc.get("title")),
        "feed author": one_line(doc.get("author")),
        "feed id": one_line(doc.get("id")),
        "feed link": doc.get("link"),
        "items": [],
    }
    for item in doc.get("items", []):
        text = item.get("text", "")
        links = []
        if "\nLinks:\n" in text:
            for line in text.split("\nLinks:\n", 1)[1].splitlines():
                match = re.match(r"\[\d+\] (\S+)", line)
                if match and match.group(1).startswith(("http://", "https://")):
                    links.append(match.group(1))
        reading["items"].append(
            {
                "title": one_line(item.get("title")),
                "link": item.get("link"),
                "id": one_line(item.get("id")),
                "author": one_line(item.get("author")),
                "published": (item.get("published") or "").replace(".000", "") or None,
                "has text": bool(one_line(text)),
                "body links": sorted(links),
            }
        )
    return reading


def kept(field, ours, theirs, ref, item_ref, item_ours, reading, path):
    """The KEPT reason that explains a disagreement, or None."""
    if field == "read with errors" and theirs and not ours and only_html_entities_undeclared(path):
        return "HTML entity names"
    if field == "feed author" and theirs is None and ours and ours == ref.get("feed contributor"):
        return "contributor as author"
    if field == "feed title" and theirs is None and ours == "(untitled feed)":
        return "untitled feed"
    if field == "title" and theirs is None and ours:
        return "derived title"
    if (
        field in ("title", "feed title")
        and theirs
        and ours
        and "<" in ours
        and without_tags(ours) == theirs
        and holds_div(path)
    ):
        return "escaped markup in a div"
    if field == "id" and theirs is None and ours and (ours == item_ours.get("link") or ours.startswith("hash:")):
        return "derived id"
    if field == "author" and theirs is None and ours and ours == reading.get("feed author"):
        return "inherited author"
    if field in ("link", "feed link") and ours is None and theirs is not None:
        source = item_ref if field == "link" else ref
        if theirs == source.get("id of entry" if field == "link" else "id of feed"):
            return "id as link"
    return None


def compare(path, herald):
    ref = reference(path)
    ours = herald_reading(herald, path)
    rows = []

    def check(field, theirs, mine, item_ref=None, item_ours=None, label=None):
        label = label or field
        if theirs == mine:
            rows.append((label, theirs, mine, "agree", None))
            return
        reason = kept(field, mine, theirs, ref, item_ref or {}, item_ours or {}, ours, path)
        rows.append((label, theirs, mine, "kept" if reason else "DIFF", reason))

    check("is a feed", ref["is a feed"], ours["is a feed"])
    if not (ref["is a feed"] and ours["is a feed"]):
        return rows
    for field in ("read with errors", "feed title", "feed author", "feed id", "feed link"):
        check(field, ref[field], ours[field])
    check("item count", len(ref["items"]), len(ours["items"]))
    for index, (theirs, mine) in enumerate(zip(ref["items"], ours["items"])):
        for field in ("title", "link", "id", "author", "published", "has text", "body links"):
            check(field, theirs[field], mine[field], theirs, mine, label=f"item {index + 1} {field}")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--herald", default=os.path.join(ROOT, ".build", "debug", "herald"))
    parser.add_argument("--all", action="store_true", help="print every comparison, not only differences")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or sorted(
        os.path.join(CORPUS, name) for name in os.listdir(CORPUS) if not name.startswith(".")
    )
    totals = {"agree": 0, "DIFF": 0, "kept": 0}
    used_reasons = {}
    print(f"{'file':34} {'field':24} {'verdict':7} feedparser | herald")
    for path in files:
        name = os.path.basename(path)
        for field, theirs, mine, verdict, reason in compare(path, args.herald):
            totals[verdict] += 1
            if reason:
                used_reasons[reason] = used_reasons.get(reason, 0) + 1
            if verdict != "agree" or args.all:
                note = f"  [{reason}]" if reason else ""
                print(f"{name:34} {field:24} {verdict:7} {theirs!r} | {mine!r}{note}")
    print()
    for reason, count in sorted(used_reasons.items()):
        print(f"kept ({count}): {reason}: {KEPT[reason]}")
    total = sum(totals.values())
    print(
        f"\n{len(files)} files, {total} comparisons: {totals['agree']} agree, "
        f"{totals['DIFF']} disagree, {totals['kept']} kept on purpose"
    )
    return 1 if totals["DIFF"] else 0


if __name__ == "__main__":
    sys.exit(main())
