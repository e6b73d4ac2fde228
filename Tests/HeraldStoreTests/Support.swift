import Foundation
import HeraldCore

@testable import HeraldStore

/// A fresh library file in a temporary directory, removed by `cleanUp()`.
struct TemporaryLibrary {
    let directory: URL
    var path: String { directory.appendingPathComponent("herald.db").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }

    /// The library opened with one feed, `url` titled "A", to store articles under.
    func open(withFeed url: String) async throws -> LibraryStore {
        let store = try await LibraryStore.open(path: path)
        try await store.upsertFeed(url: url, title: "A", siteURL: nil)
        return store
    }
}

func item(_ id: String, _ title: String, _ text: String = "", author: String? = nil, day: Int = 0)
    -> ParsedItem
{
    ParsedItem(
        id: id, title: title, link: "https://example.org/\(id)", author: author,
        published: Date(timeIntervalSince1970: 1_790_000_000 + Double(day) * 86_400), text: text)
}

extension LibraryStore {
    /// Every feed's address by its id: tests name feeds by address, rows carry ids.
    func feedURLsByID() throws -> [FeedID: String] {
        Dictionary(try feedSummaries().map { ($0.id, $0.feed.url) }, uniquingKeysWith: { first, _ in first })
    }
}
