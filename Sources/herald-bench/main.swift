import Foundation
import HeraldCore
import HeraldStore

// herald-bench: builds synthetic libraries and measures the store.
//   herald-bench populate --articles N --db PATH [--feeds F] [--seed S]
//   herald-bench search --db PATH [--runs R]          search latency p50/p99 per query
//   herald-bench lists --db PATH [--runs R]           time to open All/Unread/Starred/tags
//   herald-bench query --db PATH [--runs R] [--query TEXT …]
//                                                      first page of query-language queries p50/p99
//   herald-bench regex --db PATH [--runs R]            ordinary title:/…/ and author:/…/ queries:
//                                                      counts and first pages, and ns a match
//                                                      with and without the time budget
//   herald-bench parse [--mb N] [--runs R]             XML feed parser MB/s (RSS 2.0, Atom)
//   herald-bench corpus --articles N --out DIR [--feeds F] [--base URL]
//                                                      full-content RSS feeds (issue 9's shape)
//   herald-bench store --feeds DIR --db PATH           stores a corpus: CPU and bytes per article
//   herald-bench sync-merge [--operations N] [--devices D] [--dir DIR [--reuse]]
//                                                      merges N sync operations: time and peak memory
//   herald-bench undo --db PATH                        mark all read and its undo; main-actor gaps
//   herald-bench extract --pages DIR --out FILE [--runs R]
//                                                      the article extractor on saved pages: ms a page

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("herald-bench: \(message)\n".utf8))
    exit(2)
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "populate":
    guard let articles = option("--articles", in: arguments).flatMap(Int.init), articles > 0,
        let path = option("--db", in: arguments)
    else { fail("usage: herald-bench populate --articles N --db PATH [--feeds F] [--seed S]") }
    let feeds = option("--feeds", in: arguments).flatMap(Int.init) ?? min(max(articles / 1000, 10), 1000)
    let seed = option("--seed", in: arguments).flatMap(UInt64.init) ?? 42
    try await Populate.run(articles: articles, feeds: feeds, seed: seed, path: path)
case "search":
    guard let path = option("--db", in: arguments) else {
        fail("usage: herald-bench search --db PATH [--runs R]")
    }
    let runs = option("--runs", in: arguments).flatMap(Int.init) ?? 20
    try await SearchBench.run(path: path, runs: runs)
case "lists":
    guard let path = option("--db", in: arguments) else {
        fail("usage: herald-bench lists --db PATH [--runs R]")
    }
    let runs = option("--runs", in: arguments).flatMap(Int.init) ?? 21
    try await ListBench.run(path: path, runs: runs)
case "query":
    guard let path = option("--db", in: arguments) else {
        fail("usage: herald-bench query --db PATH [--runs R]")
    }
    // `--query TEXT` (repeatable) runs those queries instead of the fixed set.
    let only = arguments.indices.filter { arguments[$0] == "--query" && $0 + 1 < arguments.count }.map {
        arguments[$0 + 1]
    }
    try await QueryBench.run(
        path: path, runs: option("--runs", in: arguments).flatMap(Int.init) ?? 21, only: only)
case "regex":
    guard let path = option("--db", in: arguments) else {
        fail("usage: herald-bench regex --db PATH [--runs R]")
    }
    let runs = option("--runs", in: arguments).flatMap(Int.init) ?? 11
    try await RegexBench.run(path: path, runs: runs)
    try await RegexMatchBench.run(path: path, runs: runs)
case "parse":
    let megabytes = option("--mb", in: arguments).map { Int($0) ?? 0 } ?? 10
    let runs = option("--runs", in: arguments).map { Int($0) ?? 0 } ?? 7
    guard megabytes > 0, runs > 0 else { fail("usage: herald-bench parse [--mb N] [--runs R]") }
    ParseBench.run(megabytes: megabytes, runs: runs)
case "corpus":
    guard let articles = option("--articles", in: arguments).flatMap(Int.init), articles > 0,
        let directory = option("--out", in: arguments)
    else { fail("usage: herald-bench corpus --articles N --out DIR [--feeds F] [--base URL]") }
    let feeds = option("--feeds", in: arguments).flatMap(Int.init) ?? max(articles / 50, 1)
    let base = option("--base", in: arguments) ?? "http://127.0.0.1:8000"
    let seed = option("--seed", in: arguments).flatMap(UInt64.init) ?? 9
    try FullContentCorpus.write(
        articles: articles, feeds: feeds, seed: seed, directory: directory, baseURL: base)
case "store":
    guard let directory = option("--feeds", in: arguments), let path = option("--db", in: arguments) else {
        fail("usage: herald-bench store --feeds DIR --db PATH")
    }
    try await StoreBench.run(directory: directory, path: path)
case "sync-merge":
    let operations = option("--operations", in: arguments).flatMap(Int.init) ?? 1_000_000
    let devices = option("--devices", in: arguments).flatMap(Int.init) ?? 2
    guard operations > 0, devices > 0 else {
        fail("usage: herald-bench sync-merge [--operations N] [--devices D] [--dir DIR [--reuse]]")
    }
    try await SyncBench.run(
        operations: operations, devices: devices, directory: option("--dir", in: arguments),
        reuse: arguments.contains("--reuse"))
case "sync-change":
    guard let path = option("--db", in: arguments) else {
        fail("usage: herald-bench sync-change --db PATH [--changes N]")
    }
    try await SyncChangeBench.run(
        path: path, changes: option("--changes", in: arguments).flatMap(Int.init) ?? 2_000)
case "extract" where arguments.count == 3 && arguments[1] == "--explain":
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    print(ArticleExtractor.explain(html: arguments[2].hasSuffix(".gz") ? try ExtractBench.gunzip(data) : [UInt8](data)))
case "extract":
    guard let pages = option("--pages", in: arguments), let out = option("--out", in: arguments) else {
        fail("usage: herald-bench extract --pages DIR --out FILE [--runs R]")
    }
    try ExtractBench.run(pages: pages, out: out, runs: option("--runs", in: arguments).flatMap(Int.init) ?? 5)
case "undo":
    guard let path = option("--db", in: arguments) else { fail("usage: herald-bench undo --db PATH") }
    try await UndoBench.run(path: path)
default:
    fail("usage: herald-bench populate|search|lists|query|parse|corpus|store|undo|extract|sync-merge|sync-change …")
}
