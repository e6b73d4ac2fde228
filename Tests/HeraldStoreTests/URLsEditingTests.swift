import Foundation
import HeraldCore
@testable import HeraldNewsboat
import Testing

@testable import HeraldStore

/// The subscriptions as newsboat's urls file (the reader's `E`): written from the library,
/// and only what the user changed in it changes the library.
@Suite("Editing the subscriptions as a urls file")
struct URLsEditingTests {
    @Test("the text lists every feed with its tags and title; a change of each is applied, and read back")
    func roundTrip() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.subscribe(Subscription(url: "https://a.example/feed", title: "Alpha \"A\"", tags: ["news"]))
        try await store.subscribe(Subscription(url: "https://b.example/feed", title: "Beta"))
        try await store.subscribe(Subscription(url: "https://c.example/feed", title: "Gamma", tags: ["x", "y"]))
        let editor = LibraryURLsEditor(store: store)
        let original = try await editor.urlsText()
        let lines = original.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            lines == [
                #""https://a.example/feed" "news" "~Alpha \"A\"""#, #""https://b.example/feed" "~Beta""#,
                #""https://c.example/feed" "x" "y" "~Gamma""#,
            ], "\(original)")
        // Nothing changed: nothing to do.
        #expect(await editor.edits(from: original, to: original).isEmpty)
        // b removed, c retitled and retagged, a's title removed, d added.
        let edited = """
            "https://a.example/feed" "news"
            https://c.example/feed fresh "~Gamma ray"
            https://d.example/feed.xml "~Delta"
            """
        let edits = await editor.edits(from: original, to: edited)
        #expect(edits.added == [Subscription(url: "https://d.example/feed.xml", title: "Delta")])
        #expect(edits.removed == ["https://b.example/feed"])
        #expect(edits.retitled.map(\.url) == ["https://a.example/feed", "https://c.example/feed"])
        #expect(edits.retitled.map(\.title) == [nil, "Gamma ray"])
        #expect(edits.retagged.map(\.url) == ["https://c.example/feed"] && edits.retagged.first?.tags == ["fresh"])
        #expect(edits.refused.isEmpty, "\(edits.refused)")
        let refused = await editor.edits(from: original, to: edited + "\nquery:Unread:unread = \"yes\"\njavascript:alert(1)\n")
        #expect(refused.refused.count == 2, "\(refused.refused)")
        #expect(refused.refused.first?.hasPrefix("line 4: query feeds are query lines") == true)
        #expect(refused.removed.isEmpty && refused.added.count == 1, "while a line is refused nothing is unsubscribed")
        try await editor.apply(edits)
        let after = try await store.feedSummaries().map(\.feed)
        #expect(after.map(\.url) == ["https://a.example/feed", "https://c.example/feed", "https://d.example/feed.xml"])
        #expect(after.map(\.title) == ["Alpha \"A\"", "Gamma ray", "Delta"])
        #expect(after.map(\.tags) == [["news"], ["fresh"], []])
        // The text read again shows the edits, and editing it to itself changes nothing.
        let again = try await editor.urlsText()
        #expect(await editor.edits(from: again, to: again).isEmpty)
        #expect(again.contains(#""https://c.example/feed" "fresh" "~Gamma ray""#))
    }

    @Test("an emptied file, or one with only comments, unsubscribes from nothing")
    func emptied() async throws {
        let original = #""https://a.example/feed" "~A""# + "\n" + #""https://b.example/feed""# + "\n"
        for edited in ["", "\n\n", "# all gone\n"] {
            #expect(LibraryURLsEditor.edits(from: original, to: edited).isEmpty, "\(edited.debugDescription)")
        }
        // A line mistyped into one Herald refuses: refused, and no feed is unsubscribed.
        let broken = LibraryURLsEditor.edits(
            from: original, to: #""https://a.example/feed" "~A""# + "\nhttps//b.example/feed\n")
        #expect(broken.refused.count == 1 && broken.removed.isEmpty, "\(broken)")
    }
}
