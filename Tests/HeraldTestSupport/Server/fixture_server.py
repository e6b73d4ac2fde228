#!/usr/bin/env python3
"""A local HTTP server for Herald's fetcher tests (loopback only, standard library only).

Prints the port it listens on, then serves until killed:
  /feed            RSS with ETag "v1" and a Last-Modified date; 304 when they match
  /slow            waits 5 s before answering
  /together/N      answers once N requests to /together/ wait at once (or after 60 s); /together-peak:
                   the most that waited at once (a number). Tests of fetching in parallel, by count
                   rather than by the clock.
  /status/N        answers with status N
  /redirect/N      N redirects (302) then /feed;  /moved: 301 to /feed
  /loop            redirects to itself
  /gzip            /feed's body gzip-compressed, with Content-Encoding: gzip
  /big             20 MB of XML
  /truncated       promises more bytes than it sends, then closes
  /charset         /feed with Content-Type: text/xml; charset=EUC-KR
  http://ANY/feed  (asked of it as a proxy) /feed titled "Fixture via proxy"
  /silent          reads the request and never answers
  /trickle         sends its headers one byte a second (about 150 s of them)
  /bomb            64 MB of XML gzip-compressed to about 64 KB (Content-Encoding: gzip)
  /to/SCHEME       302 to SCHEME:///etc/passwd (file, javascript, data, ftp)
  /bare-status     /feed with the status line "HTTP/1.1 200" (no reason phrase)
  /big-slow        3 MB (Content-Length) sent over about 15 s
  /deflate, /raw-deflate: the feed with Content-Encoding deflate, zlib-wrapped and raw
  /bad-gzip        Content-Encoding gzip over bytes that are not
  /huge-headers    200 with 2 MB of headers;  /reset: half a body, then a TCP reset
  /page            an HTML page announcing /feed (RSS) and /atom;  /plain-page: one announcing none
  /hostile-page    a page announcing file:///etc/passwd, javascript: and then /feed
  /wp-…            web pages for whole-article tests (WebPagesTests), counted: see whole_article_page
  /busy/N          429 with Retry-After: N;  /busy-date: 429, Retry-After an HTTP date 300 s ahead;
  /unavailable     503 with Retry-After: 99999999999
  /files/NAME      the file NAME of Server/files/ (feeds with full articles: the newsboat import)
  /mixed           RSS of four items for filters (sponsored, Swift, a podcast episode, spam); no validators
  /many/N          RSS of N items, newest first ("Item 0" a minute before 2026-11-30, "Item 1" two…); no validators
  /episode/N/NAME  N bytes (byte i is i % 251), honouring `Range: bytes=S-` with a 206; query options:
                   norange (a 200 with every byte whatever the Range), cut=K (stops after byte K
                   of the file, the connection closed), rate=B (B bytes a second), nolength,
                   etag=X (sent as ETag "X"; an If-Range naming another gets the whole file, a 200),
                   shift=K (byte i is (i + K) % 251: another file of the same size)
  /podcast/N       RSS of one episode, "Episode of N bytes", its enclosure /episode/N/episode.mp3
                   (the query after N is passed on to the episode); /podcast-hostile: a title and
                   an address made to climb out of the folder
  /pages/NAME      the article page Server/files/pages/NAME (real pages: see the README there) as
                   text/html; ?delay=S answers after S seconds
  /summaries/SET   RSS of summaries (short teasers) whose items link to pages on the host asked:
                   pages (the three pages and a missing one), auto (a short teaser and a long one),
                   odd-links (file:///etc/passwd, javascript: and a page redirecting to file:),
                   escapes (one item to /hostile/escapes),
                   slow (two pages answering after 8 s and a quick one), counted (8 items,
                   /counted/0 to 7), busy (three items to /counted/N?busy=3600, three on 127.0.0.3 to
                   /counted/N?unavailable=120, one to a page on 127.0.0.2)
  /counted/N       the Titan page after 1 s (?busy=S: a 429 with Retry-After: S; ?unavailable=S: a 503), counting the
                   requests per host (Host header); /counted-peak: per host, the most in progress
                   at once and how many in all (JSON)
  /hostile/KIND    article pages made to hurt: bomb (1 GiB of spaces, about 1 MB gzipped), trickle
                   (headers, then a byte a second), nested (1,000,000 nested <div>s around the
                   article), scripts (<script>s with </div> and <p> in their strings), escapes
                   (ESC [31m, U+202E and &lt;blink&gt; in the title and the text)
"""
import gzip
import os
import socket
import struct
import zlib
import html
import http.server
import json
import sys
import threading
import time

