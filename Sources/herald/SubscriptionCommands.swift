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

    static func export(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.isEmpty else { throw UsageError("export takes no arguments; it writes OPML to stdout") }
        let store = try await options.openLibrary(importingDemo: false)
        print(OPML.export(try await store.subscriptions()), terminator: "")
    }
}
