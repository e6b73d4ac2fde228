import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("The action table")
struct ActionTableTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")
    static let begin =
        "<!-- keys:begin (generated from ActionTable; HERALD_RECORD_SNAPSHOTS=1 swift test rewrites it) -->"
    static let end = "<!-- keys:end -->"

    @Test("the README's key table is the action table")
    func readmeTable() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "README.md has no \(Self.begin) marker")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let table = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = KeyTable.markdown()
        if table != expected {
            let environment = ProcessInfo.processInfo.environment
            if environment["HERALD_RECORD_SNAPSHOTS"] == "1" && environment["CI"] == nil {
                let updated = text.replacingCharacters(
                    in: start.upperBound..<stop.lowerBound, with: "\n" + expected + "\n")
                try updated.write(to: Self.readme, atomically: true, encoding: .utf8)
            }
            Issue.record("README.md's key table differs from the action table; it should read:\n\(expected)")
        }
    }

    @Test("every row of the key table has three cells: the | key (newsboat's pipe-to) is escaped")
    func markdownCells() {
        let table = KeyTable.markdown()
        for line in table.split(separator: "\n") {
            var bars = 0
            var previous: Character = " "
            for character in line {
                if character == "|" && previous != "\\" { bars += 1 }
                previous = character
            }
            #expect(bars == 4, "\(line)")
        }
        #expect(table.contains("| `\\|` | pipe the article"), "\(table)")
    }

    @Test("no key does two things on one screen")
    func unique() {
        for screen in ScreenKind.allCases {
            var seen: [Key: Action] = [:]
            for binding in ActionTable.bindings where binding.screens.contains(screen) {
                for key in binding.keys {
                    #expect(seen[key] == nil || seen[key] == binding.action, "\(key.label) on \(screen)")
                    seen[key] = binding.action
                }
            }
        }
    }

    @Test(
        "every action has a key, every screen's hint line shows ?:help (but the search prompt, where ? is text)"
    )
    func complete() {
        for action in Action.allCases {
            #expect(ActionTable.bindings.contains { $0.action == action }, "\(action) has no key")
        }
        for screen in ScreenKind.allCases where screen != .search {
            #expect(
                ActionTable.hint(for: screen).contains("?:help"),
                "\(screen): \(ActionTable.hint(for: screen))")
            #expect(ActionTable.action(for: .character("?"), on: screen) == .help || screen == .search)
        }
    }

    @Test(
        "keys are looked up per screen: q quits the feed list and goes back elsewhere, Space reads on in an article"
    )
    func lookup() {
        #expect(ActionTable.action(for: .character("q"), on: .feeds) == .quit)
        #expect(ActionTable.action(for: .character("q"), on: .article) == .back)
        #expect(ActionTable.action(for: .character(" "), on: .article) == .readOn)
        #expect(ActionTable.action(for: .character(" "), on: .articles) == .pageDown)
        #expect(ActionTable.action(for: .character("J"), on: .article) == .nextArticle)
        #expect(ActionTable.action(for: .character("J"), on: .articles) == .down)
        #expect(ActionTable.action(for: .character("j"), on: .articles) == .nextFeed)
        #expect(ActionTable.action(for: .character("j"), on: .feeds) == .down)
        #expect(ActionTable.action(for: .character("u"), on: .article) == .showLinks)
        #expect(ActionTable.action(for: .character("U"), on: .feeds) == .undo)
        #expect(ActionTable.action(for: .character("s"), on: .articles) == .save)
        #expect(ActionTable.action(for: .character("*"), on: .articles) == .toggleStar)
        #expect(ActionTable.action(for: .character("l"), on: .feeds) == .toggleShowRead)
        #expect(ActionTable.action(for: .character("1"), on: .article) == nil, "a digit is not a binding")
        #expect(ActionTable.action(for: .character("x"), on: .feeds) == nil)
    }
}
