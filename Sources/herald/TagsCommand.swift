import Foundation
import HeraldCore
import HeraldStore

/// `herald tags [--json]`: every feed tag with its counts, sorted by name.
enum TagsCommand {
    struct Row: Encodable {
        var tag: String
        var feeds: Int
        var total: Int
        var unread: Int
    }

    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        var json = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--json": json = true
            default: throw UsageError("tags: unknown option '\(argument)'")
            }
        }
        let store = try await options.openLibrary(importingDemo: true)
        let tags = try await store.tagSummaries()
        guard !tags.isEmpty else {
            FileHandle.standardError.write(Data("no tags yet: herald add URL --tag T\n".utf8))
            return
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for tag in tags {
                let row = Row(tag: tag.name, feeds: tag.feeds, total: tag.total, unread: tag.unread)
                print(JSONText.safe(String(decoding: try encoder.encode(row), as: UTF8.self)))
            }
            return
        }
        let names = tags.map { TextSanitizer.singleLine($0.name) }
        let width = names.map { DisplayWidth.of($0) }.max() ?? 0
        for (tag, name) in zip(tags, names) {
            let pad = String(repeating: " ", count: width - DisplayWidth.of(name))
            Console.say(
                "\(name)\(pad)  (\(tag.unread)/\(tag.total))  \(tag.feeds) \(tag.feeds == 1 ? "feed" : "feeds")"
            )
        }
    }
}
