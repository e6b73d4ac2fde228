public import Foundation
public import HeraldStore

/// One sync of a library with a sync folder: this device's captured changes are stamped
/// and appended to its own files; the other devices' files are read from where the last
/// sync stopped and merged, last writer wins per key; the merged state is applied to the
/// library. Runs on the database actor (file work included): the reader never waits on it.
@DatabaseActor
public struct SyncEngine {
    public let store: LibraryStore
    /// The shared folder (`DIR`); this device writes only `DIR/DEVICE-ID/`.
    public let folder: URL
    /// Unix milliseconds now (tests set a clock of their own).
    public var now: @Sendable () -> Int64 = { HybridClock.wallClock() }
    /// A segment is closed once it is larger than this.
    public var segmentLimit = 1 << 20
    /// The segments are folded into a snapshot once they hold more bytes than this and
    /// than the last snapshot.
    public var compactionFloor = 64 << 10
    /// This machine's name, part of the stamp that tells a copied library (tests set one).
    public var host = DeviceStamp.hostName()
    /// A device's operations are written once this many keys wait in its backlog (about 100
    /// bytes each: 26 MB at this limit), and when its files are read.
    public var backlogLimit = 1 << 18

    public init(store: LibraryStore, folder: URL) {
        self.store = store
        self.folder = folder
    }

