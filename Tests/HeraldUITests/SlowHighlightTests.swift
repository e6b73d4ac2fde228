import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// A `highlight` whose pattern backtracks without end on the titles of a list: it is
/// stopped within its time, turned off for the session and said on the status line; the
/// other highlights still colour their titles.
@Suite("Highlights too slow")
@MainActor
struct SlowHighlightTests {
    /// One feed: titles of 20–32 `a` and a `!`, newest first, and an ordinary one.
    func library() -> InMemoryArticleRepository {
        let feed = Feed(url: "feed-0", title: "Backtracking")
        let titles = (20...32).map { String(repeating: "a", count: $0) + "!" } + ["Rust news"]
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        return InMemoryArticleRepository(feeds: [
            (
                feed,
                titles.enumerated().map { index, title in
                    Article(
                        summary: ArticleSummary(
                            id: "a\(index)", feedID: feed.id, title: title,
                            published: start.addingTimeInterval(Double(-index) * 60)),
                        feedTitle: feed.title, link: nil, text: "")
                }
            )
        ])
    }

    @Test(
        "highlight \"(a+)+$\" is turned off with a message when the list opens; the next highlight still applies"
    )
    func slowHighlight() async throws {
        let size = Size(width: 100, height: 20)
        let app = await AppDriver.started(
            library(), size: size,
            config: "highlight \"(a+)+$\" red\nhighlight \"!$\" green\nhighlight rust blue")
        await AppDriver.press(app, [.enter])
        let canvas = app.render()
        let lines = canvas.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let status = lines[size.height - 2]
        #expect(status.contains("highlight: /(a+)+$/ is too slow"), "\(status)")
        #expect(status.contains("off for this session") || status.hasSuffix("…"), "\(status)")
        // Every title of a's is green (the second highlight), Rust blue; but the first row,
        // under the cursor's bar.
        var checked = 0
        let bar = lines.firstIndex { $0.contains("aaaa!") }
        for (y, line) in lines.enumerated() where y != bar {
            guard
                let x = line.range(of: "aaaa!").map({
                    line.distance(from: line.startIndex, to: $0.lowerBound)
                })
                    ?? line.range(of: "Rust news").map({
                        line.distance(from: line.startIndex, to: $0.lowerBound)
                    })
            else { continue }
            let expected: TerminalColor = line.contains("Rust") ? .blue : .green
            #expect(canvas[x, y].style.foreground == expected, "\(line)")
            checked += 1
        }
        #expect(checked == 13, "\(canvas.text())")
        // Frames after that run nothing more, and say nothing more.
        app.message = nil
        _ = app.render()
        #expect(app.message == nil)
    }
}
