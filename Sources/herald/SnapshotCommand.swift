import Foundation
import HeraldCore
import HeraldUI

/// `herald snapshot`: runs the reader headlessly with scripted keys and prints the screen.
///
/// It uses the same app, views, frame diff and surface protocol as the terminal, with a
/// headless surface in place of ncurses, and waits for every load to settle after each key.
enum SnapshotCommand {
    @MainActor
    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        var size = Size(width: 80, height: 24)
        var keys: [Key] = []
        var index = 0
        func value() throws -> String {
            guard index + 1 < arguments.count else {
                throw UsageError("\(arguments[index]) needs a value")
            }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--size":
                size = try parseSize(try value())
            case "--keys":
                switch Key.parseScript(try value()) {
                case .success(let parsed): keys = parsed
                case .failure(let error): throw UsageError(error.description)
                }
            default:
                throw UsageError("snapshot: unknown option '\(arguments[index])'")
            }
            index += 1
        }
        let repository = try await options.loadRepository()
        let screen = await render(repository: repository, size: size, keys: keys, theme: Theme())
        print(screen)
    }

    /// The screen after `keys`, as text with trailing spaces trimmed from each row.
    @MainActor
    static func render(
        repository: any ArticleRepository, size: Size, keys: [Key], theme: Theme
    ) async -> String {
        let surface = HeadlessSurface(size: size)
        let renderer = FrameRenderer(surface: surface)
        let app = ReaderApp(repository: repository, size: size, theme: theme)
        app.start()
        await app.settle()
        renderer.draw(app.render())
        for key in keys where !app.isFinished {
            app.handle(key)
            await app.settle()
            renderer.draw(app.render())
        }
        return surface.screen.text().split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
            .joined(separator: "\n")
    }

    static func parseSize(_ text: String) throws -> Size {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (10...1000).contains(width), (3...1000).contains(height)
        else { throw UsageError("--size wants WIDTHxHEIGHT, e.g. 80x24 (width 10-1000, height 3-1000)") }
        return Size(width: width, height: height)
    }
}