FEED = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture</title>
<item><guid>1</guid><title>One</title></item></channel></rss>"""
MIXED = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Mixed bag</title>
<item><guid>m1</guid><title>Sponsored: a new laptop</title><description>Buy it now.</description>
<pubDate>Mon, 30 Nov 2026 10:00:00 GMT</pubDate></item>
<item><guid>m2</guid><title>Swift 6 released</title><description>Strict concurrency for all.</description>
<pubDate>Mon, 30 Nov 2026 09:00:00 GMT</pubDate></item>
<item><guid>m3</guid><title>Episode 7</title><description>We talk about gardens.</description>
<enclosure url="http://127.0.0.1/ep7.mp3" type="audio/mpeg" length="1000"/>
<pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate></item>
<item><guid>m4</guid><title>SPAM spam spam</title><description>Lovely spam.</description>
<pubDate>Mon, 30 Nov 2026 07:00:00 GMT</pubDate></item>
</channel></rss>"""
LAST_MODIFIED = "Mon, 30 Nov 2026 00:00:00 GMT"
_bomb = []
_page_bomb = []
PAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files", "pages")
# Requests to /counted/ in progress and the most at once, per host.
_counted = {"now": {}, "peak": {}, "total": {}, "lock": threading.Lock()}
# Requests to /together/ waiting now, the most at once, and the condition they wait on.
_together = {"now": 0, "peak": 0, "changed": threading.Condition()}
ARTICLE = ("<p>The lighthouse keeper wrote down the weather every morning at six, as her mother had. "
           "Forty years of notebooks filled the shelves of the lamp room by the time the light was automated. "
           "Historians now read them for the storms that no instrument on the coast recorded.</p>")


PATTERN = bytes(range(251)) * (1 + (1 << 20) // 251 + 1)


def episode_bytes(start, end, shift=0):
    """Bytes start..<end of an episode: byte i is (i + shift) % 251, in pieces of at most 1 MB."""
    while start < end:
        count = min(end - start, 1 << 20)
        at = (start + shift) % 251
        yield PATTERN[at:at + count]
        start += count


def many_items(count):
    """RSS of `count` items listed newest first, as feeds list them: item i is i + 1 minutes old."""
    end = 1795996800  # 2026-11-30 00:00:00 UTC
    items = b"".join(
        b"<item><guid>item-%d</guid><title>Item %d</title><pubDate>%s</pubDate></item>\n"
        % (i, i, time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(end - 60 * (i + 1))).encode())
        for i in range(count))
    return b'<?xml version="1.0"?><rss version="2.0"><channel><title>Many</title>\n' + items + b"</channel></rss>"


def bomb():
    """Made on first use: compressing 64 MB takes a moment."""
    if not _bomb:
        _bomb.append(gzip.compress(b"<rss>" + b" " * (64 * 1024 * 1024) + b"</rss>", compresslevel=9))
    return _bomb[0]


# Whole-article pages (WebPagesTests): every /wp- request is counted by its path (without
# the query, which tests use to tell articles apart); /wp-count answers the counts as JSON.
#   /wp-article      an article of about 200 words in a page with a menu and a footer (UTF-8)
#   /wp-short        an article of about 20 words (less than a feed's teaser may say)
#   /wp-empty        a page of links only: no article
#   /wp-1252         an article in windows-1252, named by Content-Type
#   /wp-meta/CS      an article in CS (iso-8859-1 or iso-8859-2), named only by <meta charset>
#                    (Content-Type: text/html)
#   /wp-sjis         an article in Shift_JIS, named by Content-Type
#   /wp-busy/N       429 with Retry-After: N

