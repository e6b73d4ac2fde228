public import Foundation
public import HeraldStore

/// What `herald sync status` shows: this device, the devices seen and their last
/// operation, what is waiting, and the folder's size.
public struct SyncStatus: Sendable {
    /// A device whose files this library has read, or that has a folder in the sync folder.
    public struct Device: Sendable, Hashable {
        public var id: String
        /// When its latest operation read was made (nil: none read yet).
        public var lastOperation: Date?
        public var operationsRead: Int
        /// Bytes of its files in the folder (nil: no folder there).
        public var bytes: Int?
    }

    /// This library's device id (nil: never synced).
    public var device: String?
    /// The bytes of this device's own files.
    public var ownBytes: Int?
    public var devices: [Device] = []
    /// Changes made here and not yet written to the folder.
    public var unsent = 0
    /// Merged states waiting for their feed or article (applied after a reload).
    public var pending = 0
    /// Bytes of every device's files in the folder (nil: no folder given or found).
    public var folderBytes: Int?

    /// Reads the status of `store`, with the folder's files when `folder` is given.
    @DatabaseActor
    public static func read(store: LibraryStore, folder: URL?) throws -> SyncStatus {
        var status = SyncStatus()
        status.device = try store.syncValue("device")
        (status.unsent, status.pending) = try store.syncBacklog()
        var byID: [String: Device] = [:]
        for cursor in try store.syncCursors() {
            byID[cursor.device] = Device(
                id: cursor.device,
                lastOperation: cursor.lastStamp > 0 ? HybridClock.date(cursor.lastStamp) : nil,
                operationsRead: cursor.operations, bytes: nil)
        }
        if let folder {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            var total = 0
            for name in names where SyncEngine.isDeviceID(name) {
                let bytes = DeviceFolder(url: folder.appendingPathComponent(name)).list().bytes
                total += bytes
                if name == status.device {
                    status.ownBytes = bytes
                } else {
                    byID[name, default: Device(id: name, lastOperation: nil, operationsRead: 0, bytes: nil)]
                        .bytes = bytes
                }
            }
            status.folderBytes = FileManager.default.fileExists(atPath: folder.path) ? total : nil
        }
        status.devices = byID.values.sorted { $0.id < $1.id }
        return status
    }
}
