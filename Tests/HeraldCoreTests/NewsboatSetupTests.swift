import Foundation
import Testing

@testable import HeraldNewsboat

/// Where newsboat's files are found (any subset of them), newsboat's own options over that,
/// its config's `cache-file`, and its `include` lines.
@Suite("newsboat's files: found, named, included")
struct NewsboatSetupTests {
    @Test("the XDG layout is taken with its config directory alone (urls only), or its data directory alone")
    func partialXDG() {
        let environment = ["HOME": "/h"]
        let configOnly = NewsboatSetup.locate(directory: nil, environment: environment) {
            $0 == "/h/.config/newsboat"
        }
        #expect(configOnly.urls == "/h/.config/newsboat/urls")
        #expect(configOnly.cache == "/h/.local/share/newsboat/cache.db")
        #expect(configOnly.chosen.cache == "XDG data directory")
        let cacheOnly = NewsboatSetup.locate(directory: nil, environment: environment) {
            $0 == "/h/.local/share/newsboat"
        }
        #expect(cacheOnly.cache == "/h/.local/share/newsboat/cache.db")
        #expect(cacheOnly.config == "/h/.config/newsboat/config")
        let dotdir = NewsboatSetup.locate(directory: nil, environment: environment) {
            ["/h/.newsboat", "/h/.config/newsboat"].contains($0)
        }
        #expect(dotdir.cache == "/h/.newsboat/cache.db" && dotdir.chosen.urls == "~/.newsboat")
    }

    @Test(
        "-u, -c and -C name one file each over what was found; ~ is HOME, a relative path the working directory"
    )
    func options() {
        let environment = ["HOME": "/h"]
        let found = NewsboatSetup.locate(directory: "/d", environment: environment)
        let named = found.overriding(urls: "~/u", cache: "c.db", config: nil, environment: environment)
        #expect(named.urls == "/h/u" && named.chosen.urls == "-u")
        #expect(
            named.cache == FileManager.default.currentDirectoryPath + "/c.db" && named.chosen.cache == "-c")
        #expect(named.config == "/d/config" && named.chosen.config == "the directory named")
    }

    @Test("the config's last cache-file line names the cache, with its place")
    func cacheFile() throws {
        let text = NewsboatConfigText(
            text: "cache-file /x/one.db\n# cache-file /no\ncache-file \"~/two.db\"\n")
        let named = try #require(text.cacheFile)
        #expect(named.path == "~/two.db" && named.place == "config line 3")
        let setup = NewsboatSetup(urls: "u", config: "c", cache: "k")
            .followingCacheFile(named.path, at: named.place, environment: ["HOME": "/h"])
        #expect(setup.cache == "/h/two.db" && setup.chosen.cache == "cache-file, config line 3")
        #expect(NewsboatConfigText(text: "bind-key j down").cacheFile == nil)
        let translated = NewsboatConfig.translate("cache-file /x/one.db\n")
        #expect(translated.skipped.first?.reason.contains("the import reads it there") == true)
    }

    /// Files in a map, read as the import reads them (nil: no such file).
    static func reading(_ files: [String: String]) -> (String) throws -> String? {
        { path in files[URL(fileURLWithPath: path).standardizedFileURL.path] }
    }

    @Test(
        "include lines are followed, relative to the including file and from ~, each line keeping its place")
    func includes() throws {
        let files = [
            "/n/config": "bind-key j down\ninclude keys\ninclude ~/colours\nmacro x open ; delete-article\n",
            "/n/keys": "bind-key k up\ninclude sub/more\n",
            "/n/sub/more": "unbind-key J\n",
            "/h/colours": "color listfocus black yellow\n",
        ]
        let text = try #require(
            try NewsboatConfigText.read(
                config: "/n/config", environment: ["HOME": "/h"], read: Self.reading(files)))
        #expect(text.problems.isEmpty, "\(text.problems)")
        #expect(
            text.lines.filter { !$0.text.isEmpty }.map(\.place) == [
                "config line 1", "/n/keys:1", "/n/sub/more:1", "/h/colours:1", "config line 4",
            ])
        #expect(text.included == ["/n/keys", "/n/sub/more", "/h/colours"])
        let translation = NewsboatConfig.translate(lines: text.lines.map(\.text))
        #expect(translation.lines.contains("bind k up") && translation.lines.contains("unbind J"))
        let macro = try #require(translation.skipped.first { $0.text.hasPrefix("macro") })
        #expect(text.lines[macro.line - 1].place == "config line 4")
    }

    @Test("an include cycle is refused at its line, and nothing is read twice; a missing file is named")
    func cycles() throws {
        var reads: [String: Int] = [:]
        let files = [
            "/n/config": "include a\nbind-key j down\n",
            "/n/a": "include b\n",
            "/n/b": "bind-key k up\ninclude ../n/config\ninclude a\ninclude gone\n",
        ]
        let text = try #require(
            try NewsboatConfigText.read(config: "/n/config", environment: [:]) { path in
                reads[path, default: 0] += 1
                return try Self.reading(files)(path)
            })
        #expect(reads.values.allSatisfy { $0 == 1 }, "\(reads)")
        #expect(text.problems.map(\.place) == ["/n/b:2", "/n/b:3", "/n/b:4"])
        #expect(text.problems[0].reason.hasPrefix("an include cycle: "), "\(text.problems[0])")
        #expect(text.problems[2].reason == "no such file: /n/gone")
        #expect(text.lines.map(\.text).contains("bind-key j down"))
    }

    @Test("a file including itself is refused at once; includes past the depth limit are not followed")
    func selfAndDepth() throws {
        let own = try #require(
            try NewsboatConfigText.read(
                config: "/n/config", environment: [:], read: Self.reading(["/n/config": "include config\n"])))
        #expect(own.problems.map(\.place) == ["config line 1"])
        var chain: [String: String] = ["/n/config": "include f1\n"]
        for level in 1...40 { chain["/n/f\(level)"] = "include f\(level + 1)\n" }
        let deep = try #require(
            try NewsboatConfigText.read(config: "/n/config", environment: [:], read: Self.reading(chain)))
        #expect(deep.included.count == NewsboatConfigText.maximumDepth - 1)
        #expect(deep.problems.count == 1 && deep.problems[0].reason.contains("deeper than"))
    }
}
