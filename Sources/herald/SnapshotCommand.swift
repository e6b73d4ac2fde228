import Foundation
import HeraldCore
import HeraldConfig
import HeraldUI

/// `herald snapshot`: runs the reader headlessly with scripted keys and prints the screen.
///
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
        let config = try options.loadConfig()
        let repository = try await options.openRepository()
        let screen = await HeadlessSession.run(repository: repository, size: size, keys: keys, config: config)
        print(screen.trimmedText())
    }

    static func parseSize(_ text: String) throws -> Size {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (10...1000).contains(width), (3...1000).contains(height)
        else { throw UsageError("--size wants WIDTHxHEIGHT, e.g. 80x24 (width 10-1000, height 3-1000)") }
        return Size(width: width, height: height)
    }
}
