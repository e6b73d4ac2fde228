import Foundation

/// podboat's queue file (`queue`, beside newsboat's `cache.db`): a line per episode,
///
///     https://example.com/ep1.mp3 "/home/me/podcasts/ep1.mp3" downloaded
///
/// its address, the file it goes to (quoted, `\"` and `\\` escaped), and `downloaded` or
/// `played` once podboat has it. podboat keeps a partial download as `FILE.part`, as Herald
/// does, so an episode it had half downloaded goes on from there in Herald.
public enum PodboatQueue {
    public struct Entry: Sendable, Equatable {
        public enum Mark: String, Sendable { case downloaded, played }
        public var line: Int
        public var url: String
        /// nil: the line named no file (podboat would put it in its download-path).
        public var path: String?
        public var mark: Mark?
    }

    /// The entries, and the lines that could not be read (line, text, why).
    public static func parse(_ text: String) -> (entries: [Entry], problems: [(line: Int, text: String, reason: String)]) {
        var entries: [Entry] = []
        var problems: [(line: Int, text: String, reason: String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = words(line)
            guard let url = fields.first else { continue }
            var entry = Entry(line: index + 1, url: url, path: fields.dropFirst().first, mark: nil)
            if fields.count >= 3 {
                guard let mark = Entry.Mark(rawValue: fields[2]) else {
                    problems.append((index + 1, line, "unknown state `\(fields[2])` (downloaded or played)"))
                    continue
                }
                entry.mark = mark
            }
            entries.append(entry)
        }
        return (entries, problems)
    }

    /// The line's words: runs of non-spaces, or quoted text with `\` escapes.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var characters = Array(line)[...]
        while let first = characters.first {
            if first.isWhitespace {
                characters = characters.dropFirst()
            } else if first == "\"" {
                characters = characters.dropFirst()
                var word = ""
                while let next = characters.popFirst(), next != "\"" {
                    if next == "\\", let escaped = characters.popFirst() { word.append(escaped) } else { word.append(next) }
                }
                words.append(word)
            } else {
                let end = characters.firstIndex(where: \.isWhitespace) ?? characters.endIndex
                words.append(String(characters[..<end]))
                characters = characters[end...]
            }
        }
        return words
    }
}
