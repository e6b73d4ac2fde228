import Foundation
import HeraldCore

/// A command line the user must fix.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Options every command takes.
struct GlobalOptions {
    /// A directory of feed files to read instead of the bundled demo feeds.
    var feedsDirectory: URL?

    /// Takes the global options out of `arguments`, leaving the command and its own options.
    static func parse(_ arguments: inout [String]) throws -> GlobalOptions {
        var options = GlobalOptions()
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--feeds" {
                guard index + 1 < arguments.count else { throw UsageError("--feeds needs a directory") }
                options.feedsDirectory = URL(fileURLWithPath: arguments[index + 1])
                index += 2
            } else if argument.hasPrefix("--feeds=") {
                options.feedsDirectory = URL(fileURLWithPath: String(argument.dropFirst(8)))
                index += 1
            } else {
                rest.append(argument)
                index += 1
            }
        }
        arguments = rest
        return options
    }

    /// The feeds to read: `--feeds DIR`, else the bundled demo feeds.
    func loadRepository() async throws -> InMemoryArticleRepository {
        let directory = try feedsDirectory ?? DemoFeeds.directory()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw UsageError("no feed directory at \(directory.path)") }
        return try await FeedDirectory.load(directory)
    }
}

/// Where the bundled demo feeds are: beside an installed binary, or in the source tree.
enum DemoFeeds {
    static func directory() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["HERALD_DEMO_DIR"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let bin = executable.deletingLastPathComponent()
        // make install: PREFIX/bin/herald and PREFIX/share/herald/demo
        candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/herald/demo"))
        // the build tree: .build/<triple>/<config>/herald, sources three levels up
        var up = bin
        for _ in 0..<4 {
            candidates.append(up.appendingPathComponent("Resources/demo"))
            up = up.deletingLastPathComponent()
        }
        // where this file was compiled from
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Resources/demo").standardized)
        for candidate in candidates where fileManager.fileExists(atPath: candidate.path) {
            return candidate
        }
        throw UsageError(
            "cannot find the demo feeds (looked in \(candidates.map(\.path).joined(separator: ", "))); "
                + "pass --feeds DIR or set HERALD_DEMO_DIR")
    }
}
