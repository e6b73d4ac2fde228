#!/usr/bin/env python3
"""Reload benchmark: herald beside newsboat fetching N feeds x M items from a loopback server.

Three sections, each herald and newsboat (reload-threads 8) in the same run, so compare the
ratios (the machine is shared; every figure is a median):

  1. throughput, for each of --sizes: feeds served from 127.0.0.1 at once; cold (empty
     library) and warm (every feed answers 304) wall time, CPU seconds (user+sys of the
     child, from wait4), peak RSS (ru_maxrss of the child) and library bytes per article;
  2. latency, --latency FEEDSxITEMS on --hosts loopback hosts (http://127.0.x.y:PORT/...),
     each response (200 and 304 alike) held --delay-ms +- --jitter-ms (uniform, fixed per
     feed): cold and warm wall against the ideal = the slowest single response + the
     process's CPU time; the target is wall/ideal <= 1.5;
  3. keys during a cold reload, --keys samples: the reader in a 100x30 pty on a library whose
     feeds are imported but never fetched, `R` (reload every feed), then `j`/`k` (newsboat:
     Down/Up) every ~50 ms while the reload runs; the time from writing a key to the first
     byte written after it, and to the frame that draws the new selection (the reload draws
     frames of its own: progress, counts). The output is let go quiet before each key. A key
     counts while herald's status line has not said "Reloaded N feeds", or, for newsboat (which
     says nothing), when it was sent before the server's last answer of the reload.

newsboat keeps a new feed's ETag from its second fetch on, so its warm reload is its third (the
second is not measured). Peak RSS is ru_maxrss of the reader alone: the readers are started by
a small launcher process (see LAUNCHER), whose own few MB are the floor.

The corpus (--corpus full, the default) is what real sites publish: every item a whole HTML
article of 3-12 paragraphs of 20-90 words with links, lists and <pre> (about 3.7 KB of HTML),
a quarter of the paragraphs Korean, the feeds RSS 2.0 (content:encoded), Atom and RSS 1.0
(RDF) in turn; deterministic for a --seed. --corpus thin is the old 60-word RSS 2.0 corpus.

The server writes each response (headers and body) with one sendall on a TCP_NODELAY socket,
so no delayed-ACK stall is the server's, and answers If-None-Match and If-Modified-Since.

  python3 Scripts/bench_reload.py --herald .build/release/herald [--sizes 200x50,500x100]
      [--runs 5] [--corpus full|thin] [--latency 200x50 --hosts 200 --delay-ms 300
      --jitter-ms 250] [--keys 60] [--quick]

Standard library only (plus the newsboat binary, when installed).
"""

import argparse
import email.utils
import fcntl
import html
import http.server
import os
import pty
import random
import re
import shutil
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure_terminal  # noqa: E402 -- the pty Child (read_some, read_until_quiet, reap)

# ---------------------------------------------------------------------------------------
# Corpus

THIN_WORDS = ("garden river mountain harbour evening morning weather market station library window "
              "village coffee bread winter summer autumn forest island bridge street letter journey").split()

ENGLISH = """the of and to in is that for it as was with be by on not he this are or his from at
which but have an they you were her she there been one all we their has would when if so no what
up out who them some could more into only other time then its also new two over after first may
these like than any where most our between should through under years while during many release
server memory terminal browser feed reader article window library network request response cache
database kernel thread process socket buffer version update compiler language function pointer
string object module package system design system performance latency throughput benchmark
morning evening river mountain harbour weather market station village coffee winter summer autumn
forest island bridge street letter journey garden history science museum music city council
government election policy economy research university student teacher hospital doctor climate
energy transport railway airport festival football weekend restaurant kitchen recipe holiday
community volunteer neighbourhood engineering architecture photograph camera interview question
answer problem solution example reason moment people family children friends together because
although however therefore instead rather quickly slowly carefully simply finally especially""".split()
ENGLISH += "the the of of and and to to a a in in is it it that for on as was with be at by we".split()

KOREAN = """서울 부산 오늘 어제 내일 우리는 그리고 하지만 그래서 개발자 터미널 브라우저 한국어 한글
프로그램 데이터베이스 검색 서버 네트워크 메모리 성능 지연 시간 요청 응답 캐시 커널 스레드 프로세스
소켓 버퍼 버전 업데이트 컴파일러 언어 함수 문자열 모듈 패키지 시스템 설계 벤치마크 아침 저녁
강물 산책 날씨 시장 역에서 마을 커피 겨울 여름 가을 숲속 다리 거리 편지 여행 정원 역사 과학
박물관 음악 도시 의회 정부 선거 정책 경제 연구 대학교 학생 선생님 병원 의사 기후 에너지 교통
철도 공항 축제 축구 주말 식당 부엌 요리법 휴일 공동체 자원봉사 이웃 공학 건축 사진 카메라
인터뷰 질문 대답 문제 해결책 예를 들어 사람들 가족 아이들 친구들 함께 왜냐하면 비록 그러나
따라서 대신 빠르게 천천히 조심스럽게 간단히 마침내 특히 있습니다 했습니다 합니다 입니다 것이다
되었다 보였다 말했다 생각한다 작성했다 발표했다 확인했다 시작했다""".split()

