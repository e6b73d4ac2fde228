public import HeraldCore
public import HeraldStore

/// The library's subscriptions as newsboat's urls file, for the reader's `E` (edit-urls): a
/// line per feed, `URL "tag" … "~Title"`. Only what the user changed in the text changes in
/// the library: a line added subscribes, a line gone unsubscribes, a title or tags changed
/// become the feed's title or tags setting (as `herald feed set` makes them; a reload keeps
/// them and sync carries them). A line that is not a feed Herald can follow is refused, with
/// its number and why; query feeds live in the config (`query` lines).
public struct LibraryURLsEditor: SubscriptionEditing {
    let store: LibraryStore

    public init(store: LibraryStore) { self.store = store }

    public func urlsText() async throws -> String {
        let feeds = try await store.feedSummaries().map(\.feed)
        var lines = [
            "# Herald's subscriptions as newsboat's urls file: a feed a line, \"tags\" after it, \"~Title\" last.",
            "# Add a line to subscribe, delete one to unsubscribe (you will be asked), change a title or",
            "# tags to set them. Save and quit to apply; quit without saving, or empty the file, to change nothing.",
        ]
        for feed in feeds {
            var words = [Self.quoted(feed.url)]
            words += feed.tags.map(Self.quoted)
            if feed.title != feed.url, !feed.title.isEmpty { words.append(Self.quoted("~" + feed.title)) }
            lines.append(words.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public func edits(from original: String, to edited: String) async -> SubscriptionEdits {
        Self.edits(from: original, to: edited)
    }

    static func edits(from original: String, to edited: String) -> SubscriptionEdits {
        var edits = SubscriptionEdits()
        let before = NewsboatURLs.parseListed(original).map(\.subscription)
        let listed = NewsboatURLs.parseListed(edited)
        // An emptied file is no instruction to unsubscribe from everything.
        guard !listed.isEmpty else { return edits }
        var after: [Subscription] = []
        var seen: Set<String> = []
        for entry in listed {
            var subscription = entry.subscription
            if subscription.url.hasPrefix("query:") {
                edits.refused.append("line \(entry.line): query feeds are query lines in the config (query \"NAME\" EXPR)")
                continue
            }
            do {
                // Typed by the user in their editor, as on the command line (`herald add`).
                subscription.url = try FeedAddress.check(subscription.url, from: .typed)
            } catch {
                edits.refused.append("line \(entry.line): \(TextSanitizer.singleLine(String(subscription.url.prefix(120)))): \(error)")
                continue
            }
            guard seen.insert(subscription.url).inserted else { continue }
            after.append(subscription)
        }
        let old = Dictionary(before.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
        for subscription in after {
            guard let was = old[subscription.url] else {
                edits.added.append(subscription)
                continue
            }
            if subscription.title != was.title { edits.retitled.append((subscription.url, subscription.title)) }
            if subscription.tags != was.tags { edits.retagged.append((subscription.url, subscription.tags)) }
        }
        let kept = Set(after.map(\.url))
        // A refused line may be a feed's line mistyped: while one is, nothing is unsubscribed.
        if edits.refused.isEmpty { edits.removed = before.map(\.url).filter { !kept.contains($0) } }
        return edits
    }

    public func apply(_ edits: SubscriptionEdits) async throws {
        // An account's feed is unsubscribed on its server too, at the next contact.
        for url in edits.removed where try await !store.unsubscribeThroughAccount(url: url) {
            try await store.unsubscribe(url: url)
        }
        for subscription in edits.added {
            try await store.subscribe(subscription, replacingTitle: subscription.title != nil)
        }
        for (url, title) in edits.retitled {
            if let title {
                try await store.setFeedSetting(url: url, key: .title, value: title)
            } else {
                try await store.unsetFeedSetting(url: url, key: .title)
            }
        }
        for (url, tags) in edits.retagged {
            try await store.setFeedSetting(url: url, key: .tags, value: tags.joined(separator: ", "))
        }
    }

    /// A word of the urls file: quoted, with `"` and `\` escaped, as newsboat reads them.
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
