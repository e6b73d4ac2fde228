import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
import HeraldConfig

/// A reloader with a server account beside its feeds, reporting what `AccountReloader` (in
/// the herald target) reports: the account counted apart from the feeds, its sync in a note,
/// a failure in `accountFailures` (named with its login there, by its kind alone in the note).
actor AccountLikeReloader: FeedReloading {
    var next: ReloadSummary

    init(_ summary: ReloadSummary) { next = summary }

    func report(_ summary: ReloadSummary) { next = summary }

    func reloadFeeds(only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void) async throws
        -> ReloadSummary
    { next }

    static func summary(feeds: Int, localNew: Int, note: String, new: Int, failure: String? = nil) -> ReloadSummary {
        var summary = ReloadSummary(feeds: feeds, newArticles: localNew + new, notModified: 0, failures: [])
        summary.accounts = 1
        summary.accountNewArticles = new
        summary.accountNotes = [note]
        if let failure {
            summary.accountFailures = [
                ReloadFailure(url: "http://127.0.0.1:1/api/greader.php", title: "FreshRSS (alice@127.0.0.1)", reason: failure)
            ]
        }
        return summary
    }
}

@Suite("Reloading with a server account")
@MainActor
struct ReaderAccountReloadTests {
    func started(_ summary: ReloadSummary) async -> (ReaderApp, AccountLikeReloader) {
        let reloader = AccountLikeReloader(summary)
        let app = ReaderApp(repository: makeLibrary(), size: Size(width: 100, height: 13))
        app.reloads.reloader = reloader
        app.start()
        await app.settle()
        return (app, reloader)
    }

    func press(_ app: ReaderApp, _ key: Key) async {
        app.handle(key)
        await app.settle()
    }

    @Test("every feed the account's: the status line says what the sync did, not 'Reloaded 0 feeds'")
    func accountOnly() async {
        let note = "FreshRSS: 3 new, 2 changes sent"
        let (app, _) = await started(AccountLikeReloader.summary(feeds: 0, localNew: 0, note: note, new: 3))
        await press(app, .character("R"))
        let screen = app.render().text()
        #expect(screen.contains(note) && !screen.contains("Reloaded"), "\(screen)")
    }

    @Test("beside local feeds: their figures, then the account's, each counting its own new articles")
    func besideLocalFeeds() async {
        let note = "FreshRSS: 4 new"
        let (app, _) = await started(AccountLikeReloader.summary(feeds: 2, localNew: 1, note: note, new: 4))
        await press(app, .character("R"))
        #expect(app.render().text().contains("Reloaded 2 feeds: 1 new; \(note)"))
    }

    @Test("an account that could not be synced is said, listed first by !, and gone from ! once it syncs")
    func failedAccount() async throws {
        let why = "connection refused by 127.0.0.1"
        let (app, reloader) = await started(
            AccountLikeReloader.summary(
                feeds: 2, localNew: 0, note: "FreshRSS: \(why), 1 change waiting", new: 0,
                failure: why))
        await press(app, .character("R"))
        #expect(
            app.render().text().contains(
                "Reloaded 2 feeds: 0 new; FreshRSS: \(why), 1 change waiting (!: why)"))
        await press(app, .character("!"))
        guard case .errors = app.screen else {
            Issue.record("no error view")
            return
        }
        let lines = app.render().text().split(separator: "\n")
        let first = try #require(lines.dropFirst().first)
        #expect(first.contains("FreshRSS (alice@127.0.0.1)") && first.contains(why), "\(lines)")
        await press(app, .character("q"))
        await reloader.report(
            AccountLikeReloader.summary(feeds: 2, localNew: 0, note: "FreshRSS: 0 new", new: 0))
        await press(app, .character("R"))
        await press(app, .character("!"))
        #expect(app.message == "No feed failed to load, and none was read with errors.")
    }
}

extension ReaderAccountReloadTests {
    @Test("a failure the library remembers (the last sync, before this reader) is listed by ! at once, until a sync works")
    func rememberedFailure() async throws {
        let why = "connection refused by 127.0.0.1; 2 changes wait for the next contact"
        let (app, reloader) = await started(
            AccountLikeReloader.summary(feeds: 2, localNew: 0, note: "FreshRSS: 0 new", new: 0))
        await press(app, .character("!"))
        #expect(app.message == "No feed failed to load, and none was read with errors.")
        app.reloads.recall(accountFailures: [
            ReloadFailure(url: "http://127.0.0.1:1/api/greader.php", title: "FreshRSS (alice@127.0.0.1)", reason: why)
        ])
        await press(app, .character("!"))
        guard case .errors = app.screen else {
            Issue.record("no error view")
            return
        }
        let screen = app.render().text()
        let first = try #require(screen.split(separator: "\n").dropFirst().first)
        #expect(first.contains("FreshRSS (alice@127.0.0.1)") && first.contains("2 changes wait"), "\(first)")
        #expect(screen.contains("the account failed") && !screen.contains("feed failed"), "\(screen)")
        await press(app, .character("q"))
        await reloader.report(AccountLikeReloader.summary(feeds: 2, localNew: 0, note: "FreshRSS: 0 new", new: 0))
        await press(app, .character("R"))
        await press(app, .character("!"))
        #expect(app.message == "No feed failed to load, and none was read with errors.")
    }
}