CODE_LINES = [
    "let feeds = try await store.feeds()", "for feed in feeds { print(feed.title) }",
    "SELECT count(*) FROM articles WHERE read = 0;", "curl -sI https://example.org/feed.xml",
    "if response.status == 304 { return .notModified }", "git log --oneline | head -20",
    "make bench BENCH_SIZES=\"10000 100000\"", "const total = items.reduce((a, b) => a + b, 0);",
    "def parse(text): return [line.split(',') for line in text.splitlines()]",
    "ssh reader@example.org 'tail -f /var/log/feeds.log'", "printf '%s\\n' \"$@\" | sort -u",
]


def _sentence_words(rng, korean, count):
    words = rng.choices(KOREAN if korean else ENGLISH, k=count)
    words[0] = words[0].capitalize()
    return words


def _inline(rng, words, n, i, p):
    """Words with markup: a link or two, some emphasis, an inline code span."""
    out = []
    k = 0
    while k < len(words):
        roll = rng.random()
        if roll < 0.012 and k + 3 < len(words):
            span = " ".join(words[k:k + 3])
            out.append(f'<a href="https://site{n}.example.org/{i}/{p}/{k}">{span}</a>')
            k += 3
            continue
        if roll < 0.022 and k + 2 < len(words):
            out.append(f"<em>{words[k]} {words[k + 1]}</em>")
            k += 2
            continue
        if roll < 0.028:
            out.append(f"<strong>{words[k]}</strong>")
        elif roll < 0.032:
            out.append(f"<code>{words[k].lower()}()</code>")
        else:
            out.append(words[k])
        k += 1
    text = " ".join(out)
    return text + ("." if words and not text.endswith(">") else "")


def make_article(rng, n, i):
    """One item's HTML: 3-12 paragraphs of 20-90 words, links, lists, <pre>. Returns
    (html, korean_words, all_words)."""
    parts = []
    korean_words = all_words = 0
    paragraphs = rng.randint(3, 12)
    for p in range(paragraphs):
        korean = rng.random() < 0.25
        count = rng.randint(20, 90)
        words = _sentence_words(rng, korean, count)
        all_words += count
        korean_words += count if korean else 0
        if p == 2 and rng.random() < 0.4:
            parts.append(f"<h2>{' '.join(_sentence_words(rng, korean, rng.randint(2, 6)))}</h2>")
        parts.append(f"<p>{_inline(rng, words, n, i, p)}</p>")
        roll = rng.random()
        if roll < 0.16:
            tag = "ul" if rng.random() < 0.6 else "ol"
            items = []
            for _ in range(rng.randint(3, 6)):
                words = _sentence_words(rng, korean, rng.randint(3, 9))
                all_words += len(words)
                korean_words += len(words) if korean else 0
                items.append(f"<li>{_inline(rng, words, n, i, p)}</li>")
            parts.append(f"<{tag}>{''.join(items)}</{tag}>")
        elif roll < 0.25:
            code = "\n".join(rng.choices(CODE_LINES, k=rng.randint(3, 8)))
            parts.append(f"<pre><code>{html.escape(code, quote=False)}</code></pre>")
        elif roll < 0.29:
            words = _sentence_words(rng, korean, rng.randint(10, 25))
            all_words += len(words)
            korean_words += len(words) if korean else 0
            parts.append(f"<blockquote><p>{' '.join(words)}.</p></blockquote>")
        elif roll < 0.31:
            parts.append(f'<figure><img src="https://site{n}.example.org/img/{i}-{p}.jpg" alt="'
                         f'{" ".join(_sentence_words(rng, korean, 3))}" width="800" height="450"></figure>')
    return "\n".join(parts), korean_words, all_words


