import Foundation
import HeraldAccounts
import HeraldCore
import HeraldStore

/// `herald mark read|unread|star|unstar ID… | --query EXPR` and `herald account [status |
/// sync]`.
enum AccountCommands {
    /// Sets a flag the way the reader does: through the library, whose triggers queue the
    /// change for the account (and the sync folder) in the same transaction.
    static func mark(_ arguments: [String], options: GlobalOptions) async throws {
        var reader = ArgumentReader(arguments)
        guard let verb = reader.next() else { throw UsageError("mark needs read, unread, star or unstar") }
        let (flag, value): (ArticleFlag, Bool)
        switch verb {
        case "read": (flag, value) = (.read, true)
        case "unread": (flag, value) = (.read, false)
        case "star": (flag, value) = (.starred, true)
        case "unstar": (flag, value) = (.starred, false)
        default: throw UsageError("mark: '\(verb)' is not read, unread, star or unstar")
        }
        var ids: [String] = []
        var query: String?
        while let argument = reader.next() {
            switch argument {
            case "--query":
                let text = try reader.value(of: argument)
                do { _ = try ArticleQuery.parse(text) } catch {
                    throw UsageError("query:\(error.column): \(error.message)")
                }
                query = text
            default:
                guard Int64(argument) != nil else { throw UsageError("mark: '\(argument)' is not an article id") }
                ids.append(argument)
            }
        }
        guard !ids.isEmpty || query != nil else { throw UsageError("mark needs article ids or --query EXPR") }
        let store = try await options.openLibrary(importingDemo: false, writing: "herald mark")
        var changed: [String] = []
        if !ids.isEmpty {
            for id in ids where (try? await store.article(id: id)) == nil {
                throw UsageError("mark: no article \(id)")
            }
            changed += try await store.setFlag(flag, value, articleIDs: ids)
        }
        if let query { changed += try await store.setFlag(flag, value, in: .query(query)) }
        let waiting = try await store.accountOutboxCount()
        Console.say(
            "\(changed.count) article\(changed.count == 1 ? "" : "s") marked \(verb)"
                + (waiting > 0 ? "; \(waiting) change\(waiting == 1 ? "" : "s") wait to go up to the account" : ""))
    }

    /// `herald account` (or `account status`): the configured account and its last contact;
    /// `herald account sync`: a sync now, without the local feeds.
    static func run(_ arguments: [String], options: GlobalOptions) async throws -> Int32 {
        let word = arguments.first ?? "status"
        guard arguments.count <= 1, word == "status" || word == "sync" else {
            throw UsageError("account takes status or sync")
        }
        let config = try options.loadConfig()
        guard let account = try AccountRun.config(config.settings.account, configPath: options.configFile().path)
        else {
            Console.say("no account: urls-source is local (docs/ACCOUNTS.md sets one up)")
            return 0
        }
        let store = try await options.openLibrary(importingDemo: false, writing: word == "sync" ? "herald account sync" : nil)
        if word == "sync" {
            let outcome = await AccountRun.sync(account, store: store)
            Console.say(AccountRun.line(account, outcome))
            return outcome.summary == nil ? 1 : 0
        }
        Console.say(account.label)
        Console.say("  address:  \(account.url.absoluteString)")
        let last = try await store.accountValue("last-sync").flatMap(Double.init)
        Console.say(
            "  last sync: "
                + (last.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } ?? "never"))
        if let status = try await store.accountValue("status"), status != "ok" {
            Console.say("  last contact failed: \(status)")
        }
        Console.say("  feeds:    \(try await store.accountFeedCount())")
        Console.say("  waiting:  \(try await store.accountOutboxCount()) changes to send")
        return 0
    }
}
