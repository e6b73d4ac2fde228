import Foundation
import HeraldConfig
import HeraldCore

/// newsboat's `:source FILE` and `:dumpconfig FILE`: a config file read over the one in force,
/// and the config in force written out (the lines read at start, then this session's `:set`
/// and `:source` lines, in the order they took effect).
extension ReaderApp {
    /// A config file larger than this is not read by `:source` (a config is a few KB).
    nonisolated static let sourcedFileLimit = 1 << 20

    func source(_ path: String) {
        let file = ArticleText.expandingHome(path)
        work.start {
            let read = await Task.detached { () -> Result<ReaderConfig, ConfigReadFailure> in
                do {
                    let text = try Self.readConfigFile(file)
                    return .success(ConfigFile.parse(text, file: file, read: Self.readConfigFile))
                } catch {
                    return .failure(ConfigReadFailure(reason: "\(error)"))
                }
            }.value
            switch read {
            case .failure(let failure): self.message = ":source: cannot read \(file): \(failure.reason)"
            case .success(let sourced):
                let combined = ConfigFile.parse((self.configLines + sourced.lines).joined(separator: "\n"), file: file)
                self.apply(combined)
                self.onSettingsChange(self.settings)
                let later =
                    sourced.lines.contains { $0.hasPrefix("filter ") || $0.hasPrefix("feed ") }
                    ? "; its filter and feed lines take effect at the next start" : ""
                if let first = sourced.diagnostics.first {
                    let more = sourced.diagnostics.count > 1 ? " (and \(sourced.diagnostics.count - 1) more)" : ""
                    self.message = "Read \(file), but \(first)\(more)\(later)"
                } else {
                    self.message = "Read \(file): \(sourced.lines.count) line\(sourced.lines.count == 1 ? "" : "s")\(later)."
                }
            }
        }
    }

    func dumpConfig(to path: String, overwrite: Bool = false) {
        let file = ArticleText.expandingHome(path)
        let text =
            ([
                "# Herald's config in force, written by :dumpconfig on \(Date().formatted(.iso8601))",
                "# (the config file's lines, its includes read in place, then this session's :set and :source).",
            ] + configLines).joined(separator: "\n") + "\n"
        write(
            text, to: file, overwrite: overwrite, saved: "Wrote the config in force to \(file)",
            failed: "Could not write \(file)"
        ) {
            self.dumpConfig(to: path, overwrite: true)
        }
    }

    /// A config file's text: a regular file of at most `sourcedFileLimit` bytes.
    nonisolated static func readConfigFile(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ConfigReadFailure(reason: "not a regular file")
        }
        guard (attributes[.size] as? Int ?? 0) <= sourcedFileLimit else {
            throw ConfigReadFailure(reason: "larger than \(sourcedFileLimit >> 20) MB")
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}

struct ConfigReadFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
