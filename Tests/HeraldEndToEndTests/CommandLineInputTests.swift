import Foundation
import Testing

/// Files named on the command line, whatever they turn out to be: a directory, a FIFO,
/// standard input, a device that never ends.
@Suite("Files given to parse and import", .serialized)
struct CommandLineInputTests {
    typealias Library = CommandLineTests.Library

    static let feed = #"{"version": "https://jsonfeed.org/version/1.1", "title": "Piped", "items": []}"#

    @Test("parse - reads the feed from standard input")
    func standardInput() throws {
        let library = Library()
        defer { library.cleanUp() }
        let binary = try HeraldUnderTest.binary()
        let result = try Spawn.run(
            ["/bin/sh", "-c", "printf '%s' \"$FEED\" | \"$HERALD\" parse -"],
            environment: ProcessInfo.processInfo.environment.merging(
                ["FEED": Self.feed, "HERALD": binary.path]) { $1 }, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("Piped"), "\(result.output)")
    }

    @Test("parse reads a FIFO as it flows, and says a directory is a directory")
    func fifoAndDirectory() throws {
        let library = Library()
        defer { library.cleanUp() }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let fifo = library.directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let binary = try HeraldUnderTest.binary()
        let result = try Spawn.run(
            ["/bin/sh", "-c", "\"$HERALD\" parse \"$FIFO\" & printf '%s' \"$FEED\" > \"$FIFO\"; wait $!"],
            environment: ProcessInfo.processInfo.environment.merging(
                ["FEED": Self.feed, "HERALD": binary.path, "FIFO": fifo]) { $1 }, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("Piped"), "\(result.output)")
        let directory = try library.run(["parse", library.directory.path])
        #expect(directory.exitStatus == 1)
        #expect(directory.errors.contains("is a directory"), "\(directory.errors)")
    }

    @Test("import of a device that never ends stops at the size cap and says so")
    func endlessDevice() throws {
        let library = Library()
        defer { library.cleanUp() }
        let result = try library.run(["import", "/dev/zero"])
        #expect(result.exitStatus == 2)
        #expect(result.errors.contains("larger than 16 MB"), "\(result.errors)")
    }
}
