import Foundation
import HeraldUI
import Testing
import HeraldConfig

/// Compares a screen with a golden text file kept next to the tests:
/// `__Snapshots__/<TestFile>/<name>.txt`, a `size=WxH` header then one row per line.
///
/// Goldens are written only when `HERALD_RECORD_SNAPSHOTS=1` asks for it, and never when `CI`
/// is set: there a missing golden is a failure. A mismatch prints a line diff. With
/// `styles`, the golden also holds the style section (`Canvas.styleSection()`).
func assertSnapshot(
    _ canvas: Canvas, named name: String, styles: Bool = false, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual =
        "size=\(canvas.size)\n" + canvas.trimmedText() + "\n" + (styles ? canvas.styleSection() : "")
    let testFile = URL(fileURLWithPath: filePath)
    let directory = testFile.deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    let golden = directory.appendingPathComponent(name + ".txt")
    let environment = ProcessInfo.processInfo.environment
    let recording = environment["HERALD_RECORD_SNAPSHOTS"] == "1" && environment["CI"] == nil

    guard let expected = try? String(contentsOf: golden, encoding: .utf8) else {
        if recording {
            write(actual, to: golden)
            Issue.record(
                "Recorded a new snapshot at \(golden.path); check it by eye and run again.",
                sourceLocation: sourceLocation)
        } else {
            Issue.record(
                "No snapshot at \(golden.path). Record it with HERALD_RECORD_SNAPSHOTS=1 swift test.\n\(actual)",
                sourceLocation: sourceLocation)
        }
        return
    }
    guard expected != actual else { return }
    if recording { write(actual, to: golden) }
    let diff = lineDiff(expected: expected, actual: actual)
    Issue.record(
        "Snapshot \(name) differs\(recording ? " (re-recorded)" : ""):\n\(diff)",
        sourceLocation: sourceLocation)
}

private func write(_ text: String, to file: URL) {
    try? FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? text.write(to: file, atomically: true, encoding: .utf8)
}

/// Rows that differ, as `-` expected and `+` actual, with their row numbers.
func lineDiff(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    for row in 0..<max(old.count, new.count) {
        let a = row < old.count ? String(old[row]) : "<none>"
        let b = row < new.count ? String(new[row]) : "<none>"
        if a != b {
            out.append("row \(row) - |\(a)|")
            out.append("row \(row) + |\(b)|")
        }
    }
    return out.joined(separator: "\n")
}

extension Canvas {
    /// The styles of the screen, for goldens: `styles:` then one line per row with a letter
    /// per cell (`.` plain, `a`, `b`… in order of first use; trailing plain cells left out),
    /// then what each letter is (`a = bold reverse`, `b = fg black bg cyan`).
    func styleSection() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var order: [Style] = []
        var rows: [String] = []
        for y in 0..<size.height {
            var row = ""
            for x in 0..<size.width {
                let style = self[x, y].style
                if style == .plain {
                    row.append(".")
                    continue
                }
                if !order.contains(style) { order.append(style) }
                let index = order.firstIndex(of: style)!
                row.append(index < letters.count ? letters[index] : "?")
            }
            while row.last == "." { row.removeLast() }
            rows.append(row)
        }
        let legend = order.enumerated().map { index, style in
            "\(index < letters.count ? letters[index] : "?") = \(Self.describe(style))"
        }
        return (["styles:"] + rows + legend).joined(separator: "\n") + "\n"
    }

    static func describe(_ style: Style) -> String {
        var words: [String] = []
        if style.foreground != .default { words.append("fg \(style.foreground)") }
        if style.background != .default { words.append("bg \(style.background)") }
        if style.bold { words.append("bold") }
        if style.dim { words.append("dim") }
        if style.italic { words.append("italic") }
        if style.underline { words.append("underline") }
        if style.reverse { words.append("reverse") }
        return words.joined(separator: " ")
    }
}
