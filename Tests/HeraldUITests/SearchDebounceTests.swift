import HeraldCore
import Testing

@testable import HeraldUI

/// The debounced search task: one query per pause in typing, the newest query always wins.
@Suite("Search debounce")
@MainActor
struct SearchDebounceTests {
    @Test("three keystrokes inside 300 ms make one query, for the whole text")
    func oneQueryPerPause() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        for (index, letter) in "art".enumerated() {
            if index > 0 { h.clock.advance(by: .milliseconds(100)) }
            h.type(String(letter))
            await h.clock.waitForSleeps(started: index + 1)
            #expect(h.clock.pendingSleepers == 1, "the previous keystroke's debounce was cancelled")
        }
        #expect(h.model?.status == .searching)
        #expect(h.text.contains("searching…"))
        // 300 ms after the first key, but only 100 ms after the last one.
        #expect(h.clock.now == .milliseconds(200))
        h.clock.advance(by: .milliseconds(299))
        for _ in 0..<50 { await Task.yield() }
        #expect(h.clock.pendingSleepers == 1)
        #expect(await h.searchCount() == 0)

        h.clock.advance(by: .milliseconds(1))
        await h.settle()
        #expect(await h.queries() == ["art"])
        #expect(h.model?.status == .done)
        #expect(h.model?.hits.count == 60)
        #expect(h.text.contains("60 results"))
    }

    @Test("a key typed as the debounce ends still wins: the ended debounce searches nothing")
    func keyAtTheDeadline() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        h.type("2")
        await h.clock.waitForSleeps(started: 1)
        // The sleep has returned, but its task has not run yet when the next key comes.
        h.clock.advance(by: SearchModel.debounce)
        h.type("9")
        await h.clock.waitForSleeps(started: 2)
        h.clock.advance(by: SearchModel.debounce)
        await h.settle()
        #expect(await h.queries() == ["29"])
        #expect(h.model?.hits.count == 2)
    }

    @Test("a slow older query's result never replaces a newer one")
    func staleResultDropped() async throws {
        let h = await SearchHarness()
        await h.repository.hold("2")
        h.press(.character("/"))
        h.type("2")
        await h.clock.waitForSleeps(started: 1)
        h.clock.advance(by: SearchModel.debounce)
        for _ in 0..<2_000 where !(await h.repository.isHolding) {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await h.repository.isHolding)

        h.type("9")
        await h.clock.waitForSleeps(started: 2)
        h.clock.advance(by: SearchModel.debounce)
        let done = await waitUntil { h.model?.status == .done }
        #expect(done)
        let newer = try #require(h.model?.hits.map(\.id))
        #expect(newer == ["feed-1/29", "feed-0/29"])

        // The older search ignored its cancellation and comes back late, with more hits.
        await h.repository.release()
        await h.settle()
        #expect(await h.queries() == ["2", "29"])
        #expect(h.model?.hits.map(\.id) == newer)
        #expect(h.model?.query == "29")
        #expect(h.model?.status == .done)
    }

    @Test("Esc cancels the pending query: advancing the clock afterwards runs nothing")
    func escapeCancels() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        h.type("article")
        await h.clock.waitForSleeps(started: 7)
        h.press(.escape)
        #expect(h.clock.pendingSleepers == 0)
        h.clock.advance(by: .seconds(1))
        await h.settle()
        #expect(await h.searchCount() == 0)
        guard case .feeds = h.app.screen else { Issue.record("Esc did not close the search"); return }
    }

    @Test("Backspace to an empty query clears the results and searches nothing")
    func backspaceToEmpty() async throws {
        let h = await SearchHarness()
        await h.search("29")
        #expect(h.model?.hits.count == 2)
        h.press(.backspace)
        #expect(h.model?.query == "2")
        #expect(h.model?.status == .searching)
        h.press(.backspace)
        #expect(h.model?.query == "")
        #expect(h.model?.hits.isEmpty == true)
        #expect(h.model?.status == .idle)
        #expect(h.clock.pendingSleepers == 0)
        h.clock.advance(by: .seconds(1))
        await h.settle()
        #expect(await h.queries() == ["29"])
        #expect(!h.text.contains("Article"))
    }

    @Test("a failed search shows its error on the status line")
    func failure() async throws {
        let h = await SearchHarness()
        await h.repository.fail(with: "disk on fire")
        await h.search("article")
        #expect(h.model?.status == .failed("disk on fire"))
        let canvas = h.app.render()
        let row = canvas.size.height - 2
        #expect(canvas.text().split(separator: "\n")[row].contains("search failed: disk on fire"))
        #expect(canvas[1, row].style == h.app.theme.error)
    }
}