def _title(rng, korean):
    return " ".join(_sentence_words(rng, korean, rng.randint(4, 10)))


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def make_full_feed(seed, n, items):
    """Feed n of the full corpus: RSS 2.0, Atom or RSS 1.0 in turn. Returns
    (xml bytes, html bytes, korean words, words)."""
    rng = random.Random(seed * 1_000_003 + n)
    kind = n % 3
    html_bytes = korean_words = all_words = 0
    base = 1_790_000_000 + n * 997
    channel_korean = n % 4 == 3
    title = f"{'블로그' if channel_korean else 'Weblog'} {n}: " + _title(rng, channel_korean)
    home = f"https://site{n}.example.org/"
    entries = []
    for i in range(items):
        body, korean, words = make_article(rng, n, i)
        html_bytes += len(body.encode())
        korean_words += korean
        all_words += words
        item_title = html.escape(_title(rng, rng.random() < 0.25), quote=False)
        summary = html.escape(re.sub(r"<[^>]+>", "", body)[:240], quote=False)
        link = f"{home}{2026 - i // 365}/{i}/post-{n}-{i}"
        stamp = base + (items - i) * 3_600 + rng.randint(0, 1_800)
        author = f"Author {rng.randint(1, 9)}"
        category = rng.choice(ENGLISH)
        if kind == 0:
            entries.append(
                f"<item><title>{item_title}</title><link>{link}</link>"
                f'<guid isPermaLink="false">site{n}-post-{i}</guid>'
                f"<pubDate>{email.utils.formatdate(stamp, usegmt=True)}</pubDate>"
                f"<dc:creator>{author}</dc:creator><category>{category}</category>"
                f"<description>{summary}</description>"
                f"<content:encoded><![CDATA[{body}]]></content:encoded></item>")
        elif kind == 1:
            entries.append(
                f"<entry><title>{item_title}</title><id>tag:site{n}.example.org,2026:{i}</id>"
                f'<link rel="alternate" type="text/html" href="{link}"/>'
                f"<published>{_iso(stamp)}</published><updated>{_iso(stamp + 600)}</updated>"
                f'<author><name>{author}</name></author><category term="{category}"/>'
                f'<summary type="html">{summary}</summary>'
                f'<content type="html">{html.escape(body, quote=False)}</content></entry>')
        else:
            entries.append(
                f'<item rdf:about="{link}"><title>{item_title}</title><link>{link}</link>'
                f"<dc:date>{_iso(stamp)}</dc:date><dc:creator>{author}</dc:creator>"
                f"<dc:subject>{category}</dc:subject><description>{summary}</description>"
                f"<content:encoded>{html.escape(body, quote=False)}</content:encoded></item>")
    title = html.escape(title, quote=False)
    if kind == 0:
        doc = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
               'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
               'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
               f"<title>{title}</title><link>{home}</link><description>Posts of site {n}</description>"
               f"<language>{'ko' if channel_korean else 'en'}</language>"
               f"<lastBuildDate>{email.utils.formatdate(base + items * 3_600, usegmt=True)}</lastBuildDate>"
               + "".join(entries) + "</channel></rss>")
    elif kind == 1:
        doc = ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
               f"<title>{title}</title><id>tag:site{n}.example.org,2026:feed</id>"
               f'<link rel="alternate" href="{home}"/><link rel="self" href="{home}atom.xml"/>'
               f"<updated>{_iso(base + items * 3_600)}</updated>" + "".join(entries) + "</feed>")
    else:
        seq = "".join(f'<rdf:li rdf:resource="{home}{2026 - i // 365}/{i}/post-{n}-{i}"/>' for i in range(items))
        doc = ('<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF '
               'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" '
               'xmlns:dc="http://purl.org/dc/elements/1.1/" '
               'xmlns:content="http://purl.org/rss/1.0/modules/content/">'
               f'<channel rdf:about="{home}"><title>{title}</title><link>{home}</link>'
               f"<description>Posts of site {n}</description><items><rdf:Seq>{seq}</rdf:Seq></items>"
               "</channel>" + "".join(entries) + "</rdf:RDF>")
    return doc.encode(), html_bytes, korean_words, all_words


def make_thin_feed(n, items):
    """Feed n of the thin corpus: RSS 2.0, each item two copies of a 60-word paragraph."""
    parts = [f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
             f"<title>Bench feed {n}</title><link>https://bench.example.org/{n}</link>"]
    html_bytes = 0
    for i in range(items):
        words = " ".join(THIN_WORDS[(n * 7 + i * 3 + k) % len(THIN_WORDS)] for k in range(60))
        html_bytes += len(f"<p>{words}</p><p>{words}</p>")
        date = email.utils.formatdate(1_790_000_000 + n * 1000 + i * 60, usegmt=True)
        parts.append(f"<item><guid>feed{n}-item{i}</guid><title>Item {i} of feed {n}</title>"
                     f"<link>https://bench.example.org/{n}/{i}</link><pubDate>{date}</pubDate>"
                     f"<description>&lt;p&gt;{words}&lt;/p&gt;&lt;p&gt;{words}&lt;/p&gt;</description></item>")
    parts.append("</channel></rss>")
    return "".join(parts).encode(), html_bytes, 0, 120 * items


class Corpus:
    """The feeds' bodies and a description of their shape."""

    _cache = {}

    @classmethod
    def get(cls, kind, seed, feeds, items):
        key = (kind, seed, feeds, items)
        if key not in cls._cache:
            cls._cache.clear()  # one corpus in memory at a time (500x100 full is ~190 MB)
            cls._cache[key] = cls(kind, seed, feeds, items)
        return cls._cache[key]

    def __init__(self, kind, seed, feeds, items):
        self.kind, self.feeds, self.items = kind, feeds, items
        started = time.perf_counter()
        made = [make_full_feed(seed, n, items) if kind == "full" else make_thin_feed(n, items)
                for n in range(feeds)]
        self.bodies = [m[0] for m in made]
        self.bytes = sum(len(b) for b in self.bodies)
        self.html_per_item = sum(m[1] for m in made) / max(feeds * items, 1)
        words = sum(m[3] for m in made)
        self.korean = sum(m[2] for m in made) / words if words else 0.0
        self.seconds = time.perf_counter() - started

    def shape(self):
        if self.kind == "full":
            return (f"full-content {self.feeds} feeds x {self.items} items ({self.bytes / 1e6:.1f} MB, "
                    f"{self.html_per_item / 1e3:.1f} KB HTML/item, {self.korean:.0%} Korean, "
                    f"RSS 2.0/Atom/RSS 1.0)")
        return (f"thin {self.feeds} feeds x {self.items} items ({self.bytes / 1e6:.1f} MB, "
                f"{self.html_per_item / 1e3:.1f} KB HTML/item, RSS 2.0)")


# ---------------------------------------------------------------------------------------
# Server


