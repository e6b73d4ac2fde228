import Foundation
import HeraldAccounts
import HeraldConfig
import HeraldCore
import HeraldFetch
import HeraldStore

/// The account the config names (`urls-source` and its settings), and one sync with it as the
/// commands run it: `herald reload` before the local feeds, `herald account sync`. Its status
/// (the last contact, what failed, when to try again) is kept in the library's `meta`.
enum AccountRun {
    /// The configured account; nil for `urls-source local`. A setting missing is a usage
    /// error naming it.
    static func config(_ settings: AccountSettings, configPath: String) throws -> AccountConfig? {
        guard settings.source != "local", let kind = AccountKind(rawValue: settings.source) else { return nil }
        let prefix = kind.prefix
        guard let address = settings.value("url") else {
            throw UsageError("urls-source is \(prefix): set \(prefix)-url to its address")
        }
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { throw UsageError("\(prefix)-url is not an http(s) address: \(TextSanitizer.singleLine(address))") }
        guard let login = settings.value("login") else {
            throw UsageError("urls-source is \(prefix): set \(prefix)-login to its user name")
        }
        let secret: AccountSecret
        if let password = settings.value("password") {
            if let why = AccountSecret.exposed(configPath) {
                secret = .missing("\(prefix)-password is in a config file others can read: \(why)")
            } else {
                secret = .text(password)
            }
        } else if let file = settings.value("passwordfile") {
            secret = .file(file)
        } else if let command = settings.value("passwordeval") {
            secret = .command(command)
        } else {
            secret = .missing("set \(prefix)-password, \(prefix)-passwordfile or \(prefix)-passwordeval")
        }
        return AccountConfig(kind: kind, url: url, login: login, secret: secret)
    }

    /// What a sync came to, for a line of output.
    struct Outcome: Sendable {
        var summary: AccountSyncSummary?
        var error: String?
        var waiting = 0
        /// What else happened, said once (a former account's feeds given back).
        var notes: [String] = []
    }

    /// One sync, its status recorded. A server that asked not to be asked before a time
    /// (429/503 with Retry-After) is not asked before it.
    static func sync(_ account: AccountConfig, store: LibraryStore, backingOff: Bool = false) async -> Outcome {
        var outcome = Outcome()
        do {
            // After failures, an unattended reload (`--due`: cron) waits 2, 4, 8 … minutes (at
            // most an hour) after the last try before it tries again.
            if backingOff, let failures = try await store.accountValue("failures").flatMap({ Int($0) }),
                let last = try await store.accountValue("last-try").flatMap(Double.init)
            {
                let wait = min(60.0 * pow(2, Double(min(failures, 6))), 3600)
                if Date().timeIntervalSince1970 < last + wait {
                    outcome.error = "not contacted: \(failures) failed tries, the next after \(AccountErrorWords.duration(Int(last + wait - Date().timeIntervalSince1970)))"
                    outcome.waiting = try await store.accountOutboxCount()
                    return outcome
                }
            }
            try await store.setAccountValue("last-try", String(Date().timeIntervalSince1970))
            if let released = try await store.bindAccount(account.identity), released.releasedFeeds > 0 {
                outcome.notes.append(
                    "\(released.releasedFeeds) feeds of the library's former account are local feeds now (kept whole)"
                        + (released.droppedChanges > 0 ? "; \(released.droppedChanges) of its changes could not go up" : ""))
            }
            if let until = try await store.accountValue("retry-after").flatMap(Double.init),
                until > Date().timeIntervalSince1970
            {
                let wait = Int(until - Date().timeIntervalSince1970)
                outcome.error = "not contacted: it asked to be left alone for \(AccountErrorWords.duration(wait)) more"
                outcome.waiting = try await store.accountOutboxCount()
                return outcome
            }
            let fetcher = FeedFetcher()
            let service = try await account.service(fetcher: fetcher)
            let summary = try await AccountSync(service: service, store: store).run()
            outcome.summary = summary
            try await store.setAccountValue("status", "ok")
            try await store.setAccountValue("failures", nil)
            try await store.setAccountValue("last-sync", String(Int(Date().timeIntervalSince1970)))
        } catch {
            let words = TextSanitizer.singleLine("\(error)")
            outcome.error = words
            try? await store.setAccountValue("status", words)
            let failures = (try? await store.accountValue("failures")).flatMap { $0.flatMap { Int($0) } } ?? 0
            try? await store.setAccountValue("failures", String(failures + 1))
            if let accountError = error as? AccountError, case .busy(let seconds) = accountError {
                try? await store.setAccountValue("retry-after", String(Date().timeIntervalSince1970 + Double(seconds)))
            }
        }
        outcome.waiting = (try? await store.accountOutboxCount()) ?? 0
        return outcome
    }

    /// What a sync did in a few words, for the reader's status line (`line` says it all; the
    /// account is named by its kind alone: there is one).
    static func note(_ account: AccountConfig, _ outcome: Outcome) -> String {
        guard let summary = outcome.summary else {
            let waiting = outcome.waiting
            return "\(account.kind.name): \(outcome.error ?? "failed")"
                + (waiting > 0 ? ", \(waiting) change\(waiting == 1 ? "" : "s") waiting" : "")
        }
        var note = "\(account.kind.name): \(summary.newArticles) new"
        if summary.changesSent > 0 { note += ", \(summary.changesSent) change\(summary.changesSent == 1 ? "" : "s") sent" }
        if summary.flagsChanged > 0 { note += ", \(summary.flagsChanged) marks from the server" }
        if summary.feeds.added > 0 { note += ", \(summary.feeds.added) feeds subscribed" }
        let gone = summary.feeds.removed + summary.feeds.keptForStarred
        if gone > 0 { note += ", \(gone) feeds unsubscribed" }
        return note
    }

    /// The outcome as the line `herald reload` prints.
    static func line(_ account: AccountConfig, _ outcome: Outcome) -> String {
        var line = account.label + ": "
        if let summary = outcome.summary {
            let (new, sent) = (summary.newArticles, summary.changesSent)
            line += "\(new) new article\(new == 1 ? "" : "s"), \(sent) change\(sent == 1 ? "" : "s") sent"
            if summary.flagsChanged > 0 { line += ", \(summary.flagsChanged) marks taken from the server" }
            if summary.changesOverruled > 0 {
                line += ", \(summary.changesOverruled) changes overtaken by later ones on the server"
            }
            let feeds = summary.feeds
            if feeds.added > 0 { line += ", \(feeds.added) feeds subscribed" }
            if feeds.demoFeedsRemoved > 0 { line += ", the demo feeds removed" }
            if feeds.adopted > 0 { line += ", \(feeds.adopted) local feeds now read through the server" }
            if feeds.removed + feeds.keptForStarred > 0 {
                line += ", \(feeds.removed + feeds.keptForStarred) feeds unsubscribed on the server"
                if feeds.keptForStarred > 0 { line += " (\(feeds.keptForStarred) kept for their starred articles)" }
            }
            for change in summary.refused { line += "\n  \(change)" }
            for feed in feeds.refused { line += "\n  a server feed left out: \(feed)" }
            for note in outcome.notes { line += "\n  \(note)" }
        } else {
            line += outcome.error ?? "failed"
            if outcome.waiting > 0 {
                line += "; \(outcome.waiting) change\(outcome.waiting == 1 ? " waits" : "s wait") for the next contact"
            }
        }
        return line
    }
}

/// Durations in words, as the account's errors give them.
enum AccountErrorWords {
    static func duration(_ seconds: Int) -> String { FetchError.duration(max(seconds, 1)) }
}
