public import Foundation
public import HeraldCore
public import HeraldStore

/// The open reader's sync with a sync folder: each `sync()` is one `SyncEngine` run on the
/// database actor, and `folderChanges()` watches the folder for the other devices' files.
public final class FolderSync: LibrarySyncing {
    public let store: LibraryStore
    public let folder: URL
    private let watcher: SyncFolderWatcher

    public init(store: LibraryStore, folder: URL) {
        self.store = store
        self.folder = folder
        self.watcher = SyncFolderWatcher(folder: folder)
    }

    public func sync() async throws -> LibrarySyncResult {
        try await run()
    }

    public func folderChanges() -> AsyncStream<Void> { watcher.changes() }

    /// Watches the device folders there are now (so none written during the sync is
    /// missed), syncs, then drops the watch on this device's own folder.
    @DatabaseActor
    private func run() throws -> LibrarySyncResult {
        watcher.refresh(own: try store.syncValue("device"))
        let report = try SyncEngine(store: store, folder: folder).run()
        watcher.refresh(own: report.device)
        return Self.result(report)
    }

    /// What the reader needs of a report.
    static func result(_ report: SyncReport) -> LibrarySyncResult {
        let applied = report.applied
        var problems = report.problems + applied.refused.map { "subscription refused: \($0)" } + applied.kept
        if let old = report.copiedFrom {
            problems.insert(
                "this library is a copy of device \(old)'s: it syncs as a new device, \(report.device)", at: 0
            )
        }
        return LibrarySyncResult(
            flags: applied.changedFlags, flagsChanged: applied.flagsChanged,
            feedsChanged: applied.subscribed + applied.unsubscribed + applied.retagged + applied.retitled
                + applied.moved, problems: problems)
    }
}