    /// Syncs once.
    public func run() throws -> SyncReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw SyncError.noFolder(folder.path) }
        var known = try store.syncValue("device")
        var copiedFrom: String?
        if let id = known, try isCopy() {
            // A copy keeps its state and changes, and syncs them as a device of its own.
            let fresh = Self.newDeviceID()
            try store.adoptDeviceID(fresh)
            (known, copiedFrom) = (fresh, id)
        }
        let device = known ?? Self.newDeviceID()
        var report = SyncReport(device: device, firstSync: known == nil)
        report.copiedFrom = copiedFrom
        var clock = HybridClock(saved: Int64(try store.syncValue("clock") ?? "") ?? 0, now: now())
        let own = DeviceFolder(url: folder.appendingPathComponent(device))
        // Others can write in the sync folder: this device never writes through a link there.
        if let why = own.refusal() { throw SyncError.refused(own.url.path, why) }
        let listing = own.list()
        var segment = max(
            Int(try store.syncValue("segment") ?? "") ?? 1, (listing.segments.last ?? 0),
            (listing.snapshots.last ?? 0) + 1)
        if let stamp = DeviceStamp(libraryPath: store.path, host: host) {
            try store.setSyncValue("device-stamp", stamp.text)
        }
        if known == nil {
            let changes = try store.startSyncing(device: device)
            let time = now()
            let captured = changes.map { CapturedChange(sequence: 0, change: $0, time: time) }
            report.written += try write(
                captured, through: nil, device: device, clock: &clock, own: own, segment: &segment)
        }
        // This device's own flags are applied already; its other changes (a subscription, a
        // move, tags) may let waiting states apply.
        var feedChanges = false
        while true {
            let batch = try store.capturedChanges()
            guard let last = batch.last else { break }
            feedChanges = feedChanges || batch.contains { !$0.change.kind.isArticleFlag }
            report.written += try write(
                batch, through: last.sequence, device: device, clock: &clock, own: own, segment: &segment)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        try readDevices(
            names.sorted().filter { Self.isDeviceID($0) && $0 != device }, clock: &clock, report: &report)
        try store.setSyncValue("clock", String(clock.latest))
        // Applying looks up every article's flags and counts what waits: skipped when
        // nothing new was merged, written or fetched since the last time (what waits is then
        // what waited).
        let signature = try store.syncApplySignature()
        if try known == nil || report.won > 0 || feedChanges
            || signature != store.syncValue("applied-signature")
        {
            report.applied = try store.applySyncState()
            report.appliedState = true
            try store.setSyncValue("applied-signature", store.syncApplySignature())
            try store.setSyncValue("pending", String(report.applied.pending))
        } else {
            report.applied.pending = Int(try store.syncValue("pending") ?? "") ?? 0
        }
        let after = own.list()
        let segmentBytes = after.segments.reduce(0) { $0 + DeviceFolder.size(own.segmentURL($1).path) }
        let snapshotBytes = after.bytes - segmentBytes
        if known == nil || segmentBytes > max(compactionFloor, snapshotBytes) {
            try compact(own, through: segment, device: device, clock: clock)
            segment += 1
            try store.setSyncValue("segment", String(segment))
            report.compacted = true
        }
        return report
    }

    /// Whether this library is a copy of the one that last synced with its device id: its
    /// file or machine is not the one stamped (a library stamped by an older Herald is not).
    private func isCopy() throws -> Bool {
        guard let recorded = try store.syncValue("device-stamp").flatMap(DeviceStamp.init(text:)),
            let current = DeviceStamp(libraryPath: store.path, host: host)
        else { return false }
        return recorded != current
    }

    // MARK: Writing this device's operations

    /// Stamps `changes` in order, saves the clock (so no stamp is ever given twice), appends
    /// them to the current segment, then records them as this device's state.
    private func write(
        _ changes: [CapturedChange], through sequence: Int64?, device: String, clock: inout HybridClock,
        own: DeviceFolder, segment: inout Int
    ) throws -> Int {
        let wall = now()
        let operations = changes.map { captured in
            SyncOperation(
                change: captured.change, stamp: clock.stamp(now: min(captured.time, wall)), device: device)
        }
        try store.setSyncValue("clock", String(clock.latest))
        if !operations.isEmpty {
            let isNew = !FileManager.default.fileExists(atPath: own.segmentURL(segment).path)
            let size = try own.append(
                // No reader takes a longer line (a guid of a megabyte): it is not written.
                operations.map { SyncRecord.encode(stamp: $0.stamp, change: $0.change) }.filter {
                    $0.utf8.count <= SyncRecord.maximumLineBytes
                }, toSegment: segment,
                previousBytes: isNew ? try previousSegmentBytes(own, before: segment) : nil)
            if size > segmentLimit {
                segment += 1
                try store.setSyncValue("segment", String(segment))
            }
        }
        try store.recordOwn(operations, through: sequence)
        return operations.count
    }

    /// The bytes of the segment before `number`, for the header of `number`: its complete
    /// lines, or what compaction recorded when it folded that segment into a snapshot (0: it
    /// was never written); nil when neither is known (folded by an older Herald).
    private func previousSegmentBytes(_ own: DeviceFolder, before number: Int) throws -> Int? {
        guard number > 1 else { return 0 }
        if let bytes = try own.completeBytes(ofSegment: number - 1) { return bytes }
        let closed = try store.syncValue("closed-segment")?.split(separator: " ").compactMap { Int($0) }
        guard let closed, closed.count == 2, closed[0] == number - 1 else { return nil }
        return closed[1]
    }

    /// Writes `snapshot-N` (this device's latest state per key), then removes the segments
    /// and snapshots it replaces. The size of segment N is recorded first, for the header
    /// of the next one.
    private func compact(_ own: DeviceFolder, through segment: Int, device: String, clock: HybridClock) throws
    {
        let closed = try own.completeBytes(ofSegment: segment) ?? 0
        try store.setSyncValue("closed-segment", "\(segment) \(closed)")
        try own.writeAtomically("snapshot-\(segment)") { emit in
            try emit(SyncRecord.header)
            var count = 0
            try store.forEachSyncState(by: device) { page in
                for operation in page {
                    let line = SyncRecord.encode(stamp: operation.stamp, change: operation.change)
                    guard line.utf8.count <= SyncRecord.maximumLineBytes else { continue }
                    try emit(line)
                    count += 1
                }
            }
            try emit(SyncRecord.encodeEnd(count: count, stamp: clock.latest))
        }
        let listing = own.list()
        for number in listing.segments where number <= segment {
            own.remove(DeviceFolder.segmentName(number))
        }
        for number in listing.snapshots where number < segment { own.remove("snapshot-\(number)") }
    }

    // MARK: Reading the other devices

    /// Merges the other devices' files from where the last sync stopped: a thread reads them
    /// into backlogs (a device's operations reduced per key, written when the backlog is
    /// full and at the device's end) while this one writes the backlog read before, each
    /// device in one transaction.
    ///
    /// The default page cache: a backlog is written feed by feed, each page once, so a
    /// larger cache saves little and would cost as much memory as the backlog.
    private func readDevices(_ devices: [String], clock: inout HybridClock, report: inout SyncReport) throws {
        guard !devices.isEmpty else { return }
        let cursors = try devices.map { device in
            try store.syncCursor(device: device)
                ?? SyncCursor(device: device, segment: 0, offset: 0, lastStamp: 0, operations: 0)
        }
        let gatherer = SyncGatherer(folder: folder, cursors: cursors, backlogLimit: backlogLimit)
        defer { gatherer.close() }
        for device in devices {
            report.devices.append(device)
            // The transaction starts once the device's first backlog is ready.
            var chunk = try gatherer.next()
            try store.syncTransaction {
                while true {
                    clock.observe(chunk.latestStamp, now: now())
                    report.read += chunk.read
                    report.problems += chunk.problems
                    report.won += try store.mergeOthers(&chunk.backlog, cursor: chunk.cursor)
                    if chunk.isLast { return }
                    chunk = try gatherer.next()
                }
            }
        }
    }

    // MARK: Device ids

    /// A new device id: 128 random bits in hex.
    static func newDeviceID() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (word: UInt64) in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether a folder name is a device id (other names, `.git` or `.stfolder`, are not read).
    nonisolated static func isDeviceID(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}

/// What one sync did.
public struct SyncReport: Sendable {
    public var device: String
    /// The first sync of this library: its state was brought in as a snapshot.
    public var firstSync: Bool
    /// This device's operations written to its files.
    public var written = 0
    /// Operations read from other devices, and how many of them won over the state known
    /// (of a key's operations in one backlog, only the winner is counted).
    public var read = 0
    public var won = 0
    /// The other devices read.
    public var devices: [String] = []
    public var applied = SyncApplyResult()
    /// Whether the merged state was applied (it is skipped when nothing was merged, written
    /// or fetched since the last time: `applied.pending` is then the count of that time).
    public var appliedState = false
    /// Corrupt records and skipped files, one line each.
    public var problems: [String] = []
    /// This device's segments were folded into a new snapshot.
    public var compacted = false
    /// The device id this library had before: it is a copy of that device's library (on
    /// another machine, or another file), so it took an id of its own.
    public var copiedFrom: String?
}
