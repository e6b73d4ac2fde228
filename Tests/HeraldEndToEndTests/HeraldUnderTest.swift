import Foundation
import Testing

// MARK: - The program under test

/// Where the built `herald` and the demo feeds are.
enum HeraldUnderTest {
    /// The repository: three levels above this file (Tests/HeraldEndToEndTests/<file>).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let demoFeeds = repository.appendingPathComponent("Resources/demo")

    /// The `herald` under test: `HERALD_BINARY` when set (CI runs the suite once more on
    /// `make build`'s release binary, the one users run), else the one built next to this
    /// test bundle (`.build/<triple>/debug/herald`), looked for beside
    /// `CommandLine.arguments[0]` and one directory up (the bundle may be a directory on some
    /// platforms). Throws — so the test fails, never skips — if missing.
    static func binary() throws -> URL {
        let fileManager = FileManager.default
        if let given = ProcessInfo.processInfo.environment["HERALD_BINARY"], !given.isEmpty {
            let url = URL(fileURLWithPath: given).standardizedFileURL
            guard fileManager.isExecutableFile(atPath: url.path) else {
                throw EndToEndError("HERALD_BINARY is \(given), which is not an executable file")
            }
            return url
        }
        var candidates: [URL] = []
        for start in [CommandLine.arguments.first, Bundle.main.executablePath].compactMap({ $0 }) {
            let executable = URL(fileURLWithPath: start).standardizedFileURL
            let directory = executable.deletingLastPathComponent()
            for candidate in [directory, directory.deletingLastPathComponent()]
                .map({ $0.appendingPathComponent("herald") }) where !candidates.contains(candidate)
            {
                candidates.append(candidate)
            }
        }
        for candidate in candidates where fileManager.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw EndToEndError(
            "the herald binary was not found (looked at \(candidates.map(\.path).joined(separator: ", "))); "
                + "run `swift build` first, then `swift test --filter HeraldEndToEndTests`")
    }

    /// The shell command line that runs herald on the demo feeds and then prints its status.
    static func commandLine(binary: URL, feeds: URL = demoFeeds) -> String {
        "\(shellQuoted(binary.path)) --feeds \(shellQuoted(feeds.path)); echo \"EXIT=$?\""
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The pid of the `herald` process that is a child of `parent` (the pane's shell).
    static func childPID(of parent: Int32, named name: String = "herald") -> Int32? {
        childPIDs(of: parent, named: name).first
    }

    /// The children of `parent` (with the command name `name`, if given), found through /proc.
    static func childPIDs(of parent: Int32, named name: String? = nil) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return []
        }
        var children: [Int32] = []
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            let command = stat[stat.index(after: open)..<close]
            // After ") ": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let ppid = Int32(fields[1]) else { continue }
            if ppid == parent, name == nil || command == name! { children.append(pid) }
        }
        return children
    }
}
