import Foundation
import Testing

@testable import HeraldConfig

/// `include FILE`: files read through the reader the caller gives (a dictionary here),
/// relative to the including file, with their own names and lines in diagnostics.
@Suite("Config include")
struct ConfigIncludeTests {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "no such file" }
    }

    /// A config at /c/config reading files from `files`; the paths read, in order.
    func parse(_ text: String, _ files: [String: String], file: String = "/c/config") -> (
        ReaderConfig, [String]
    ) {
        var read: [String] = []
        let config = ConfigFile.parse(text, file: file) { path in
            read.append(path)
            guard let text = files[path] else { throw Missing() }
            return text
        }
        return (config, read)
    }

    @Test(
        "an included file's lines count where the include stands; its path is from the including file's folder"
    )
    func relative() {
        let (config, read) = parse(
            "set reload-jobs 5\ninclude colours\nset mouse no",
            [
                "/c/colours": "color header red blue\ninclude themes/../more\n",
                "/c/more": "set reload-jobs 9",
            ])
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(read == ["/c/colours", "/c/more"])
        #expect(config.colors["header"] == Style(foreground: .red, background: .blue))
        #expect(config.settings.reloadJobs == 9, "the included line comes after line 1")
        #expect(!config.settings.mouse)
        #expect(config.files == ["/c/config", "/c/colours", "/c/more"])
    }

    @Test(
        "a mistake in an included file names that file and its line; a missing file is a mistake at the include"
    )
    func diagnostics() {
        let (config, _) = parse(
            "include a\ninclude \"no such\"",
            ["/c/a": "\n\nbind x nxt-unread"])
        #expect(
            config.diagnostics.map(\.description) == [
                "/c/a:3:8: unknown action `nxt-unread` — did you mean `next-unread`?",
                "/c/config:2:9: cannot read `/c/no such`: no such file",
            ])
    }

    @Test("a cycle is refused at the include that closes it, naming the files in it")
    func cycle() {
        let (config, read) = parse(
            "include a\nset mouse no",
            ["/c/a": "include b", "/c/b": "# b\ninclude ../c/a\ninclude /c/config"])
        #expect(read == ["/c/a", "/c/b"])
        #expect(
            config.diagnostics.map(\.description) == [
                "/c/b:2:9: `../c/a` is already being read (/c/a → /c/b → /c/a): a cycle; the line is ignored",
                "/c/b:3:9: `/c/config` is already being read (/c/config → /c/a → /c/b → /c/config): a cycle; the line is ignored",
            ])
        #expect(!config.settings.mouse, "the rest of the file still counts")
    }

    @Test("the same file included twice is read twice (not a cycle); a tree of includes is bounded")
    func bounded() {
        let (twice, _) = parse("include a\ninclude a", ["/c/a": "set reload-jobs 3"])
        #expect(twice.diagnostics.isEmpty)
        var files: [String: String] = [:]
        for level in 0..<10 { files["/c/\(level)"] = "include \(level + 1)\ninclude \(level + 1)" }
        files["/c/10"] = ""
        let (tree, read) = parse("include 0", files)
        #expect(read.count == ConfigFile.includedFilesLimit)
        #expect(tree.diagnostics.first?.message.contains("more than 64 files") == true, "\(tree.diagnostics)")
    }

    @Test("~ is the home; include takes one file; without a reader (text alone) include is a mistake")
    func forms() {
        let (home, read) = parse("include ~/h", [NSHomeDirectory() + "/h": "set mouse no"])
        #expect(home.diagnostics.isEmpty && read == [NSHomeDirectory() + "/h"])
        #expect(
            ConfigFile.parse("include a b", file: "c").diagnostics.map(\.description) == [
                "c:1:11: include takes one file: include FILE (quote a path with spaces)"
            ])
        #expect(
            ConfigFile.parse("include a", file: "c").diagnostics.first?.message.hasPrefix(
                "include reads files only in a config read from disk") == true)
    }
}
