import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// The search screen over the bundled demo feeds, through a whole headless session (the
/// immediate clock: each key's search has run before the next key).
@Suite("Search snapshots")
@MainActor
struct SearchSnapshotTests {
    let size = Size(width: 80, height: 24)
    let theme = Theme(timeZone: TimeZone(identifier: "UTC")!)

    func screen(_ keys: String) async throws -> Canvas {
        let repository = try await DemoLibrary.load()
        let parsed = try Key.parseScript(keys).get()
        return await HeadlessSession.run(repository: repository, size: size, keys: parsed, theme: theme)
    }

    @Test("results for an English word")
    func english() async throws {
        assertSnapshot(try await screen("/ t i d e"), named: "search-tide")
    }

    @Test("a query with no results")
    func noResults() async throws {
        assertSnapshot(try await screen("/ x y z z y"), named: "search-no-results")
    }

    @Test("Korean results")
    func korean() async throws {
        assertSnapshot(try await screen("/ 한 글"), named: "search-korean")
    }

    @Test("a result opened and closed again: the results keep the query, the selection and the read mark")
    func openedAndBack() async throws {
        assertSnapshot(try await screen("/ t i d e down enter esc"), named: "search-opened-and-back")
    }

    @Test("Esc returns to the article list where / was pressed")
    func escapeBack() async throws {
        assertSnapshot(try await screen("j enter J J / t i d e esc"), named: "search-escape-back")
    }
}
