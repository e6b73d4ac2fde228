import HeraldCore
import Testing

@testable import HeraldUI

/// `ArticleFlags`: which is newer, a row read from the library or a change the reader made.
@MainActor
@Suite("The article flags store")
struct ArticleFlagsTests {
    func row(_ id: String, read: Bool = false, starred: Bool = false) -> ArticleSummary {
        ArticleSummary(id: id, feedID: "f", title: id, isRead: read, isStarred: starred)
    }

    @Test("a row shows its own flags until a change; a change shows at once, whatever rows arrive while it is written")
    func changeWinsWhileWriting() {
        let flags = ArticleFlags()
        let stamp = flags.now
        flags.learn([row("a"), row("b", starred: true)], readAt: stamp)
        #expect(!flags.shown(row("a")).isRead && flags.shown(row("b")).isStarred)
        flags.change(.read, true, ids: ["a"])
        #expect(flags.shown(row("a")).isRead)
        // A page read after the key but before the write is saved still holds the old flag.
        flags.learn([row("a", read: false)], readAt: flags.now)
        #expect(flags.shown(row("a")).isRead, "a row read before the write undid the change on screen")
        flags.saved(.read, ids: ["a"])
        #expect(flags.shown(row("a", read: false)).isRead)
    }

    @Test("after a write is saved, rows asked for before it lose and rows asked for after it win")
    func stampsDecide() {
        let flags = ArticleFlags()
        flags.learn([row("a")], readAt: flags.now)
        let before = flags.now
        flags.change(.starred, true, ids: ["a"])
        flags.saved(.starred, ids: ["a"])
        flags.learn([row("a", starred: false)], readAt: before)
        #expect(flags.shown(row("a")).isStarred, "a row asked for before the save replaced it")
        // Another program unstarred it later: a row asked for now says so, and wins.
        flags.learn([row("a", starred: false)], readAt: flags.now)
        #expect(!flags.shown(row("a")).isStarred)
    }

    @Test("two changes in flight: the first one's save does not bring its value back; a failure puts back what was kept")
    func writesInOrder() {
        let flags = ArticleFlags()
        flags.learn([row("a")], readAt: flags.now)
        flags.change(.starred, true, ids: ["a"])
        flags.change(.starred, false, ids: ["a"])
        flags.saved(.starred, ids: ["a"])
        #expect(!flags.shown(row("a")).isStarred)
        // A sync that says starred while the unstar is still being written does not win.
        flags.hold(.starred, true, ids: ["a"])
        #expect(!flags.shown(row("a")).isStarred)
        flags.failed(.starred, kept: ["a": true])
        #expect(flags.shown(row("a")).isStarred, "the failed unstar left the article unstarred")
        flags.hold(.starred, false, ids: ["a"])
        #expect(!flags.shown(row("a")).isStarred)
    }

    @Test("an article the store never saw shows its row's flags, and is not kept")
    func unknownRows() {
        let flags = ArticleFlags()
        #expect(flags.shown(row("x", read: true, starred: true)) == row("x", read: true, starred: true))
        #expect(flags.count == 0)
        flags.hold(.read, true, ids: ["x", "y"])
        #expect(flags.count == 2)
        #expect(flags.shown(row("y")).isRead)
    }
}