WP_COUNTS = {}
WP_LOCK = threading.Lock()
WP_META_TEXT = {
    "iso-8859-1": "\u00c6r\u00f8sk\u00f8bing's fa\u00e7ade, se\u00f1or: the lanterns \u00bd lit by the quay.",
    "iso-8859-2": "Za\u017c\u00f3\u0142\u0107 g\u0119\u015bl\u0105 ja\u017a\u0144: the lanterns lit by the quay.",
}
WP_WORDS = ("The lanterns along the quay were lit at dusk, one by one, by the ferrymen who had kept "
            "them for a hundred years. ")


def wp_page(paragraphs, title="Lanterns on the quay", head=""):
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f"<!doctype html><html><head>{head}<title>{title}</title></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/about'>About</a> <a href='/subscribe'>Subscribe</a></nav>"
            f"<article><h1>{title}</h1>{body}</article>"
            f"<footer>Copyright the harbour trust. <a href='/privacy'>Privacy</a></footer></body></html>")


def whole_article_page(handler, path):
    route = path.partition("?")[0]
    with WP_LOCK:
        if route != "/wp-count":
            WP_COUNTS[route] = WP_COUNTS.get(route, 0) + 1
        counts = json.dumps(WP_COUNTS).encode()
    html_type = "text/html; charset=utf-8"
    if route == "/wp-count":
        return handler.send_body(counts, content_type="application/json")
    if route == "/wp-article":
        return handler.send_body(wp_page([WP_WORDS * 3] * 3 + ["Zoë counted 47 of them; the last went out at dawn."]).encode(),
                                 content_type=html_type)
    if route == "/wp-short":
        return handler.send_body(wp_page(["The lanterns were lit at dusk by the ferrymen, as ever."]).encode(),
                                 content_type=html_type)
    if route == "/wp-empty":
        return handler.send_body(b"<html><body><nav><a href='/a'>A</a> <a href='/b'>B</a></nav></body></html>",
                                 content_type=html_type)
    if route == "/wp-1252":
        text = "Caf\u00e9 na\u00efve \u201cquoted\u201d \u2014 \u20ac5 for a lantern, they said at the quay."
        return handler.send_body(wp_page([text, WP_WORDS * 2]).encode("cp1252"),
                                 content_type="text/html; charset=windows-1252")
    if route in ("/wp-meta/iso-8859-1", "/wp-meta/iso-8859-2"):
        charset = route[len("/wp-meta/"):]
        text = WP_META_TEXT[charset]
        return handler.send_body(wp_page([text, WP_WORDS * 2], head=f'<meta charset="{charset}">').encode(charset),
                                 content_type="text/html")
    if route == "/wp-sjis":
        text = "\u6771\u4eac\u306e\u96fb\u8eca\u306f\u6642\u9593\u901a\u308a\u306b\u6765\u307e\u3057\u305f\u3002" * 3
        return handler.send_body(wp_page([text, text], title="\u6771\u4eac").encode("shift_jis"),
                                 content_type="text/html; charset=Shift_JIS")
    if route.startswith("/wp-busy/"):
        handler.send_response(429)
        handler.send_header("Retry-After", route[len("/wp-busy/"):])
        handler.send_header("Content-Length", "0")
        handler.end_headers()
        return
    handler.send_response(404)
    handler.send_header("Content-Length", "0")
    handler.end_headers()
