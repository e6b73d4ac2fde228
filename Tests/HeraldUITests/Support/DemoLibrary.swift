import Foundation
import HeraldCore

/// The bundled demo feeds, read from the source tree.
enum DemoLibrary {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/demo")

    static func load() async throws -> InMemoryArticleRepository {
        try await FeedDirectory.load(directory)
    }
}
