import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// A reloader that counts its reloads, can hold one open until the test releases it, and
/// reports new articles from two feeds.
actor CountingReloader: FeedReloading {
    private(set) var reloads = 0
    private var holding = false
    private var gate: CheckedContinuation<Void, Never>?

    func hold() { holding = true }
    func release() {
        holding = false
        gate?.resume()
        gate = nil
    }

    func reloadFeeds(only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void) async throws
        -> ReloadSummary
    {
        reloads += 1
        if holding { await withCheckedContinuation { gate = $0 } }
        var summary = ReloadSummary(feeds: 3, newArticles: 5, notModified: 1, failures: [])
        summary.feedsWithNewArticles = 2
        return summary
    }
}

/// Runs the notify command for real, as the terminal's programs do (links have no terminal
/// here).
@MainActor
final class SpawningPrograms: ProgramRunning {
    func open(_ url: String) -> String? { "no terminal" }
    func play(_ url: String) -> String? { "no terminal" }
    func play(file: String) -> String? { "no terminal" }
    func edit(file: String) -> String? { "no terminal" }
    func copy(_ text: String) -> String? { "no terminal" }
    func notify(_ command: String, newArticles: Int, feeds: Int) async -> String? {
        await NotifyCommand.run(command, newArticles: newArticles, feeds: feeds, quiet: true)
    }
    func pipe(_ text: String, to command: String) -> String? { "no terminal" }
    func bookmark(_ command: String, arguments: [String]) async -> String? { "no terminal" }
}

@Suite("The reload timer and notify-command in the reader")
@MainActor
struct ReloadTimerTests {
    func app(minutes: Int, clock: ManualClock, notify: String? = nil) -> (ReaderApp, CountingReloader) {
        let reloader = CountingReloader()
        let app = ReaderApp(repository: makeLibrary(), size: Size(width: 70, height: 13))
        app.reloads.reloader = reloader
        app.reloads.clock = clock
        app.programs = SpawningPrograms()
        var settings = Settings()
        settings.reloadInterval = minutes
        settings.notifyCommand = notify
        app.settings = settings
        return (app, reloader)
    }

    @Test("set reload-interval reloads every feed each time the interval passes, and not before")
    func reloadsOnTheInterval() async throws {
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, reloader) = app(minutes: 10, clock: clock)
        app.start()
        await app.settle()
        #expect(app.reloads.isTimerArmed)
        await clock.waitForSleeps(started: 1)
        clock.advance(by: .seconds(9 * 60))
        await app.settle()
        #expect(await reloader.reloads == 0, "not before ten minutes")
        clock.advance(by: .seconds(60))
        await clock.waitForSleeps(started: 2)
        await app.settle()
        #expect(await reloader.reloads == 1)
        #expect(app.render().text().contains("Reloaded 3 feeds: 5 new · next reload in 10 min"))
        clock.advance(by: .seconds(10 * 60))
        await clock.waitForSleeps(started: 3)
        await app.settle()
        #expect(await reloader.reloads == 2)
        app.reloads.stopTimer()
        #expect(!app.reloads.isTimerArmed)
    }

    @Test("a reload still running when the timer fires is not started twice")
    func notTwice() async throws {
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, reloader) = app(minutes: 1, clock: clock)
        await reloader.hold()
        app.start()
        await app.settle()
        app.handle(.character("R"))  // held open by the reloader
        _ = await waitUntil { app.render().text().contains("reloading") }
        await clock.waitForSleeps(started: 1)
        clock.advance(by: .seconds(60))
        await clock.waitForSleeps(started: 2)
        #expect(await reloader.reloads == 1, "the timer found a reload running and started none")
        #expect(!app.render().text().contains("already under way"), "the timer says nothing about it")
        await reloader.release()
        await app.settle()
        #expect(await reloader.reloads == 1)
        app.reloads.stopTimer()
    }

    @Test("no interval, or nothing to reload: no timer")
    func noTimer() async {
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, _) = app(minutes: 0, clock: clock)
        app.start()
        await app.settle()
        #expect(!app.reloads.isTimerArmed)
        let files = ReaderApp(repository: makeLibrary(), size: Size(width: 70, height: 13))
        files.settings.reloadInterval = 5
        files.start()
        #expect(!files.reloads.isTimerArmed, "--feeds DIR has no reloader")
    }

    @Test(":set reload-interval arms the timer for the session, and 0 stops it")
    func setDuringTheSession() async {
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, _) = app(minutes: 0, clock: clock)
        app.start()
        await app.settle()
        #expect(!app.reloads.isTimerArmed)
        let typed = ":set reload-interval 3".map { Key.character($0) }
        await AppDriver.press(app, typed + [.enter])
        #expect(app.reloads.isTimerArmed && app.settings.reloadInterval == 3, "\(app.render().text())")
        await AppDriver.press(app, ":set reload-interval 0".map { Key.character($0) } + [.enter])
        #expect(!app.reloads.isTimerArmed)
    }

    @Test("after a reload with new articles, notify-command runs once with %n and %f")
    func notifies() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-notify-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("args").path
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, reloader) = app(
            minutes: 0, clock: clock, notify: "echo %n %f >> '\(out)'; echo noise; echo more >&2")
        app.start()
        await app.settle()
        app.handle(.character("R"))
        await app.settle()
        #expect(await reloader.reloads == 1)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "5 2\n")
        #expect(app.render().text().contains("Reloaded 3 feeds: 5 new"))
    }

    @Test("a failing notify-command is reported on the status line")
    func failingNotify() async throws {
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, _) = app(minutes: 0, clock: clock, notify: "exit 4")
        app.start()
        await app.settle()
        app.handle(.character("R"))
        await app.settle()
        #expect(app.render().text().contains("notify-command exited with status 4"), "\(app.render().text())")
    }

    @Test("the notify command goes to the programs, with the counts; a session without them (headless) runs none")
    func notifyThroughPrograms() async throws {
        let clock = ManualClock()
        defer { clock.stop() }
        let (app, _) = app(minutes: 0, clock: clock, notify: "notify-send %n")
        let recording = RecordingOpener()
        app.programs = recording
        app.start()
        await app.settle()
        app.handle(.character("R"))
        await app.settle()
        #expect(recording.notified.map { "\($0.command) \($0.newArticles) \($0.feeds)" } == ["notify-send %n 5 2"])

        let (headless, reloader) = self.app(minutes: 0, clock: clock, notify: "exit 4")
        headless.programs = nil
        headless.start()
        await headless.settle()
        headless.handle(.character("R"))
        await headless.settle()
        #expect(await reloader.reloads == 1)
        #expect(!headless.render().text().contains("notify-command"), "nothing ran, nothing failed")
    }
}

@Suite("reload-interval with units")
struct ReloadIntervalUnitsTests {
    @Test("set reload-interval 2h is 120 minutes; 30s is refused with its unit named")
    func units() {
        let hours = ConfigFile.parse("set reload-interval 2h", file: "config")
        #expect(hours.settings.reloadInterval == 120 && hours.diagnostics.isEmpty)
        let seconds = ConfigFile.parse("set reload-interval 30s", file: "config")
        #expect(seconds.settings.reloadInterval == 0)
        #expect(seconds.diagnostics.first?.message.contains("not seconds") == true, "\(seconds.diagnostics)")
    }
}
