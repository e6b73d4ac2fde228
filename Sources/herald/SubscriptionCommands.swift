import Foundation
import HeraldCore
import HeraldFetch
import HeraldStore
import HeraldAccounts

/// `herald add URL` and `herald remove URL | --demo`: one subscription at a time.
enum SubscriptionCommands {
    /// `herald add URL [--title T] [--tag T]… [--account]`: a new feed, or more tags (and,
    /// with `--title`, a new title) for a known one. With `--account`, the subscription is
    /// the server account's (made there at the next contact).
    static func add(_ arguments: [String], options: GlobalOptions) async throws {
        var subscription: Subscription?
        var title: String?
        var tags: [String] = []
        var throughAccount = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--account": throughAccount = true
            case "--title": title = try reader.value(of: argument)
            case "--tag": tags.append(try reader.value(of: argument))
            default:
                guard subscription == nil else {
                    throw UsageError("add takes one URL (got '\(argument)' too)")
                }
                do {
                    subscription = Subscription(url: try FeedAddress.check(argument, from: .typed))
                } catch {
                    throw UsageError(
                        "add needs an http, https or file URL (or newsboat's exec:COMMAND or filter:COMMAND:URL): "
                            + "'\(TextSanitizer.singleLine(argument))' \(error)")
                }
            }
        }
        guard var subscription else {
            throw UsageError("add needs a URL: herald add URL [--title T] [--tag T]")
        }
        subscription.title = title
        subscription.tags = tags
        let store = try await options.openLibrary(importingDemo: false, writing: "herald add")
        if throughAccount {
            try await addThroughAccount(subscription, store: store, options: options)
            return
        }
        // A feed already followed is not fetched again: only its title and tags change.
        // A command feed (exec:, filter:) is run by the next reload, not here.
        if try await !store.hasFeed(url: subscription.url), !CommandFeed.isCommand(subscription.url) {
            subscription.url = try await feedAddress(for: subscription.url)
        }
        let demo = try await store.demoFeedURLs()
        let result = try await store.subscribe(subscription, replacingTitle: title != nil)
        let shown = TextSanitizer.singleLine(subscription.url)
        switch result {
        case .new:
            Console.say("added \(shown) (run `herald reload` to fetch it)")
        case .updated(let newTags, let newTitle):
            var changes: [String] = []
            if !newTags.isEmpty { changes.append("tagged " + newTags.joined(separator: ", ")) }
            if let newTitle { changes.append("titled \(newTitle)") }
            Console.say("updated \(shown): \(changes.joined(separator: "; "))")
        case .unchanged where demo.contains(subscription.url):
            break  // it became the user's: said just below
        case .unchanged:
            Console.say("\(shown) is already in the library; nothing changed")
        }
        reportAdopted([subscription], demo: demo)
        try await retireDemoFeeds(store, after: [result])
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
            Console.complain("herald: warning: could not fetch \(address) now (\(error)); adding it anyway")
            return address
        }
        let parseError: FeedParseError
        do {
            _ = try FeedParser.parse(
                document.data, baseURL: document.finalURL.absoluteString, httpCharset: document.charset)
            return document.movedPermanentlyTo?.absoluteString ?? address
        } catch {
            parseError = error
        }
        var feeds: [DiscoveredFeed] = []
        for var feed in FeedDiscovery.alternateFeeds(
            in: document.data, pageURL: document.finalURL.absoluteString)
        {
            do {
                feed.url = try FeedAddress.check(feed.url, from: .discovered)
                feeds.append(feed)
            } catch {
                Console.complain(
                    "herald: \(address) names \(feed.url.prefix(200)) as a feed; skipped: \(error)")
            }
        }
        guard let first = feeds.first else {
            throw UsageError(
                "\(address) is not a feed (\(parseError)), and the page names no feed Herald can follow")
        }
        Console.say(
            "\(address) is a web page; it names \(feeds.count == 1 ? "one feed" : "\(feeds.count) feeds"):")
        for feed in feeds { Console.say("  \(feed.url)" + (feed.title.map { "  (\($0))" } ?? "")) }
        Console.say("subscribing to the first; `herald add` another to follow it too")
        return first.url
    }

    /// `herald remove URL` or `herald remove --demo`.
    static func remove(_ arguments: [String], options: GlobalOptions) async throws {
        if arguments == ["--demo"] {
            let store = try await options.openLibrary(importingDemo: false, writing: "herald remove")
            let removed = try await store.removeDemoFeeds()
            if removed == 0 {
                Console.say("there are no demo feeds to remove")
            } else {
                Console.say("removed \(demoFeeds(removed)) and their articles")
            }
            return
        }
        guard arguments.count == 1, let url = arguments.first else {
            throw UsageError("remove needs one feed URL, or --demo for the demo feeds")
        }
        let store = try await options.openLibrary(importingDemo: false, writing: "herald remove")
        if try await store.unsubscribeThroughAccount(url: url) {
            Console.say("removed \(url) and its articles; the account unsubscribes from it at the next contact")
            return
        }
        guard try await store.unsubscribe(url: url) else {
            throw UsageError("no feed \(url) (`herald export` lists the feeds)")
        }
        Console.say("removed \(url) and its articles")
    }

    /// `herald add --account URL`: subscribed here at once, on the server at the next
    /// contact (a reload); refused when there is no account, or its protocol cannot.
    static func addThroughAccount(_ subscription: Subscription, store: LibraryStore, options: GlobalOptions)
        async throws
    {
        let config = try options.loadConfig()
        guard let account = try AccountRun.config(config.settings.account, configPath: options.configFile().path)
        else { throw UsageError("add --account: no account is set (urls-source is local)") }
        guard account.kind != .fever else {
            throw UsageError("add --account: the Fever API cannot subscribe; subscribe on the server itself")
        }
        guard subscription.url.lowercased().hasPrefix("http://") || subscription.url.lowercased().hasPrefix("https://")
        else { throw UsageError("add --account: the server can only read http(s) feeds") }
        _ = try await store.subscribeThroughAccount(subscription)
        Console.say(
            "added \(TextSanitizer.singleLine(subscription.url)) through \(account.label) "
                + "(subscribed there by the next `herald reload`)")
    }

    // MARK: The demo feeds

    /// Once a feed of the user's own is in the library, the demo feeds leave (with their
    /// articles and search entries), and the user is told.
    static func retireDemoFeeds(_ store: LibraryStore, after results: [SubscribeResult]) async throws {
        guard results.contains(.new) else { return }
        let removed = try await store.removeDemoFeeds()
        guard removed > 0 else { return }
        Console.say("removed \(demoFeeds(removed)) (your own feeds replace \(removed == 1 ? "it" : "them"))")
    }

    /// Names the demo feeds the user subscribed to: they are the user's own now and stay.
    static func reportAdopted(_ subscriptions: [Subscription], demo: [String]) {
        for subscription in subscriptions where demo.contains(subscription.url) {
            Console.say(
                "\(TextSanitizer.singleLine(subscription.url)) was a demo feed; it is yours now and stays")
        }
    }

    static func demoFeeds(_ count: Int) -> String { count == 1 ? "the demo feed" : "the \(count) demo feeds" }
}
