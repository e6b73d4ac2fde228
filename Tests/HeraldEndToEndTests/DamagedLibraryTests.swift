import Foundation
import HeraldTestSupport
import Testing

/// A damaged or unwritable library is said to be so, in words, and nothing more is written.
@Suite("A damaged or read-only library", .serialized)
struct DamagedLibraryTests {
    typealias Library = CommandLineTests.Library

    @Test("reload into a damaged library stops, exits 1, says what to do, and writes nothing")
    func damagedReload() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        #expect(try library.run(["add", server.url("/feed").absoluteString]).exitStatus == 0)
        // Everything after the first two pages (the header and the schema) becomes noise.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: library.path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 32_768)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 32_768))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: library.path))

        let reload = try library.run(["reload"])
        #expect(reload.exitStatus == 1, "\(reload.output)")
        #expect(reload.errors.contains("the library file is damaged"), "\(reload.errors)")
        #expect(reload.errors.contains("Restore a copy of \(library.path)"), "\(reload.errors)")
        #expect(!reload.errors.contains("(in:"), "no SQL in the message: \(reload.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library.path)) == before)
        let wal =
            (try? FileManager.default.attributesOfItem(atPath: library.path + "-wal")[.size] as? Int) ?? 0
        #expect(wal == 0, "nothing went to the write-ahead log either")
    }
}
