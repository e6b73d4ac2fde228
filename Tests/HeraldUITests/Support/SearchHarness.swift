import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// The reader over the small test library with a manual debounce clock and a search
/// repository that counts (and can hold) its calls.
@MainActor
final class SearchHarness {
    let clock = ManualClock()
    let repository: SearchRepository
    let app: ReaderApp

    /// A search still waiting for the clock when the test ends, or about to, is cancelled
    /// rather than left waiting for good.
    deinit { clock.stop() }

    /// 10 body rows: the prompt and 9 results.
    init(size: Size = Size(width: 80, height: 13)) async {
        repository = SearchRepository()
        app = ReaderApp(repository: repository, size: size, clock: clock)
        app.start()
        await app.settle()
    }

    /// Presses keys without waiting for anything they start.
    func press(_ keys: Key...) {
        for key in keys { app.handle(key) }
    }

    /// Types text into the prompt, one key per grapheme.
    func type(_ text: String) {
        for character in text { app.handle(.character(character)) }
    }

    /// Types `query` after `/`, lets the debounce pass and waits for the results.
    func search(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        press(.character("/"))
        type(query)
        await clock.waitForSleeps(started: clock.sleepsStarted + query.count, sourceLocation: sourceLocation)
        #expect(
            clock.pendingSleepers == 1, "one debounce per pause in typing", sourceLocation: sourceLocation)
        clock.advance(by: SearchModel.debounce)
        await settle(sourceLocation: sourceLocation)
    }

    /// `app.settle()`, but a search still waiting for the manual clock is a failure, not a hang.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        @MainActor final class Flag { var isSet = false }
        let (app, settled) = (self.app, Flag())
        Task { @MainActor in
            await app.settle()
            settled.isSet = true
        }
        if await waitUntil({ settled.isSet }) { return }
        Issue.record(
            "the app did not settle: \(clock.pendingSleepers) searches still wait for the clock",
            sourceLocation: sourceLocation)
    }

    /// The search screen on top of the stack.
    var model: SearchModel? {
        if case .search(let model) = app.screen { model } else { nil }
    }

    func searchCount() async -> Int { await repository.searchCount }
    func queries() async -> [String] { await repository.queries }

    /// The rendered screen as text.
    var text: String { app.render().text() }
}
