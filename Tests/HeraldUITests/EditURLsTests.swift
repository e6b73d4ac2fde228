import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// Subscriptions as a text, recorded: what `E` applies.
actor MemorySubscriptions: SubscriptionEditing {
    let text: String
    var applied: [SubscriptionEdits] = []

    init(_ text: String) { self.text = text }

    func urlsText() async throws -> String { text }
    func edits(from original: String, to edited: String) async -> SubscriptionEdits {
        var edits = SubscriptionEdits()
        let before = Set(original.split(separator: "\n").map(String.init))
        let after = Set(edited.split(separator: "\n").map(String.init))
        edits.added = after.subtracting(before).sorted().map { Subscription(url: $0) }
        edits.removed = before.subtracting(after).sorted()
        return edits
    }
    func apply(_ edits: SubscriptionEdits) async throws { applied.append(edits) }
}

/// newsboat's `E` (edit-urls) in the reader: the editor gets the subscriptions as a file;
/// what was added is applied at once, what was removed after a question; `!` lists errors.
@Suite("E edits the subscriptions")
@MainActor
struct EditURLsTests {
    func started(_ editing: @escaping (String) -> String) async -> (ReaderApp, RecordingOpener, MemorySubscriptions) {
        let app = await AppDriver.started(flaggedLibrary([[false]]), size: Size(width: 100, height: 12))
        let opener = RecordingOpener()
        opener.editing = editing
        app.programs = opener
        let subscriptions = MemorySubscriptions("https://a.example/feed\nhttps://b.example/feed\n")
        app.subscriptionEditor = subscriptions
        return (app, opener, subscriptions)
    }

    @Test("a line added is subscribed when the editor exits; the file is gone after")
    func added() async {
        let (app, opener, subscriptions) = await started { $0 + "https://c.example/feed\n" }
        await AppDriver.press(app, [.character("E")])
        #expect(opener.edited.count == 1)
        #expect(app.message == "Subscriptions: 1 added (R fetches them).")
        #expect(await subscriptions.applied.first?.added == [Subscription(url: "https://c.example/feed")])
        #expect(!FileManager.default.fileExists(atPath: opener.edited[0]))
    }

    @Test("a line deleted asks first: n keeps the feed, y unsubscribes")
    func removed() async {
        let (app, _, subscriptions) = await started { $0.replacingOccurrences(of: "https://b.example/feed\n", with: "") }
        await AppDriver.press(app, [.character("E")])
        #expect(app.confirmation?.question == "Unsubscribe from 1 feed (their articles go, starred ones too)? (y/n)")
        await AppDriver.press(app, [.character("n")])
        #expect(await subscriptions.applied.isEmpty)
        await AppDriver.press(app, [.character("E"), .character("y")])
        #expect(await subscriptions.applied.first?.removed == ["https://b.example/feed"])
        #expect(app.message == "Subscriptions: 1 removed.")
    }

    @Test("an editor that fails, or no change, changes nothing; ! lists the errors as E did")
    func nothing() async {
        let (app, opener, subscriptions) = await started { $0 }
        await AppDriver.press(app, [.character("E")])
        #expect(app.message == "No change to the subscriptions.")
        opener.failure = "vi exited with status 1"
        await AppDriver.press(app, [.character("E")])
        #expect(app.message == "The editor: vi exited with status 1; nothing changed.")
        #expect(await subscriptions.applied.isEmpty)
        await AppDriver.press(app, [.character("!")])
        #expect(app.message == "No feed failed to load, and none was read with errors.")
    }
}
