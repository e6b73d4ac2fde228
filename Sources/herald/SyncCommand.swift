import Foundation
import HeraldCore
import HeraldStore
import HeraldSync

/// `herald sync [--dir PATH]`: one sync with the shared folder (for cron);
/// `herald sync status [--dir PATH]`: this device, the others seen, what waits.
enum SyncCommand {
    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        var reader = ArgumentReader(arguments)
        var directory: String?
        var showStatus = false
        var quiet = false
        while let argument = reader.next() {
            switch argument {
            case "status": showStatus = true
            case "--dir": directory = try reader.value(of: "--dir")
            case "--quiet": quiet = true
            default: throw UsageError("sync: unknown argument '\(argument)'")
            }
        }
        let configured = try options.loadConfig().settings.syncDirectory
        let folder = (directory ?? configured).map { URL(fileURLWithPath: expandingHome($0)) }
        let store = try await options.openLibrary(
            importingDemo: false, writing: showStatus ? nil : "herald sync")
        if showStatus {
            Console.say(try await status(store: store, folder: folder))
            return
        }
        guard let folder else {
            throw UsageError(
                "sync: which folder? herald sync --dir PATH, or `set sync-dir PATH` in the config")
        }
        let report = try await sync(store: store, folder: folder)
        for problem in report.problems { Console.complain("herald: sync: \(problem)") }
        for refused in report.applied.refused {
            Console.complain("herald: sync: subscription refused: \(refused)")
        }
        for kept in report.applied.kept { Console.complain("herald: sync: \(kept)") }
        if !quiet { Console.say(summary(report)) }
    }

    @DatabaseActor
    private static func sync(store: LibraryStore, folder: URL) throws -> SyncReport {
        try SyncEngine(store: store, folder: folder).run()
    }

    @DatabaseActor
    private static func status(store: LibraryStore, folder: URL?) throws -> String {
        let status = try SyncStatus.read(store: store, folder: folder)
        var lines: [String] = []
        lines.append(
            "device   "
                + (status.device.map { "\($0) (this library)" } ?? "none yet: the first herald sync makes one")
        )
        if let folder {
            lines.append(
                "folder   \(folder.path)"
                    + (status.folderBytes.map {
                        " (\(size($0)), this device's files \(size(status.ownBytes ?? 0)))"
                    }
                        ?? " (not found)"))
        }
        lines.append(
            "unsent   \(status.unsent) \(status.unsent == 1 ? "change" : "changes") made here, written at the next sync"
        )
        lines.append(
            "pending  \(status.pending) \(status.pending == 1 ? "state waits" : "states wait") for a feed or article not here yet "
                + "(applied by the first sync after a reload brings it)")
        lines.append("devices  \(status.devices.isEmpty ? "none seen yet" : "")")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for device in status.devices {
            let last =
                device.lastOperation.map { "last operation \(formatter.string(from: $0))" }
                ?? "nothing read yet"
            let files = device.bytes.map { ", files \(size($0))" } ?? ", no folder here"
            lines.append("  \(device.id)  \(last), \(device.operationsRead) operations read\(files)")
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ report: SyncReport) -> String {
        let applied = report.applied
        var parts = [
            report.firstSync ? "first sync of this library: its state was written as a snapshot" : nil,
            report.copiedFrom.map {
                "this library is a copy of device \($0)'s (another file or machine): it syncs as device \(report.device)"
            },
            "wrote \(report.written) \(report.written == 1 ? "operation" : "operations")",
            "read \(report.read) from \(report.devices.count) other \(report.devices.count == 1 ? "device" : "devices")"
                + " (\(report.won) newer)",
        ].compactMap { $0 }
        let changes = [
            applied.subscribed > 0 ? "\(applied.subscribed) subscribed" : nil,
            applied.unsubscribed > 0
                ? "\(applied.unsubscribed) unsubscribed (\(applied.articlesRemoved) "
                    + "\(applied.articlesRemoved == 1 ? "article" : "articles") removed with them)" : nil,
            applied.retagged > 0 ? "\(applied.retagged) retagged" : nil,
            applied.retitled > 0 ? "\(applied.retitled) renamed" : nil,
            applied.moved > 0 ? "\(applied.moved) moved" : nil,
            applied.flagsChanged > 0 ? "\(applied.flagsChanged) read/starred flags changed" : nil,
        ].compactMap { $0 }
        if !changes.isEmpty { parts.append(changes.joined(separator: ", ")) }
        if applied.pending > 0 {
            parts.append("\(applied.pending) waiting for their articles (after a reload)")
        }
        return "sync: " + parts.joined(separator: "; ")
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1024
            ? "\(bytes) B"
            : bytes < 1 << 20 ? "\(bytes / 1024) KB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    static func expandingHome(_ path: String) -> String { HomeFolder.expanding(path) }
}
