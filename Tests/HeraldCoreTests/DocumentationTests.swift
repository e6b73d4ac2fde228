import Foundation
import Testing

/// The README and `docs/` against the repository: the README stays short, its dependency list
/// is the Makefile's, every module is in the architecture page, every link lands, and every
/// page's contents lists its sections.
@Suite("The README and docs/")
struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// README.md and every page of docs/.
    func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// The lines of a Markdown text outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inside.toggle()
                return false
            }
            return !inside
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` removed,
    /// spaces made `-`.
    static func anchor(_ heading: some StringProtocol) -> String {
        String(
            heading.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            }.map { $0 == " " ? "-" : Character($0) })
    }

    static func headings(_ text: String) -> [(level: Int, title: Substring)] {
        prose(text).compactMap { line in
            let hashes = line.prefix { $0 == "#" }.count
            guard hashes > 0, line.dropFirst(hashes).first == " " else { return nil }
            return (hashes, line.dropFirst(hashes + 1))
        }
    }

    @Test("the README is at most 350 lines, and its contents come before the keys")
    func readmeIsShort() throws {
        let readme = try text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 350, "README.md has \(lines) lines")
        let contents = try #require(readme.range(of: "\n## Contents\n"))
        let keys = try #require(readme.range(of: "\n## Keys\n"))
        #expect(contents.lowerBound < keys.lowerBound)
        for section in ["Install and run", "Keys", "The config file in brief", "Moving over from newsboat"] {
            #expect(readme.contains("- [\(section)](#\(Self.anchor(section)))"), "no \(section) in the contents")
        }
    }

    /// The Debian packages of a Makefile variable (`path:package` pairs, continued lines).
    func packages(_ variable: String, in makefile: String) throws -> Set<String> {
        let lines = makefile.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.split(separator: " ").first.map(String.init) == variable })
        var words: [Substring] = []
        for line in lines[start...] {
            words += line.split(separator: " ").filter { $0 != "\\" && $0 != variable && $0 != ":=" }
            if !line.hasSuffix("\\") { break }
        }
        return Set(words.compactMap { $0.split(separator: ":").last.map(String.init) })
    }

    @Test("the README's dependency list is the Makefile's, for building and for the tests")
    func dependencies() throws {
        let makefile = try text("Makefile")
        let readme = try text("README.md")
        let begin = try #require(readme.range(of: "<!-- deps:begin"))
        let end = try #require(readme.range(of: "<!-- deps:end -->"))
        var rows: [String: Set<String>] = [:]
        for line in readme[begin.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            rows[cells[0]] = Set(cells[1].split(separator: " ").map { $0.trimmingCharacters(in: ["`"]) })
        }
        let build = try packages("DEPS_BUILD", in: makefile)
        let tests = try packages("DEPS_TEST", in: makefile)
        #expect(build.contains("libsqlite3-dev") && tests.contains("tmux"), "the Makefile was not read")
        #expect(rows["building and running"] == build)
        #expect(rows["the tests"] == tests)
    }

    @Test("every module in Sources/ is in the architecture page's list")
    func modules() throws {
        let architecture = try text("docs/ARCHITECTURE.md")
        let section = try #require(architecture.range(of: "\n## Modules\n"))
        let rest = architecture[section.upperBound...]
        let list = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let modules = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(modules.count >= 10)
        for module in modules {
            let named = list.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains { $0 == module }
            #expect(named, "docs/ARCHITECTURE.md does not name \(module)")
        }
    }

    @Test("every link between the pages lands on a file, and on a heading of it")
    func links() throws {
        let pages = try pages()
        #expect(pages.count >= 8)
        let linkPattern = /\]\(([^)\s]+)\)/
        for page in pages {
            let here = Self.root.appendingPathComponent(page)
            for line in Self.prose(try text(page)) {
                for match in line.matches(of: linkPattern) {
                    let target = String(match.output.1)
                    if target.hasPrefix("http://") || target.hasPrefix("https://") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let file =
                        parts[0].isEmpty
                        ? here : here.deletingLastPathComponent().appendingPathComponent(String(parts[0])).standardized
                    #expect(FileManager.default.fileExists(atPath: file.path), "\(page): \(target) is no file")
                    guard parts.count == 2, let linked = try? String(contentsOf: file, encoding: .utf8) else { continue }
                    let anchors = Self.headings(linked).map { Self.anchor($0.title) }
                    #expect(anchors.contains(String(parts[1])), "\(page): \(target) is no heading of \(file.lastPathComponent)")
                }
            }
        }
    }

    @Test("every page's contents lists each of its sections")
    func contents() throws {
        for page in try pages() {
            let text = try text(page)
            let headings = Self.headings(text).filter { $0.level == 2 && $0.title != "Contents" }
            #expect(!headings.isEmpty, "\(page) has no sections")
            for heading in headings {
                #expect(text.contains("](#\(Self.anchor(heading.title)))"), "\(page): \(heading.title) is not in its contents")
            }
        }
    }
}
