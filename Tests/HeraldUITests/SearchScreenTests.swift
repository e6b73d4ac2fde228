import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// The search screen in the reader: `/` from anywhere, typing, moving, opening, going back.
@Suite("Search screen")
@MainActor
struct SearchScreenTests {
    @Test("/ opens the search from every screen; letters, j, k, q and / are text")
    func opensFromAnywhere() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        #expect(h.model != nil)
        h.type("jkq/ G")
        #expect(h.model?.query == "jkq/ G")
        #expect(!h.app.isFinished)
        let text = h.text
        #expect(text.hasPrefix(" Herald · Search"))
        #expect(text.split(separator: "\n")[1].hasPrefix("/ jkq/ G"))
        #expect(text.contains("Esc:back"))

        h.press(.escape)
        h.press(.enter)
        await h.settle()
        h.press(.character("/"))
        #expect(h.model != nil)
        h.press(.escape, .enter)
        await h.settle()
        guard case .article = h.app.screen else { Issue.record("not on an article"); return }
        h.press(.character("/"))
        #expect(h.model != nil)
        #expect(h.app.stack.count == 4)
    }

    @Test("a paste longer than the prompt takes stops at its limit, said on the status line; the end shows")
    func pasteStopsAtTheLimit() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        let words = (0..<2_000).map { "word\($0)" }.joined(separator: " ")
        h.type(words)
        let query = try #require(h.model?.query)
        #expect(query.utf8.count <= InputLimits.promptBytes)
        #expect(query.utf8.count > InputLimits.promptBytes - 10)
        #expect(words.hasPrefix(query))
        #expect(h.text.contains("the line is full: \(InputLimits.promptBytes) bytes at most"))
        // The prompt shows the query's end, where the typing is, after an ellipsis.
        let prompt = h.text.split(separator: "\n")[1].trimmingCharacters(in: .whitespaces)
        #expect(prompt.hasPrefix("/ …") && prompt.hasSuffix(String(query.suffix(10))))
        // Backspace still edits it.
        h.press(.backspace)
        #expect(h.model?.query == String(query.dropLast()))
    }

    @Test("the caret is a reverse-video cell after the query")
    func caret() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        h.type("한글")
        let canvas = h.app.render()
        // "/ " then two wide graphemes: the caret is at column 6.
        #expect(canvas[6, 1].style.reverse)
        #expect(!canvas[5, 1].style.reverse)
    }

    @Test("Ctrl-W deletes the last word, Ctrl-U clears, Backspace one grapheme")
    func editingKeys() async throws {
        let h = await SearchHarness()
        h.press(.character("/"))
        h.type("article 2 한글")
        h.press(.backspace)
        #expect(h.model?.query == "article 2 한")
        h.press(.control("w"))
        #expect(h.model?.query == "article 2 ")
        h.press(.control("w"))
        #expect(h.model?.query == "article ")
        h.press(.control("u"))
        #expect(h.model?.query == "")
        #expect(h.model?.status == .idle)
    }

    @Test("arrows, Ctrl-N/Ctrl-P and page keys move through the results")
    func moving() async throws {
        let h = await SearchHarness()
        await h.search("article 2")
        let model = try #require(h.model)
        // Every article's text has "Paragraph 2".
        #expect(model.hits.count == 60)
        h.press(.down, .control("n"))
        #expect(model.cursor.selected == 2)
        h.press(.control("p"))
        #expect(model.cursor.selected == 1)
        h.press(.pageDown)
        #expect(model.cursor.selected == 10)
        h.press(.end)
        #expect(model.cursor.selected == 59)
        h.press(.pageUp, .up)
        #expect(model.cursor.selected == 49)
        #expect(h.text.contains("> N  "))
    }

    @Test("Enter opens the selected result, marked read; q returns to the same results")
    func openMarksRead() async throws {
        let h = await SearchHarness()
        await h.search("article 29")
        let model = try #require(h.model)
        // Equal rank and date: the later id first, as lists order them.
        #expect(model.hits.map(\.id) == ["feed-1/29", "feed-0/29"])
        h.press(.down, .enter)
        await h.settle()
        guard case .article(let viewer) = h.app.screen else { Issue.record("not on an article"); return }
        #expect(viewer.summary.id == "feed-0/29")
        #expect(viewer.summary.isRead)
        #expect(h.text.contains("Paragraph 0 of article 29."))
        #expect(try await h.repository.article(id: "feed-0/29").summary.isRead)
        #expect(!(try await h.repository.article(id: "feed-1/29").summary.isRead))
        #expect(h.app.feedList.feeds.map(\.unread) == [29, 30])
        #expect(model.hits[1].article.isRead && !model.hits[0].article.isRead)

        h.press(.character("q"))
        #expect(h.model === model)
        #expect(model.query == "article 29" && model.cursor.selected == 1)
        #expect(h.text.contains("/ article 29"))
        #expect(await h.searchCount() == 1)
    }

    @Test("N in an article opened from search updates the result and the feed counts")
    func toggleReadFromSearch() async throws {
        let h = await SearchHarness()
        await h.search("article 29")
        h.press(.enter)
        await h.settle()
        #expect(h.app.feedList.feeds[1].unread == 29)
        h.press(.character("N"))
        await h.settle()
        #expect(h.app.feedList.feeds[1].unread == 30)
        #expect(!(try await h.repository.article(id: "feed-1/29").summary.isRead))
        h.press(.escape)
        #expect(h.model?.hits[0].article.isRead == false)
    }

    @Test("a result from another feed than the list under the search counts in its own feed")
    func otherFeedCounts() async throws {
        let h = await SearchHarness()
        h.press(.enter)
        await h.settle()
        guard case .articles(let list) = h.app.screen else { Issue.record("not on the list"); return }
        await h.search("article 29")
        h.press(.enter)
        await h.settle()
        #expect(h.app.feedList.feeds.map(\.unread) == [30, 29])
        #expect(list.unread == 30)
        h.press(.character("N"))
        await h.settle()
        #expect(h.app.feedList.feeds.map(\.unread) == [30, 30])
        h.press(.character("q"), .down, .enter)
        await h.settle()
        #expect(h.app.feedList.feeds.map(\.unread) == [29, 30])
        #expect(list.unread == 29)
        #expect(list.article(at: 0)?.isRead == true)
    }

    @Test("Esc closes the search and returns exactly where / was pressed")
    func escapeReturns() async throws {
        let h = await SearchHarness()
        h.press(.down, .enter)
        await h.settle()
        h.press(.character("J"), .character("J"))
        guard case .articles(let list) = h.app.screen else { Issue.record("not on the list"); return }
        #expect(list.cursor.selected == 2)
        await h.search("article")
        #expect(h.model?.hits.isEmpty == false)
        h.press(.down, .escape)
        guard case .articles(let back) = h.app.screen else { Issue.record("not back on the list"); return }
        #expect(back === list)
        #expect(back.cursor.selected == 2)
        #expect(h.app.stack.count == 2)
        #expect(h.text.contains("> N  "))
    }

    @Test("matched words are drawn in the match style, the rest of the title is not")
    func highlightDrawn() async throws {
        let h = await SearchHarness()
        await h.search("ARTICLE 29")
        let canvas = h.app.render()
        let row = 3  // the second result: the first is under the selection bar
        let line = canvas.text().split(separator: "\n")[row]
        let title = try #require(line.range(of: "Article 29"))
        let x = line.distance(from: line.startIndex, to: title.lowerBound)
        #expect(canvas[x, row].style == h.app.theme.match)
        #expect(canvas[x + 6, row].style == h.app.theme.match)
        #expect(canvas[x + 7, row].style == h.app.theme.unread)
        #expect(canvas[x + 8, row].style == h.app.theme.match)
        #expect(canvas[x - 2, row].style != h.app.theme.match)
    }

    @Test("a query with no results says so")
    func noResults() async throws {
        let h = await SearchHarness()
        await h.search("zebra")
        #expect(h.model?.status == .done)
        #expect(h.text.contains("no results for “zebra”"))
    }
}