class Server:
    """Serves /N.xml (feed N) on 0.0.0.0, every response in one sendall with TCP_NODELAY,
    each held `delays[N]` seconds first; answers conditional GETs with 304."""

    def __init__(self, bodies, delays=None):
        self.bodies = bodies
        self.delays = delays or [0.0] * len(bodies)
        self.etags = [f'"{n}-{len(b)}"' for n, b in enumerate(bodies)]
        self.modified = [email.utils.formatdate(1_790_000_000 + n, usegmt=True) for n in range(len(bodies))]
        self.lock = threading.Lock()
        self.counts = {}
        self.last_answer = None  # perf_counter() when the last response was written
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # TCP_NODELAY on the accepted socket

            def log_message(self, *args):
                pass

            def respond(self, status, headers, body=b""):
                lines = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}",
                         f"Date: {email.utils.formatdate(usegmt=True)}", "Server: herald-bench"]
                lines += [f"{k}: {v}" for k, v in headers]
                lines.append(f"Content-Length: {len(body)}")
                self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)  # one sendall
                with server.lock:
                    server.counts[status] = server.counts.get(status, 0) + 1
                    server.last_answer = time.perf_counter()

            def do_GET(self):
                match = re.fullmatch(r"/(\d+)\.xml", self.path.split("?")[0])
                n = int(match.group(1)) if match else -1
                if not 0 <= n < len(server.bodies):
                    self.respond(404, [("Content-Type", "text/plain")], b"no such feed\n")
                    return
                if server.delays[n] > 0:
                    time.sleep(server.delays[n])
                etag, modified = server.etags[n], server.modified[n]
                validators = [("ETag", etag), ("Last-Modified", modified)]
                match_etag = self.headers.get("If-None-Match")
                since = self.headers.get("If-Modified-Since")
                if match_etag is not None:
                    fresh = etag in [t.strip() for t in match_etag.split(",")] or match_etag.strip() == "*"
                else:
                    fresh = since is not None and _not_modified_since(since, modified)
                if fresh:
                    self.respond(304, validators)
                else:
                    self.respond(200, [("Content-Type", "application/xml; charset=utf-8")] + validators,
                                 server.bodies[n])

        class HTTPServer(http.server.ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 1024  # 200 clients connecting at once must not meet a full backlog

        self.httpd = HTTPServer(("0.0.0.0", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def answered(self, status):
        with self.lock:
            return self.counts.get(status, 0)

    def take_counts(self):
        with self.lock:
            counts, self.counts = self.counts, {}
        return counts

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def _not_modified_since(since, modified):
    try:
        return email.utils.parsedate_to_datetime(since) >= email.utils.parsedate_to_datetime(modified)
    except (TypeError, ValueError):
        return False


def host_address(index, hosts):
    """Loopback address of host `index` (127.0.0.1 when there is one host): 127.0.x.y."""
    if hosts <= 1:
        return "127.0.0.1"
    index %= hosts
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def feed_delays(seed, feeds, delay_ms, jitter_ms):
    """Seconds each feed's responses are held: delay +- jitter, uniform, fixed per feed."""
    rng = random.Random(seed * 7_919 + 17)
    return [max(0.0, (delay_ms + rng.uniform(-jitter_ms, jitter_ms)) / 1000.0) for _ in range(feeds)]


# ---------------------------------------------------------------------------------------
# Running the readers


class Result:
    def __init__(self, wall, cpu, rss_kib, status, stderr, stdout=""):
        self.wall, self.cpu, self.rss_kib, self.status, self.stderr = wall, cpu, rss_kib, status, stderr
        self.stdout = stdout


# The readers are started by a small launcher process, not by this one: exec records the
# peak RSS of the memory it replaces as the new program's ru_maxrss, and with vfork (which
# subprocess and posix_spawn use) that memory is the parent's, here the corpus (240 MB for
# 500x100). The launcher resets its own peak (/proc/self/clear_refs 5) before each spawn, so a
# child's ru_maxrss is its own peak, or the launcher's few MB if that were larger.
LAUNCHER = r"""
import json, os, sys, time
for line in sys.stdin:
    job = json.loads(line)
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    floor = 0
    with open("/proc/self/status") as f:
        for row in f:
            if row.startswith("VmHWM:"):
                floor = int(row.split()[1])
    null = os.open(os.devnull, os.O_RDWR)
    err = os.open(job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    out = os.open(job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) if job.get("stdout") else null
    start = time.perf_counter()
    pid = os.posix_spawn(job["argv"][0], job["argv"], job["env"],
                         file_actions=[(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, out, 1),
                                       (os.POSIX_SPAWN_DUP2, err, 2)])
    for fd in {null, err, out}:
        os.close(fd)
    print(json.dumps({"pid": pid}), flush=True)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss,
                      "status": os.waitstatus_to_exitcode(status), "floor": floor}), flush=True)
"""


class Launcher:
    """Runs readers to their end, from a small process (see LAUNCHER)."""

    instance = None

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.floor_kib = 0

    def run(self, argv, env, timeout, keep_stdout=False):
        import json
        with tempfile.NamedTemporaryFile(prefix="herald-bench-stderr-") as err, \
                tempfile.NamedTemporaryFile(prefix="herald-bench-stdout-") as out:
            job = {"argv": argv, "env": env, "stderr": err.name, "stdout": out.name if keep_stdout else None}
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
            pid = json.loads(self.process.stdout.readline())["pid"]
            timer = threading.Timer(timeout, lambda: os.kill(pid, 9))
            timer.start()
            try:
                done = json.loads(self.process.stdout.readline())
            finally:
                timer.cancel()
            stderr = open(err.name, errors="replace").read()
            stdout = open(out.name, errors="replace").read()
        self.floor_kib = max(self.floor_kib, done["floor"])
        return Result(done["wall"], done["cpu"], done["maxrss"], done["status"], stderr, stdout)

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def run_child(argv, env=None, timeout=1800, keep_stdout=False):
    """Runs argv to its end: wall seconds, user+sys CPU seconds and peak RSS of the child
    (wait4's rusage, which is the child's own, not the sum of every child so far), and with
    `keep_stdout` what it printed."""
    if Launcher.instance is None:
        Launcher.instance = Launcher()
    argv = [shutil.which(argv[0]) or argv[0]] + list(argv[1:])
    return Launcher.instance.run(argv, dict(env if env is not None else os.environ), timeout, keep_stdout)


def count_rows(path, table):
    uri = f"file:{path}?mode=ro"
    with sqlite3.connect(uri, uri=True) as db:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def library_bytes(path):
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


class Reader:
    """How to run herald or newsboat on a urls file."""

    def __init__(self, name, binary, work, jobs):
        self.name, self.binary, self.work, self.jobs = name, binary, work, jobs
        self.priming = 1 if name == "newsboat" else 0  # unmeasured reloads between cold and warm
        if name == "newsboat":
            self.config = os.path.join(work, "newsboat.conf")
            with open(self.config, "w") as f:
                f.write("reload-threads 8\n")

    def fresh_library(self, urls, tag):
        path = os.path.join(self.work, f"{self.name}-{tag}.db")
        for p in (path, path + "-wal", path + "-shm", path + "-journal"):
            if os.path.exists(p):
                os.remove(p)
        if self.name == "herald":
            env = dict(os.environ, HERALD_DB=path)
            subprocess.run([self.binary, "import", urls], check=True, stdout=subprocess.DEVNULL, env=env)
        return path

    def reload(self, urls, library):
        if self.name == "herald":
            env = dict(os.environ, HERALD_DB=library)
            jobs = ["--jobs", str(self.jobs)] if self.jobs else []
            return run_child([self.binary, "reload", "--quiet"] + jobs, env)
        return run_child([self.binary, "-u", urls, "-c", library, "-C", self.config, "-x", "reload"])

    def articles(self, library):
        return count_rows(library, "articles" if self.name == "herald" else "rss_item")


def measure_reader(reader, urls, runs, server):
    """Cold then warm reload, `runs` times on fresh libraries: lists of the figures."""
    figures = {k: [] for k in ("cold", "warm", "cold_cpu", "warm_cpu", "cold_rss", "warm_rss", "bytes", "articles")}
    failures = []
    for run in range(runs):
        library = reader.fresh_library(urls, run)
        server.take_counts()
        cold = reader.reload(urls, library)
        cold_counts = server.take_counts()
        # newsboat keeps a new feed's ETag and Last-Modified only from its second fetch (the
        # first fetch's UPDATE runs before the feed's row exists), so it needs one more reload
        # before every feed answers 304; that reload is not measured.
        for _ in range(reader.priming):
            reader.reload(urls, library)
        server.take_counts()
        warm = reader.reload(urls, library)
        warm_counts = server.take_counts()
        for label, result, counts in (("cold", cold, cold_counts), ("warm", warm, warm_counts)):
            if result.status != 0:
                failures.append(f"{label} run {run + 1} exit {result.status}: {result.stderr.strip()[-300:]}")
            figures[label].append(result.wall)
            figures[label + "_cpu"].append(result.cpu)
            figures[label + "_rss"].append(result.rss_kib)
        if warm_counts.get(200):
            failures.append(f"warm run {run + 1}: {warm_counts.get(200)} feeds answered 200, not 304 "
                            f"(responses {warm_counts})")
        size = library_bytes(library)  # before sqlite3 opens it
        articles = reader.articles(library)
        figures["articles"].append(articles)
        figures["bytes"].append(size / articles if articles else float("nan"))
    return figures, failures


def med(values):
    return statistics.median(values) if values else float("nan")


def ratio(h, n):
    if not n or n != n or h != h:
        return "n/a"
    return f"{h / n:.2f}" if h / n >= 0.1 else f"{h / n:.2g}"


def print_figure(prefix, what, h, n, fmt, hs=None, ns=None):
    """One line: the figure for herald, for newsboat and herald/newsboat."""
    line = f"{prefix} {what}: herald {fmt(h)}"
    if hs and len(hs) > 1:
        line += f" (runs {', '.join(fmt(v) for v in hs)})"
    if n is None:
        line += "; newsboat not measured"
    else:
        line += f"; newsboat {fmt(n)}"
        if ns and len(ns) > 1:
            line += f" (runs {', '.join(fmt(v) for v in ns)})"
        line += f"; herald/newsboat {ratio(h, n)}"
    print(line, flush=True)


def seconds(v):
    return f"{v:.2f} s"


def mib(v):
    return f"{v / 1024:.1f} MiB"


def bytes_per(v):
    return f"{v:,.0f} B"


def section(options, readers, corpus, hosts, delays, label, reference=None):
    """Serves the corpus, measures every reader, prints one line per figure."""
    server = Server(corpus.bodies, delays)
    work = tempfile.mkdtemp(prefix="herald-reload-bench-")
    try:
        urls = os.path.join(work, "urls")
        with open(urls, "w") as f:
            for n in range(corpus.feeds):
                f.write(f"http://{host_address(n, hosts)}:{server.port}/{n}.xml\n")
        slowest = max(delays) if delays else 0.0
        where = ("127.0.0.1, no delay" if hosts <= 1 and not slowest else
                 f"{hosts} loopback hosts, {options.delay_ms}+-{options.jitter_ms} ms per response "
                 f"(slowest {slowest * 1000:.0f} ms)")
        counts = {r.name: (options.runs if r.name == "herald" else max(options.runs // 2, 1)) for r in readers}
        print(f"== {label}: {corpus.shape()}; {where}; herald {'--jobs ' + str(options.jobs) if options.jobs else 'default jobs'} median of "
              f"{counts['herald']}" + (f", newsboat (reload-threads 8) median of {counts['newsboat']} (its warm "
                                       "reload is its third: it sends a feed's ETag from its third fetch on)"
                                       if "newsboat" in counts else ""), flush=True)
        results = {}
        for reader in readers:
            reader.work = work
            figures, failures = measure_reader(reader, urls, counts[reader.name], server)
            results[reader.name] = figures
            for failure in failures:
                print(f"   ! {reader.name} {failure}", flush=True)
            expected = corpus.feeds * corpus.items
            stored = figures["articles"][-1]
            if stored != expected:
                print(f"   ! {reader.name} stored {stored} articles of {expected}", flush=True)
        h, n = results["herald"], results.get("newsboat")
        prefix = f"   [{label} {corpus.kind} {corpus.feeds}x{corpus.items}]"

        def both(key, fmt, what):
            print_figure(prefix, what, med(h[key]), med(n[key]) if n else None, fmt, h[key], n[key] if n else None)

        both("cold", seconds, "cold wall (empty library)")
        both("warm", seconds, "warm wall (every feed 304)")
        both("cold_cpu", seconds, "cold CPU user+sys")
        both("warm_cpu", seconds, "warm CPU user+sys")
        floor = f"ru_maxrss; {Launcher.instance.floor_kib / 1024:.0f} MiB is the floor"
        both("cold_rss", mib, f"cold peak RSS ({floor})")
        both("warm_rss", mib, f"warm peak RSS ({floor})")
        print_figure(prefix, f"library bytes per article ({h['articles'][-1]} articles"
                     + (f"; newsboat {n['articles'][-1]}" if n else "") + ")",
                     med(h["bytes"]), med(n["bytes"]) if n else None, bytes_per)
        if slowest:
            for name, figures in results.items():
                for phase in ("cold", "warm"):
                    ideals = [slowest + c for c in figures[phase + "_cpu"]]
                    ratios = [w / i for w, i in zip(figures[phase], ideals)]
                    verdict = "meets" if med(ratios) <= 1.5 else "misses"
                    busy = med([c / w for c, w in zip(figures[phase + "_cpu"], figures[phase])])
                    print(f"{prefix} {name} {phase} wall/ideal: {med(ratios):.2f} ({verdict} the 1.5 target; "
                          f"wall {med(figures[phase]):.2f} s, ideal {med(ideals):.2f} s = slowest response "
                          f"{slowest:.2f} s + CPU {med(figures[phase + '_cpu']):.2f} s; CPU was {busy:.0%} of "
                          f"the wall)", flush=True)
                    # A reader that spins while it waits raises its own ideal; the CPU of the
                    # same corpus served at once (no waiting) is the work alone.
                    work_cpu = (reference or {}).get(name, {}).get(phase + "_cpu")
                    if work_cpu:
                        ideal = slowest + med(work_cpu)
                        ratio_work = med(figures[phase]) / ideal
                        print(f"{prefix} {name} {phase} wall/ideal with the CPU of the no-delay run (the work "
                              f"without the waiting): {ratio_work:.2f} ({'meets' if ratio_work <= 1.5 else 'misses'} "
                              f"the 1.5 target; ideal {ideal:.2f} s = {slowest:.2f} s + {med(work_cpu):.2f} s)",
                              flush=True)
                    elif reference is None:
                        print(f"{prefix} {name} {phase}: no no-delay run of this size to take the work's CPU "
                              f"from (add {corpus.feeds}x{corpus.items} to --sizes)", flush=True)
        return results
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------------------
# Keys during a cold reload

KEY_COLUMNS, KEY_ROWS = 100, 30


def pty_child(argv, env):
    """measure_terminal's Child in a KEY_COLUMNS x KEY_ROWS pty, with any argv and env."""
    return measure_terminal.Child(argv[0], None, argv=argv, env=env, rows=KEY_ROWS, columns=KEY_COLUMNS)


class KeyDriver:
    """What differs between herald and newsboat in the pty: the keys, how a frame shows the
    selection, and how to tell that the reload has ended."""

    def __init__(self, name, binary, work, urls):
        self.name, self.binary = name, binary
        self.work, self.urls = work, urls
        if name == "herald":
            self.keys = (b"j", b"k")
            self.first_frame = [b"q:quit", b"feeds \xc2\xb7"]
            # The selected row is drawn as "> N  title" (N the feed's number).
            self.selected = re.compile(rb">\s+(\d+)\s")
            self.done = re.compile(rb"Reloaded \d+ feed")  # the status line when a reload ends
        else:
            # newsboat 2.21 binds no j on the feed list; the arrows are ESC O B / ESC O A once
            # it has switched the terminal to application keys (it does at start).
            self.keys = (b"\x1bOB", b"\x1bOA")
            self.first_frame = [b"q:Quit"]
            # The selected row is drawn on a blue background: ESC[44m then "   N ".
            self.selected = re.compile(rb"\x1b\[44m\s+(\d+)\s")
            self.done = None  # it says nothing when a reload ends: the server tells
            self.config = os.path.join(work, "newsboat-keys.conf")
            with open(self.config, "w") as f:
                f.write("reload-threads 8\n")

    def start(self, session):
        library = os.path.join(self.work, f"{self.name}-keys-{session}.db")
        for p in (library, library + "-wal", library + "-shm", library + "-journal"):
            if os.path.exists(p):
                os.remove(p)
        if self.name == "herald":
            env = dict(os.environ, HERALD_DB=library)
            subprocess.run([self.binary, "import", self.urls], check=True, stdout=subprocess.DEVNULL, env=env)
            argv = [self.binary, "--db", library]
        else:
            env = dict(os.environ)
            argv = [self.binary, "-u", self.urls, "-c", library, "-C", self.config]
        child = pty_child(argv, env)
        child.spawn()
        return child


def key_session(driver, server, feeds, session, want, samples, options):
    """One reader in a pty on a never-fetched library: first frame, the two keys once each to
    learn which row each selects, `R`, then a key every gap until the reload ends (or `want`
    samples). Appends (first byte ms, selection drawn ms or None) for the keys sent during the
    reload; returns (keys sent, reload seconds, how its end was seen)."""
    quiet, gap = options.quiet_ms / 1000.0, options.key_gap_ms / 1000.0
    child = driver.start(session)
    try:
        output = bytearray()
        if child.read_until(lambda b: all(m in b for m in driver.first_frame), 20.0, output) is None:
            raise RuntimeError(f"no first frame within 20 s (tail {bytes(output[-200:])!r})")
        child.read_until_quiet(0.3, 10.0, output)
        labels = []
        for key in driver.keys:
            child.send(key)
            answer = bytearray()
            child.read_until_quiet(0.3, 5.0, answer)
            found = driver.selected.findall(answer)
            labels.append(found[-1] if found else None)
        if None in labels or labels[0] == labels[1]:
            raise RuntimeError(f"cannot tell the selected row from a key's frame (labels {labels})")
        server.take_counts()
        server.last_answer = None
        child.send(b"R")
        reload_started = time.perf_counter()
        since = bytearray()
        child.read_until_quiet(quiet, 1.0, since)
        taken = []

        def finished():
            if driver.done is not None:
                return driver.done.search(since) is not None
            return server.answered(200) >= feeds

        key = 0
        while len(samples) + len(taken) < want and not finished():
            child.read_until_quiet(quiet, 0.5, since)  # let the reload's own frame finish
            if finished():
                break
            label = labels[key % 2]
            sent = time.perf_counter()
            child.send(driver.keys[key % 2])
            key += 1
            answer, first, drawn = bytearray(), None, None
            while drawn is None and time.perf_counter() - sent < 5.0 and not child.eof:
                data = child.read_some(5.0 - (time.perf_counter() - sent))
                if not data:
                    continue
                now = time.perf_counter()
                first = first or now
                answer += data
                found = driver.selected.findall(answer)
                if found and found[-1] == label:
                    drawn = now
            if first is None:
                raise RuntimeError("no output within 5 s of a key")
            since += answer
            taken.append((sent, (first - sent) * 1000.0, (drawn - sent) * 1000.0 if drawn else None))
            child.read_until_quiet(quiet, 2.0, since)
            rest = gap - (time.perf_counter() - sent)
            if rest > 0:
                child.read_until_quiet(rest, rest, since)
        # Wait for the reload's end, so its length is known, then quit.
        deadline = time.perf_counter() + 600
        while not finished() and time.perf_counter() < deadline and not child.eof:
            since += child.read_some(0.1)
        if driver.done is not None:
            ended, how = time.perf_counter(), "its status line"
            kept = taken
        else:
            # Without a message of the reader's own, a key counts when it was sent before the
            # server's last answer of the reload (newsboat stores each feed as it arrives).
            ended, how = server.last_answer or time.perf_counter(), "the server's last answer"
            kept = [t for t in taken if t[0] <= ended]
        samples.extend((first, drawn) for _, first, drawn in kept)
        child.send(b"q")
        child.reap(5.0)
        return len(kept), ended - reload_started, how
    finally:
        child.close()


def percentile(values, fraction):
    return measure_terminal.percentile(values, fraction)


def spread(values):
    return (f"p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} ms, "
            f"max {max(values):.1f} ms")


def measure_keys(options, corpus, delays, hosts, readers):
    server = Server(corpus.bodies, delays)
    work = tempfile.mkdtemp(prefix="herald-keys-bench-")
    try:
        urls = os.path.join(work, "urls")
        with open(urls, "w") as f:
            for n in range(corpus.feeds):
                f.write(f"http://{host_address(n, hosts)}:{server.port}/{n}.xml\n")
        where = ("127.0.0.1, no delay" if not any(delays) else
                 f"{hosts} loopback hosts, {options.delay_ms:.0f}+-{options.jitter_ms:.0f} ms per response")
        print(f"== keys during a cold reload: {corpus.shape()}; {where}; {KEY_COLUMNS}x{KEY_ROWS} pty, "
              f"xterm-256color; R, then down/up alternately every ~{options.key_gap_ms:.0f} ms, each once the "
              f"output has been quiet {options.quiet_ms:.0f} ms; up to {options.key_sessions} cold reloads "
              f"for {options.keys} samples", flush=True)
        prefix = f"   [keys {corpus.kind} {corpus.feeds}x{corpus.items}]"
        for reader in readers:
            driver = KeyDriver(reader.name, reader.binary, work, urls)
            samples, log = [], []
            try:
                for session in range(options.key_sessions):
                    if len(samples) >= options.keys:
                        break
                    log.append(key_session(driver, server, corpus.feeds, session, options.keys, samples, options))
            except (RuntimeError, OSError, subprocess.CalledProcessError) as error:
                print(f"{prefix} {reader.name}: not measured: {error}", flush=True)
                continue
            if not samples:
                print(f"{prefix} {reader.name}: not measured: no key was sent while a reload ran "
                      f"(reloads took {', '.join(f'{s:.2f} s' for _, s, _ in log)})", flush=True)
                continue
            firsts = [f for f, _ in samples]
            drawn = [d for _, d in samples if d is not None]
            keys = "j/k" if reader.name == "herald" else "Down/Up"
            print(f"{prefix} {reader.name} {keys} -> first output byte during a cold reload: {spread(firsts)}, "
                  f"{len(firsts)} samples", flush=True)
            print(f"{prefix} {reader.name} {keys} -> frame with the new selection drawn: "
                  + (spread(drawn) if drawn else "never seen")
                  + f", {len(drawn)} samples" + (f" ({len(firsts) - len(drawn)} keys never drew it within 5 s)"
                                                 if len(drawn) < len(firsts) else ""), flush=True)
            print(f"{prefix} {reader.name} reloads: {len(log)}, keys during each "
                  f"{', '.join(str(n) for n, _, _ in log)}; each took "
                  f"{', '.join(f'{s:.1f} s' for _, s, _ in log)} (end seen by {log[0][2]})", flush=True)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------------------


def parse_size(text):
    feeds, items = map(int, text.lower().split("x"))
    return feeds, items


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--herald", required=True, help="the herald binary")
    parser.add_argument("--newsboat", default=shutil.which("newsboat"), help="the newsboat binary (default: PATH)")
    parser.add_argument("--no-newsboat", action="store_true", help="measure herald alone")
    parser.add_argument("--corpus", choices=("full", "thin"), default="full")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="200x50,500x100", help="throughput sizes, FEEDSxITEMS,... ('' skips)")
    parser.add_argument("--runs", type=int, default=5, help="herald runs per size (newsboat runs half as many)")
    parser.add_argument("--jobs", type=int, default=0, help="herald reload --jobs (default: herald's own)")
    parser.add_argument("--latency", default="200x50", help="latency section size ('' skips)")
    parser.add_argument("--hosts", type=int, default=200, help="latency: loopback hosts the feeds spread over")
    parser.add_argument("--delay-ms", type=float, default=300, help="latency: mean delay of every response")
    parser.add_argument("--jitter-ms", type=float, default=250, help="latency: +- this, uniform, fixed per feed")
    parser.add_argument("--keys", type=int, default=60, help="key samples during cold reloads (0 skips)")
    parser.add_argument("--keys-size", default="200x50", help="keys: corpus size")
    parser.add_argument("--keys-server", choices=("local", "latency"), default="local",
                        help="keys: serve from 127.0.0.1 at once (local) or as the latency section")
    parser.add_argument("--key-gap-ms", type=float, default=50)
    parser.add_argument("--quiet-ms", type=float, default=8, help="keys: quiet before a key and after its frame")
    parser.add_argument("--key-sessions", type=int, default=10, help="keys: at most this many cold reloads")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 20x10 sizes, 1 run, 20 feeds on 20 hosts, 20 keys")
    if "--quick" in sys.argv[1:]:  # smaller defaults; options given on the command line still win
        parser.set_defaults(sizes="20x10", runs=1, latency="20x10", hosts=20, keys=20, keys_size="50x20",
                            key_sessions=4)
    options = parser.parse_args()
    herald = os.path.abspath(options.herald)
    if not os.access(herald, os.X_OK):
        parser.error(f"no executable herald at {herald}")
    newsboat = None if options.no_newsboat else options.newsboat
    Launcher.instance = Launcher()  # before the corpus is made, while this process is small
    work = tempfile.mkdtemp(prefix="herald-reload-readers-")
    readers = [Reader("herald", herald, work, options.jobs)]
    if newsboat:
        version = subprocess.run([newsboat, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
        readers.append(Reader("newsboat", newsboat, work, options.jobs))
    print(f"herald: {herald}", flush=True)
    print(f"newsboat: {version if newsboat else 'not measured (not installed or --no-newsboat)'}", flush=True)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; corpus seed {options.seed}", flush=True)
    references = {}
    try:
        for size in filter(None, options.sizes.split(",")):
            feeds, items = parse_size(size)
            corpus = Corpus.get(options.corpus, options.seed, feeds, items)
            references[(feeds, items)] = section(options, readers, corpus, 1, None, "throughput")
        if options.latency:
            feeds, items = parse_size(options.latency)
            corpus = Corpus.get(options.corpus, options.seed, feeds, items)
            delays = feed_delays(options.seed, feeds, options.delay_ms, options.jitter_ms)
            section(options, readers, corpus, options.hosts, delays, "latency", references.get((feeds, items)))
        if options.keys > 0:
            feeds, items = parse_size(options.keys_size)
            corpus = Corpus.get(options.corpus, options.seed, feeds, items)
            if options.keys_server == "latency":
                delays, hosts = feed_delays(options.seed, feeds, options.delay_ms, options.jitter_ms), options.hosts
            else:
                delays, hosts = [0.0] * feeds, 1
            measure_keys(options, corpus, delays, hosts, readers)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        Launcher.instance.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
