import Foundation
import HeraldCore
import HeraldStore

/// A command line the user must fix.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Options every command takes.
struct GlobalOptions {
    /// The library file: `--db PATH`, else `HERALD_DB`, else the XDG data directory.
    var databasePath: String?
    /// A directory of feed files to read instead of the library (nothing is stored).
    var feedsDirectory: URL?
    /// The config file named by `--config`.
    var configPath: String?

    /// Takes the global options out of `arguments`, leaving the command and its own options.
    static func parse(_ arguments: inout [String]) throws -> GlobalOptions {
        var options = GlobalOptions()
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--feeds", "--db", "--config":
                guard index + 1 < arguments.count else { throw UsageError("\(argument) needs a value") }
                options.set(argument, arguments[index + 1])
                index += 2
            case _
            where argument.hasPrefix("--feeds=") || argument.hasPrefix("--db=")
                || argument.hasPrefix("--config="):
                let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                options.set(parts[0], parts[1])
                index += 1
            default:
                rest.append(argument)
                index += 1
            }
        }
        arguments = rest
        return options
    }

    private mutating func set(_ option: String, _ value: String) {
        if option == "--config" {
            configPath = value
        } else if option == "--db" {
            databasePath = value
        } else {
            feedsDirectory = URL(fileURLWithPath: value)
        }
    }

    /// Where the library lives.
    func libraryPath() -> String { explicitLibraryPath() ?? defaultLibraryPath() }

    /// The library named by `--db` or `HERALD_DB`, if one is.
    func explicitLibraryPath() -> String? {
        if let databasePath { return databasePath }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["HERALD_DB"], !path.isEmpty { return path }
        return nil
    }

    /// `$XDG_DATA_HOME/herald/herald.db`, else `~/.local/share/herald/herald.db`.
    func defaultLibraryPath() -> String {
        let environment = ProcessInfo.processInfo.environment
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share")
        return data + "/herald/herald.db"
    }

    /// The articles to read: the files of `--feeds DIR`, else the library — which, on a
    /// first run with nothing in it, is filled with the bundled demo feeds.
    func openRepository() async throws -> any ArticleRepository {
        if let feedsDirectory { return try await Self.readDirectory(feedsDirectory) }
        return try await openLibrary(importingDemo: true)
    }

    /// The library, opened (and migrated) on the database actor. `writing`: the command
    /// that is to change it (`herald add`), which a library that cannot be written refuses
    /// at once with the reason (`LibraryReadOnlyError`); without it, a library that cannot be
    /// written is opened read only for reading, as it is.
    func openLibrary(importingDemo: Bool, writing: String? = nil) async throws -> LibraryStore {
        // Only the default place is created: a --db in a directory that is not there is a
        // typo more often than a wish, and would quietly become a new library of demo feeds.
        if let path = explicitLibraryPath() {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw UsageError(
                    "no directory \(directory) for the library \(path): create it first "
                        + "(only the default, \(defaultLibraryPath()), is created for you)")
            }
        }
        let store = try await LibraryStore.open(path: libraryPath()) { from, to in
            FileHandle.standardError.write(
                Data(
                    "herald: upgrading the library (schema \(from) to \(to)), once; a large one takes minutes (about 5 per million articles)\n"
                        .utf8))
        }
        if let reason = store.access.reason {
            if let writing { throw LibraryReadOnlyError(path: libraryPath(), reason: reason, what: writing) }
            // Read as it is: the demo feeds, the config's feed settings and filters are
            // not written into it.
            return store
        }
        // A library that reads through a server account starts with the account's feeds.
        let account = ((try? loadConfig())?.settings.account.source ?? "local") != "local"
        if importingDemo, !account, await store.isNew {
            let demo = try await Self.readDirectory(try DemoFeeds.directory())
            try await store.importFeeds(await demo.contents(), demo: true)
        }
        if let config = try? loadConfig() {
            // The config file's `feed` lines, copied in (they win over `herald feed set`).
            try await store.syncConfigFeedSettings(config.feedSettings)
            // Its filters: a reload applies them, and the hide filters hide (or show again)
            // stored articles now when they changed, so every command shows what they leave.
            try await store.setReloadFilters(config.filters)
        }
        return store
    }

    static func readDirectory(_ directory: URL) async throws -> InMemoryArticleRepository {
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
