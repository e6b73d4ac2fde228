import Foundation
import Testing

/// A library that cannot be written (issue 23, item 7): on a read-only mount, or with its file
/// and directory `chmod a-w`. Reading commands and the reader read it; writing commands say
/// why they cannot write it.
@Suite("A library that cannot be written", .serialized)
struct ReadOnlyLibraryTests {
    typealias Library = CommandLineTests.Library
    typealias Demo = CommandLineTests.Demo

    /// Makes `library`'s file and directory read only for the commands run through
    /// `wrapper`. Root writes whatever the permissions say, so as root the directory is
    /// mounted read only in a mount namespace of the command's own (`unshare -m`: a read-only
    /// mount, as a user has one) or, where this machine allows no such mount, the command
    /// runs as `nobody` on the `chmod a-w` files; anyone else meets `chmod a-w` as it is.
    struct ReadOnlyLibrary {
        let library: Library
        let wrapper: [String]

        init(_ library: Library) throws {
            self.library = library
            let directory = library.directory.appendingPathComponent("lib").path
            for path in [library.path, directory] {
                try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: path)
            }
            if getuid() != 0 {
                wrapper = []
            } else if try Spawn.run(
                ["unshare", "-m", "true"], environment: ProcessInfo.processInfo.environment, timeout: 10
            ).exitStatus == 0 {
                wrapper = [
                    "unshare", "-m", "sh", "-c",
                    #"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@""#,
                    "sh", directory,
                ]
            } else {
                wrapper = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            }
        }

        func run(_ arguments: [String]) throws -> Spawn.Result {
            try library.run(arguments, wrapper: wrapper)
        }

        /// The file and directory writable again.
        func makeWritable() {
            let directory = library.directory.appendingPathComponent("lib").path
            for path in [directory, library.path] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
        }

        func cleanUp() {
            makeWritable()
            library.cleanUp()
        }
    }

    @Test("list, search and tags read it; add, remove, reload and import say why they cannot write it")
    func commands() throws {
        let library = Library()
        #expect(try library.jsonLines(["list"]).count == Demo.articles)
        let readOnly = try ReadOnlyLibrary(library)
        defer { readOnly.cleanUp() }

        let listed = try readOnly.run(["list", "--json"])
        #expect(listed.exitStatus == 0, "\(listed.errors)")
        #expect(listed.output.split(separator: "\n").count == Demo.articles)
        let found = try readOnly.run(["search", "떡볶이"])
        #expect(found.exitStatus == 0 && found.output.contains("떡볶이"), "\(found.errors)")
        let tags = try readOnly.run(["tags"])
        #expect(tags.exitStatus == 0, "\(tags.errors)")

        let opml = try library.write("https://example.org/feed.xml\n", to: "urls")
        for (command, name) in [
            (["add", "https://example.org/new.xml"], "herald add"),
            (["remove", Demo.hangul], "herald remove"),
            (["reload"], "herald reload"), (["import", opml.path], "herald import"),
        ] {
            let result = try readOnly.run(command)
            #expect(result.exitStatus == 1, "\(command): \(result.output)")
            #expect(
                result.errors.contains("the library \(library.path) cannot be written: ")
                    && result.errors.contains("\(name) needs to write it"),
                "\(command): \(result.errors)")
        }
        readOnly.makeWritable()
        #expect(try library.sqlite("SELECT count(*) FROM feeds") == "4", "nothing was changed")
    }

    @Test(
        "the reader opens it, says it is read only, and a star that cannot be saved is undone with the reason"
    )
    func reader() async throws {
        let library = Library()
        #expect(try library.jsonLines(["list"]).count == Demo.articles)
        let readOnly = try ReadOnlyLibrary(library)
        defer { readOnly.cleanUp() }
        let session = try await library.openReader(wrapper: readOnly.wrapper)
        defer { session.kill() }
        try await session.waitUntil(contains: "Read only: the library cannot be written")
        try session.sendKeys("Enter")
        try await session.waitUntil("the first feed's articles") { screen in
            screen.contains { $0.contains("articles ·") }
        }
        try session.sendKeys("*")
        try await session.waitUntil(contains: "Could not save the star (undone)")
        try session.sendKeys("q", "q")
        #expect(try await session.waitForExitStatus() == 0)
    }
}
