import Foundation
import HeraldCore
import HeraldFetch
import HeraldStore

/// `herald import FILE` (OPML or a newsboat `urls` file) and `herald export` (OPML 2.0).
enum SubscriptionCommands {
    static func importFile(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.count == 1, let path = arguments.first else {
            throw UsageError("import needs one file: herald import FILE (OPML or a newsboat urls file)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("cannot read \(path): \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let subscriptions: [Subscription]
        if text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") {
            subscriptions = try OPML.parse(data)
        } else {
            subscriptions = NewsboatURLs.parse(text)
        }
        guard !subscriptions.isEmpty else { throw UsageError("\(path) lists no feeds") }
        let store = try await options.openLibrary(importingDemo: false)
        var added = 0
        for subscription in subscriptions where try await store.subscribe(subscription) { added += 1 }
        print("imported \(subscriptions.count) feeds from \(path) (\(added) new)")
    }

    /// `herald add URL [--title T] [--tag T]…`
    static func add(_ arguments: [String], options: GlobalOptions) async throws {
        var subscription: Subscription?
        var title: String?
        var tags: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--title" || argument == "--tag" {
                guard index + 1 < arguments.count else { throw UsageError("\(argument) needs a value") }
                if argument == "--title" { title = arguments[index + 1] } else { tags.append(arguments[index + 1]) }
                index += 2
                continue
            }
            guard subscription == nil, let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
                ["http", "https", "file"].contains(scheme)
            else { throw UsageError("add needs one http, https or file URL (got '\(argument)')") }
            subscription = Subscription(url: argument)
            index += 1
        }
        guard var subscription else { throw UsageError("add needs a URL: herald add URL [--title T] [--tag T]") }
        subscription.title = title
        subscription.tags = tags
        subscription.url = try await feedAddress(for: subscription.url)
        let store = try await options.openLibrary(importingDemo: false)
        let isNew = try await store.subscribe(subscription)
        print(isNew ? "added \(subscription.url) (run `herald reload` to fetch it)" : "updated \(subscription.url)")
    }

    /// The feed behind a URL: the URL itself when it serves a feed, else the first feed the
    /// page announces (`<link rel="alternate">`). A URL that cannot be fetched now is kept
    /// as given, with a warning, so feeds can be added offline.
    static func feedAddress(for address: String) async throws -> String {
        guard let url = URL(string: address) else { return address }
        let document: FetchedDocument
        do {
            guard case .fetched(let fetched) = try await FeedFetcher().fetch(FetchRequest(url: url)) else {
                return address
            }
            document = fetched
        } catch {
            FileHandle.standardError.write(Data("herald: warning: could not fetch \(address) now (\(error)); adding it anyway\n".utf8))
            return address
        }
        let parseError: FeedParseError
        do {
            _ = try FeedParser.parse(document.data, baseURL: document.finalURL.absoluteString, httpCharset: document.charset)
            return document.movedPermanentlyTo?.absoluteString ?? address
        } catch {
            parseError = error
        }
        let feeds = FeedDiscovery.alternateFeeds(in: document.data, pageURL: document.finalURL.absoluteString)
        guard let first = feeds.first else {
            throw UsageError("\(address) is not a feed (\(parseError)), and the page names no feed")
        }
        print("\(address) is a web page; it names \(feeds.count == 1 ? "one feed" : "\(feeds.count) feeds"):")
        for feed in feeds { print("  \(feed.url)" + (feed.title.map { "  (\($0))" } ?? "")) }
        print("subscribing to the first; `herald add` another to follow it too")
        return first.url
    }

    /// `herald remove URL`
    static func remove(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.count == 1, let url = arguments.first else { throw UsageError("remove needs one feed URL") }
        let store = try await options.openLibrary(importingDemo: false)
        guard try await store.unsubscribe(url: url) else {
            throw UsageError("no feed \(url) (`herald export` lists the feeds)")
        }
        print("removed \(url) and its articles")
    }

    static func export(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.isEmpty else { throw UsageError("export takes no arguments; it writes OPML to stdout") }
        let store = try await options.openLibrary(importingDemo: false)
        print(OPML.export(try await store.subscriptions()), terminator: "")
    }
}
