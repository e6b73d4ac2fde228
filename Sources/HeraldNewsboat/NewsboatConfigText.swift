import HeraldCore
import Foundation

/// newsboat's `config` as newsboat reads it: its lines, with each `include FILE` line
/// replaced by the lines of FILE (`~` expanded, a relative path taken from the directory of
/// the file that includes it), and each line knowing where it was (`config line 3`,
/// `/home/me/.newsboat/colours:7`) for the report.
///
/// An include that cannot be followed (no such file, unreadable, a cycle, too deep) is not
/// followed and is listed in `problems` with its place: a cycle is found before the file is
/// read again, so nothing loops.
public struct NewsboatConfigText: Sendable {
    /// One line of the config or of a file it includes.
    public struct Line: Sendable, Equatable {
        public var text: String
        /// `config line N` in the config itself, `PATH:N` in an included file.
        public var place: String
    }

    /// An `include` line that was not followed, and why.
    public struct Problem: Sendable, Equatable {
        public var place: String
        public var text: String
        public var reason: String
    }

    public var lines: [Line] = []
    public var problems: [Problem] = []
    /// The files included, in the order they were read.
    public var included: [String] = []

    /// Includes nested deeper than this are not followed (newsboat's own setups nest one
    /// or two: a colour scheme, a file of keys).
    public static let maximumDepth = 16
    /// Files read in all, the config included: past it, includes are not followed.
    public static let maximumFiles = 64

    /// The lines of the config at `path` and of what it includes, with `read` reading each
    /// file (nil: no such file; it may throw: an unreadable one). Nil when the config
    /// itself is not there.
    public static func read(
        config path: String, environment: [String: String], read: (String) throws -> String?
    ) throws -> NewsboatConfigText? {
        guard let text = try read(path) else { return nil }
        var result = NewsboatConfigText()
        var stack = [canonical(path)]
        result.add(text, file: path, isMain: true, stack: &stack, environment: environment, read: read)
        return result
    }

    /// The lines of one text, read as a config without includes (tests, and a config
    /// given as text).
    public init(text: String) {
        add(text, file: "config", isMain: true, stack: [], environment: [:]) { _ in nil }
    }

    init() {}

    private mutating func add(
        _ text: String, file: String, isMain: Bool, stack: [String], environment: [String: String],
        read: (String) throws -> String?
    ) {
        var stack = stack
        add(text, file: file, isMain: isMain, stack: &stack, environment: environment, read: read)
    }

    private mutating func add(
        _ text: String, file: String, isMain: Bool, stack: inout [String], environment: [String: String],
        read: (String) throws -> String?
    ) {
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            let place = isMain ? "config line \(index + 1)" : "\(TextSanitizer.singleLine(file)):\(index + 1)"
            guard let words = NewsboatConfig.words(String(raw)), words.first == "include" else {
                lines.append(Line(text: String(raw), place: place))
                continue
            }
            let shown = TextSanitizer.singleLine(String(raw)).trimmingCharacters(in: .whitespaces)
            func refuse(_ reason: String) {
                problems.append(Problem(place: place, text: shown, reason: reason))
            }
            guard words.count == 2 else {
                refuse("include takes one file")
                continue
            }
            let target = Self.resolve(words[1], from: file, environment: environment)
            let key = Self.canonical(target)
            if stack.contains(key) {
                refuse(
                    "an include cycle: \(TextSanitizer.singleLine(target)) is already being read; not followed again"
                )
                continue
            }
            guard stack.count < Self.maximumDepth else {
                refuse("includes nested deeper than \(Self.maximumDepth): not followed")
                continue
            }
            guard included.count + 1 < Self.maximumFiles else {
                refuse("more than \(Self.maximumFiles) files: not followed")
                continue
            }
            let text: String?
            do {
                text = try read(target)
            } catch {
                refuse("cannot read \(TextSanitizer.singleLine(target)): \(error)")
                continue
            }
            guard let text else {
                refuse("no such file: \(TextSanitizer.singleLine(target))")
                continue
            }
            included.append(target)
            stack.append(key)
            add(text, file: target, isMain: false, stack: &stack, environment: environment, read: read)
            stack.removeLast()
        }
    }

    /// The last `cache-file PATH` line, if any: where newsboat keeps its cache.
    public var cacheFile: (path: String, place: String)? {
        for line in lines.reversed() {
            guard let words = NewsboatConfig.words(line.text), words.first == "cache-file", words.count >= 2
            else { continue }
            return (words[1], line.place)
        }
        return nil
    }

    /// `~` from HOME; a relative path from the including file's directory.
    static func resolve(_ path: String, from file: String, environment: [String: String]) -> String {
        if path == "~" || path.hasPrefix("~/") { return NewsboatSetup.home(environment) + path.dropFirst() }
        if path.hasPrefix("/") { return path }
        return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).path
    }

    /// One name for one file, however it is reached (`..`, a symbolic link).
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
