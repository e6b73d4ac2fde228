import Foundation
import HeraldUI
import Testing

/// Compares a screen with a golden text file kept next to the tests:
/// `__Snapshots__/<TestFile>/<name>.txt`, a `size=WxH` header then one row per line.
///
/// Goldens are written only when `HERALD_RECORD_SNAPSHOTS=1` asks for it, and never when `CI`
/// is set: there a missing golden is a failure. A mismatch prints a line diff.
func assertSnapshot(
    _ canvas: Canvas, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = "size=\(canvas.size)\n" + canvas.trimmedText() + "\n"
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
            Issue.record("Recorded a new snapshot at \(golden.path); check it by eye and run again.", sourceLocation: sourceLocation)
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