def page_bomb():
    """1 GiB of spaces in a page, gzipped to about 1 MB in a moment: after a full flush deflate
    forgets what came before, so the piece for 1 MiB of spaces is compressed once and repeated."""
    if not _page_bomb:
        deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = deflate.compress(b"<html><body><p>") + deflate.flush(zlib.Z_FULL_FLUSH)
        piece = deflate.compress(b" " * (1 << 20)) + deflate.flush(zlib.Z_FULL_FLUSH)
        tail = deflate.compress(b"</p></body></html>") + deflate.flush()
        size = len(b"<html><body><p>") + (1 << 30) + len(b"</p></body></html>")
        # The CRC-32 of those bytes, computed once (over 1 GiB it takes seconds).
        trailer = struct.pack("<II", 0x3B4CECF2, size & 0xFFFFFFFF)
        _page_bomb.append(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head + piece * 1024 + tail + trailer)
    return _page_bomb[0]


def summaries(host, name):
    """RSS of summary-only items linking to pages (see /summaries/SET), or None."""
    page = f"http://{host}/pages/"
    port = host.rsplit(":", 1)[-1]
    teaser = "A short teaser: the rest is on the web page."
    sets = {
        "pages": [("titan", "Titan mapped", page + "titan-map.html", teaser),
                  ("macbook", "A new MacBook keyboard", page + "macbook-keyboard.html", teaser),
                  ("wework", "WeWork inquiry", page + "wework-inquiry.html", teaser),
                  ("missing", "A page gone missing", page + "missing.html", teaser)],
        "auto": [("short", "Short teaser", page + "titan-map.html", teaser),
                 ("long", "Long summary", page + "wework-inquiry.html",
                  "A summary long enough to be the article. " * 15 + "That is all.")],
        "odd-links": [("file", "A link to a file", "file:///etc/passwd", teaser),
                      ("script", "A link to a script", "javascript:alert(1)", teaser),
                      ("redirect", "A page sent to a file", f"http://{host}/to/file", teaser)],
        "escapes": [("escapes", "Escapes", f"http://{host}/hostile/escapes", teaser)],
        "slow": [("slow", "Slow page", page + "titan-map.html?delay=8", teaser),
                 ("slower", "Another slow page", page + "wework-inquiry.html?delay=8", teaser),
                 ("quick", "Quick page", page + "macbook-keyboard.html", teaser)],
        "counted": [(f"c{n}", f"Counted {n}", f"http://{host}/counted/{n}", teaser) for n in range(8)],
        "busy": [(f"b{n}", f"Busy {n}", f"http://{host}/counted/{n}?busy=3600", teaser) for n in range(3)]
        + [(f"u{n}", f"Unavailable {n}", f"http://127.0.0.3:{port}/counted/{n}?unavailable=120", teaser)
           for n in range(3)]
        + [("other", "On another host", f"http://127.0.0.2:{port}/pages/titan-map.html", teaser)],
    }
    if name not in sets:
        return None
    items = "".join(
        f"<item><guid>{guid}</guid><title>{html.escape(title)}</title><link>{html.escape(link)}</link>"
        f"<description>{html.escape(text)}</description>"
        f"<pubDate>Mon, 30 Nov 2026 0{n}:00:00 GMT</pubDate></item>\n"
        for n, (guid, title, link, text) in enumerate(sets[name]))
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>Summaries: {name}</title>\n'
            + items + "</channel></rss>").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: without this, Nagle holds the body for the
    # ACK the client delays (40 ms a response).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_body(self, body, content_type="application/rss+xml", extra=()):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def episode(self, path):
        route, _, query = path.partition("?")
        options = dict(part.partition("=")[::2] for part in query.split("&") if part)
        size = int(route.split("/")[2])
        start = 0
        wanted = self.headers.get("Range", "")
        etag = f'"{options["etag"]}"' if "etag" in options else None
        if_range = self.headers.get("If-Range")
        if if_range is not None and if_range != etag:
            wanted = ""  # another file than the part's: all of it
        if wanted.startswith("bytes=") and wanted.endswith("-") and "norange" not in options:
            start = int(wanted[len("bytes="):-1])
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        if "nolength" not in options:
            self.send_header("Content-Length", str(size - start))
        self.send_header("Accept-Ranges", "bytes")
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        end = min(size, int(options["cut"])) if "cut" in options else size
        rate = int(options.get("rate", "0"))
        began, sent = time.monotonic(), 0
        try:
            for piece in episode_bytes(start, end, int(options.get("shift", "0"))):
                step = max(1, rate // 20) if rate else len(piece)
                for offset in range(0, len(piece), step):
                    self.wfile.write(piece[offset:offset + step])
                    sent += len(piece[offset:offset + step])
                    if rate:
                        # Paced by the clock: `sent` bytes are due `sent / rate` s after the start.
                        ahead = began + sent / rate - time.monotonic()
                        if ahead > 0:
                            time.sleep(ahead)
        except (BrokenPipeError, ConnectionResetError):
            return
        if end < size:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True

    def redirect(self, status, location):
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def send_status(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        path = self.path
        # As a proxy, it is asked for whole URLs: it serves their paths and says it did.
        proxied = path.startswith("http://")
        if proxied:
            path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
            if path == "/feed":
                return self.send_body(FEED.replace(b"<title>Fixture</title>", b"<title>Fixture via proxy</title>"))
        if path == "/feed":
            if self.headers.get("If-None-Match") == '"v1"' or self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.end_headers()
                return
            self.send_body(FEED, extra=[("ETag", '"v1"'), ("Last-Modified", LAST_MODIFIED)])
        elif path == "/agent":
            # One item titled with the request's User-Agent (per-feed user-agent tests).
            agent = html.escape(self.headers.get("User-Agent", "")).encode()
            self.send_body(b'<rss version="2.0"><channel><title>Agent</title><item><guid>' + agent
                           + b'</guid><title>' + agent + b'</title></item></channel></rss>')
        elif path == "/mixed":
            self.send_body(MIXED)
        elif path.startswith("/episode/"):
            self.episode(path)
        elif path.startswith("/podcast/") or path == "/podcast-hostile":
            host = self.headers.get("Host", "127.0.0.1")
            if path == "/podcast-hostile":
                title, address = "../../.hidden/\x1b[31mevil", "/episode/1000/..%2F..%2F.bashrc"
            else:
                size, _, query = path[len("/podcast/"):].partition("?")
                title, address = f"Episode of {size} bytes", f"/episode/{size}/episode.mp3" + (f"?{query}" if query else "")
            self.send_body(f"""<?xml version="1.0"?><rss version="2.0"><channel><title>Pod &amp; cast</title>
<item><guid>e1</guid><title>{html.escape(title)}</title><pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate>
<enclosure url="http://{html.escape(host)}{html.escape(address)}" type="audio/mpeg" length="0"/></item>
</channel></rss>""".encode())
        elif path.startswith("/many/") and path[len("/many/"):].isdigit():
            self.send_body(many_items(int(path[len("/many/"):])))
        elif path == "/slow":
            time.sleep(5)
            self.send_body(FEED)
        elif path.startswith("/together/") and path[len("/together/"):].isdigit():
            wanted = int(path[len("/together/"):])
            changed = _together["changed"]
            with changed:
                _together["now"] += 1
                _together["peak"] = max(_together["peak"], _together["now"])
                changed.notify_all()
                changed.wait_for(lambda: _together["peak"] >= wanted, timeout=60)
                _together["now"] -= 1
            self.send_body(FEED)
        elif path == "/together-peak":
            with _together["changed"]:
                peak = _together["peak"]
            self.send_body(str(peak).encode(), content_type="text/plain")
        elif path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            self.send_response(code)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path.startswith("/redirect/"):
            n = int(path.rsplit("/", 1)[1])
            self.redirect(302, f"/redirect/{n - 1}" if n > 1 else "/feed")
        elif path == "/moved":
            self.redirect(301, "/feed")
        elif path == "/loop":
            self.redirect(302, "/loop")
        elif path == "/gzip":
            self.send_body(gzip.compress(FEED), extra=[("Content-Encoding", "gzip")])
        elif path == "/deflate":
            self.send_body(zlib.compress(FEED), extra=[("Content-Encoding", "deflate")])
        elif path == "/raw-deflate":
            raw = zlib.compressobj(wbits=-15)
            self.send_body(raw.compress(FEED) + raw.flush(), extra=[("Content-Encoding", "deflate")])
        elif path == "/bad-gzip":
            self.send_body(gzip.compress(FEED)[:12] + b"not gzip at all" * 10, extra=[("Content-Encoding", "gzip")])
        elif path == "/big":
            self.send_body(b"<rss>" + b"x" * (20 * 1024 * 1024) + b"</rss>")
        elif path == "/truncated":
            self.send_response(200)
            self.send_header("Content-Length", str(len(FEED) * 10))
            self.end_headers()
            self.wfile.write(FEED[:40])
            self.wfile.flush()
            self.close_connection = True
        elif path == "/silent":
            time.sleep(3600)
        elif path == "/trickle":
            # About 150 bytes: two and a half minutes unless a limit ends it.
            padding = b"X-Padding: " + b"x" * 100 + b"\r\n"
            for byte in b"HTTP/1.1 200 OK\r\n" + padding + b"Content-Length: 6\r\n\r\n<rss/>":
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(1)
        elif path == "/bomb":
            self.send_body(bomb(), extra=[("Content-Encoding", "gzip")])
        elif path == "/bare-status":
            # A status line without a reason phrase (and without the space before it), as
            # some servers send: libcurl accepts it.
            self.wfile.write(b"HTTP/1.1 200\r\nContent-Length: %d\r\n\r\n" % len(FEED) + FEED)
            self.wfile.flush()
        elif path == "/big-slow":
            # 3 MB announced by Content-Length, sent over about 15 s (by the clock: a loaded
            # machine slows the small feeds a test fetches beside it, not this one).
            body = b"<rss>" + b" " * (3 * 1024 * 1024 - 11) + b"</rss>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            step = len(body) // 30
            for start in range(0, len(body), step):
                self.wfile.write(body[start:start + step])
                self.wfile.flush()
                time.sleep(0.5)
        elif path.startswith("/to/"):
            self.redirect(302, path[len("/to/"):] + ":///etc/passwd")
        elif path == "/huge-headers":
            self.send_response(200)
            for n in range(2048):
                self.send_header(f"X-Padding-{n}", "x" * 1000)
            self.send_header("Content-Length", str(len(FEED)))
            self.end_headers()
            self.wfile.write(FEED)
        elif path == "/reset":
            self.send_response(200)
            self.send_header("Content-Length", str(len(FEED) * 100))
            self.end_headers()
            self.wfile.write(FEED[:40])
            self.wfile.flush()
            # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif path == "/page":
            self.send_body(b'<html><head><title>Blog</title>'
                           b'<link rel="stylesheet" href="/s.css">'
                           b'<link rel="alternate" type="application/rss+xml" title="Posts" href="/feed">'
                           b'<link rel="alternate" type="application/atom+xml" href="/atom">'
                           b'</head><body><p>Hello</p></body></html>', content_type="text/html")
        elif path.startswith("/wp-"):
            whole_article_page(self, path)
        elif path.startswith("/busy/") or path in ("/busy-date", "/unavailable"):
            if path == "/busy-date":
                (status, value) = (429, time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 300)))
            elif path == "/unavailable":
                (status, value) = (503, "99999999999")
            else:
                (status, value) = (429, path[len("/busy/"):])
            self.send_response(status)
            self.send_header("Retry-After", value)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/hostile-page":
            self.send_body(b'<html><head>'
                           b'<link rel="alternate" type="application/rss+xml" href="file:///etc/passwd">'
                           b'<link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">'
                           b'<link rel="alternate" type="application/rss+xml" href="/feed">'
                           b'</head><body></body></html>', content_type="text/html")
        elif path == "/plain-page":
            self.send_body(b"<html><head><title>No feeds</title></head><body>hi</body></html>",
                           content_type="text/html")
        elif path.startswith("/pages/"):
            name, _, query = path[len("/pages/"):].partition("?")
            options = dict(part.partition("=")[::2] for part in query.split("&") if part)
            file = os.path.join(PAGES, name)
            if "/" in name or name.startswith(".") or not name.endswith(".html") or not os.path.isfile(file):
                return self.send_status(404)
            time.sleep(float(options.get("delay", "0")))
            with open(file, "rb") as page:
                self.send_body(page.read(), content_type="text/html; charset=utf-8")
        elif path.startswith("/summaries/"):
            body = summaries(self.headers.get("Host", "127.0.0.1"), path[len("/summaries/"):])
            if body is None:
                return self.send_status(404)
            self.send_body(body)
        elif path.startswith("/counted/"):
            host = self.headers.get("Host", "")
            with _counted["lock"]:
                _counted["now"][host] = _counted["now"].get(host, 0) + 1
                _counted["peak"][host] = max(_counted["peak"].get(host, 0), _counted["now"][host])
                _counted["total"][host] = _counted["total"].get(host, 0) + 1
            time.sleep(1)
            # Counted out before the answer goes: the client cannot start another request on
            # the slot this one frees before then.
            with _counted["lock"]:
                _counted["now"][host] -= 1
            _, _, query = path.partition("?")
            wait = dict(part.partition("=")[::2] for part in query.split("&") if part)
            if "busy" in wait or "unavailable" in wait:
                self.send_response(429 if "busy" in wait else 503)
                self.send_header("Retry-After", wait.get("busy", wait.get("unavailable")))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            with open(os.path.join(PAGES, "titan-map.html"), "rb") as page:
                self.send_body(page.read(), content_type="text/html; charset=utf-8")
        elif path == "/counted-peak":
            with _counted["lock"]:
                counts = {host: {"peak": peak, "total": _counted["total"][host]}
                          for host, peak in _counted["peak"].items()}
            self.send_body(json.dumps(counts).encode(), content_type="application/json")
        elif path == "/hostile/bomb":
            self.send_body(page_bomb(), content_type="text/html", extra=[("Content-Encoding", "gzip")])
        elif path == "/hostile/trickle":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                for byte in b"<html><body>" + b" " * 100000:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
            except (BrokenPipeError, ConnectionResetError):
                return
        elif path == "/hostile/nested":
            depth = 1_000_000
            self.send_body(b"<html><head><title>Deep</title></head><body>" + b"<div>" * depth + ARTICLE.encode() * 3
                           + b"</div>" * depth + b"</body></html>", content_type="text/html")
        elif path == "/hostile/scripts":
            script = b'<script>var s = "</div></div><p>Injected by a script string</p>"; /* </div> */</script>\n'
            self.send_body(b"<html><head><title>Scripts</title>" + script * 200 + b"</head><body><div>" + script * 200
                           + b"<article><h1>Scripts</h1>" + (ARTICLE.encode() + script) * 3 + b"</article>"
                           + script * 200 + b"</div></body></html>", content_type="text/html")
        elif path == "/hostile/escapes":
            hostile = "\x1b[31mRed\x1b[0m \u202eevil &lt;blink&gt;"
            self.send_body(f"<html><head><title>Title {hostile}</title></head><body><article>"
                           f"<h1>Title {hostile}</h1><p>Text {hostile} ends.</p>{ARTICLE * 3}</article></body></html>"
                           .encode(), content_type="text/html; charset=utf-8")
        elif path == "/charset":
            self.send_body(FEED, content_type="text/xml; charset=EUC-KR")
        elif path.startswith("/files/") and "/" not in path[len("/files/"):] and not path.endswith("/.."):
            name = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files", path[len("/files/"):])
            if os.path.isfile(name):
                with open(name, "rb") as file:
                    self.send_body(file.read())
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


# All of 127/8 reaches a server bound to every address: tests use 127.0.0.N as N hosts.
class Server(http.server.ThreadingHTTPServer):
    # Tests open dozens of connections at once; the default backlog of 5 drops SYNs, and
    # each dropped one costs a second's retransmission.
    request_queue_size = 128


server = Server(("0.0.0.0", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
