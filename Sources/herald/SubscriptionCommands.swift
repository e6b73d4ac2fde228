import Foundation
import HeraldCore
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
        let store = try await options.openLibrary(importingDemo: false)
        let isNew = try await store.subscribe(subscription)
        print(isNew ? "added \(subscription.url) (run `herald reload` to fetch it)" : "updated \(subscription.url)")
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
