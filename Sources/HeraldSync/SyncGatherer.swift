import Foundation
import HeraldStore
import Synchronization

/// What the gatherer read of one device since its last chunk.
struct GatheredChunk: Sendable {
    var device: String
    /// The winners per key of the operations read.
    var backlog: SyncBacklog
    /// Where reading reached, when that moved since the last chunk: it is recorded in the
    /// transaction that writes `backlog` (nil: a snapshot not read to its end yet).
    var cursor: SyncCursor?
    /// The operations read, and the greatest stamp among them (for the clock).
    var read: Int
    var latestStamp: Int64
    /// Corrupt records and skipped files, one line each.
    var problems: [String]
    /// The device's last chunk: its files are read as far as they go.
    var isLast: Bool
}

/// Reads the other devices' files on a thread of its own, each operation reduced into a
/// backlog, while the database actor writes the backlog handed over before. Reading,
/// checking and parsing the files is about half of a large merge and writing the state the
/// other half: on two cores they overlap.
///
/// A backlog is handed over and the gatherer waits until it is taken, so one is written
/// while the next fills, never more (a full one holds about 25 MB).
final class SyncGatherer: Sendable {
    private enum Slot: Sendable {
        case empty
        case chunk(GatheredChunk)
        case failed(any Error)
    }

    private struct State: Sendable {
        var slot = Slot.empty
        var closed = false
    }

    private let state = Mutex(State())
    /// Signalled when a chunk (or the failure) is in the slot, when it is taken, and when
    /// the thread ends.
    private let filled = DispatchSemaphore(value: 0)
    private let taken = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading, device by device in the order given, each from its cursor, at the
    /// calling thread's priority (the database actor's).
    init(folder: URL, cursors: [SyncCursor], backlogLimit: Int) {
        let niceness = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let thread = Thread { [self] in
            // Linux keeps the nice value per thread; `who` 0 is the calling thread.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            gather(folder: folder, cursors: cursors, backlogLimit: backlogLimit)
            ended.signal()
        }
        thread.name = "herald-sync-read"
        thread.start()
    }

    /// The next chunk, in the order of the devices given; waits for it. Throws what reading
    /// threw. Called once per chunk, up to each device's last.
    func next() throws -> GatheredChunk {
        filled.wait()
        let slot = state.withLock { state in
            defer { state.slot = .empty }
            return state.slot
        }
        taken.signal()
        switch slot {
        case .chunk(let chunk): return chunk
        case .failed(let error): throw error
        case .empty: throw CancellationError()
        }
    }

    /// Stops reading (a merge that failed takes no more) and waits for the thread to end.
    func close() {
        state.withLock { $0.closed = true }
        taken.signal()
        ended.wait()
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// Hands `slot` over and waits until it is taken; false once closed.
    private func put(_ slot: Slot) -> Bool {
        let open = state.withLock { state in
            guard !state.closed else { return false }
            state.slot = slot
            return true
        }
        guard open else { return false }
        filled.signal()
        taken.wait()
        return !isClosed
    }

    // MARK: The reading thread

    private func gather(folder: URL, cursors: [SyncCursor], backlogLimit: Int) {
        for start in cursors {
            do {
                try gather(
                    DeviceFolder(url: folder.appendingPathComponent(start.device)), from: start,
                    backlogLimit: backlogLimit)
            } catch is CancellationError {
                return
            } catch {
                // This device's files are bad (a link, a FIFO, a file cut shorter, an I/O
                // error): it is skipped with one message, what was merged of it before stays
                // with its cursor, and the other devices sync.
                let skipped = GatheredChunk(
                    device: start.device, backlog: SyncBacklog(reservingCapacity: 0), cursor: nil, read: 0,
                    latestStamp: 0, problems: ["\(start.device): skipped: \(error)"], isLast: true)
                guard put(.chunk(skipped)) else { return }
            }
        }
    }

    /// A device's problems as one line: the first, and how many more.
    static func oneLine(_ problems: [String]) -> [String] {
        guard let first = problems.first else { return [] }
        return [first + (problems.count > 1 ? " (and \(problems.count - 1) more problems)" : "")]
    }

    private func gather(_ other: DeviceFolder, from start: SyncCursor, backlogLimit: Int) throws {
        var cursor = start
        var reader = SyncFileReader()
        var chunk = GatheredChunk(
            device: start.device, backlog: SyncBacklog(reservingCapacity: backlogLimit), read: 0,
            latestStamp: 0, problems: [], isLast: false
        )
        var moved = false
        func handOver(last: Bool) throws {
            chunk.cursor = moved ? cursor : nil
            moved = false
            // The reader is being read with (`reached` runs inside it): its problems go with
            // the device's last chunk.
            if last { chunk.problems = Self.oneLine(reader.problems) }
            chunk.isLast = last
            chunk.backlog.sortForWriting()
            let full = chunk
            chunk = GatheredChunk(
                device: start.device, backlog: SyncBacklog(reservingCapacity: backlogLimit), read: 0,
                latestStamp: 0, problems: [],
                isLast: false)
            guard put(.chunk(full)) else { throw CancellationError() }
        }
        func record(
            _ stamp: Int64, _ kind: SyncChange.Kind, _ value: UnsafeRawBufferPointer,
            _ url: UnsafeRawBufferPointer, _ guid: UnsafeRawBufferPointer
        ) {
            cursor.lastStamp = max(cursor.lastStamp, stamp)
            cursor.operations += 1
            chunk.latestStamp = max(chunk.latestStamp, stamp)
            chunk.read += 1
            guard value.contains(37) || url.contains(37) || guid.contains(37) else {
                chunk.backlog.add(
                    stamp: stamp, kind: kind, value: value, feedURL: url, guid: guid, device: start.device)
                return
            }
            // Escaped fields (checked by the reader), undone.
            let fields = [value, url, guid].map { SyncRecord.unescape($0) ?? [] }
            fields[0].withUnsafeBytes { value in
                fields[1].withUnsafeBytes { url in
                    fields[2].withUnsafeBytes { guid in
                        chunk.backlog.add(
                            stamp: stamp, kind: kind, value: value, feedURL: url, guid: guid,
                            device: start.device)
                    }
                }
            }
        }
        func reached(_ position: SyncCursor?) throws {
            if isClosed { throw CancellationError() }
            if let position {
                (cursor.segment, cursor.offset) = (position.segment, position.offset)
                moved = true
            }
            // Long guids fill the backlog's bytes before its keys: 64 MiB is a limit too.
            if chunk.backlog.count >= backlogLimit || chunk.backlog.byteCount >= 64 << 20 {
                try handOver(last: false)
            }
        }
        if let why = other.refusal() { throw SyncError.refused(other.url.path, why) }
        let listing = other.list()
        reader.problems += listing.refused.map { "\(start.device)/\($0)" }
        try Self.readFiles(
            of: other, listing: listing, cursor: { cursor }, reader: &reader, record: record,
            reached: reached)
        try handOver(last: true)
    }
}

// MARK: Reading a device's files

extension SyncGatherer {
    /// Reads `other`'s snapshot and segments from where `cursor()` stands, handing each
    /// operation to `record`, and the position reached after each chunk to `reached` (nil:
    /// a snapshot not ended yet).
    static func readFiles(
        of other: DeviceFolder, listing: DeviceFolder.Listing, cursor: () -> SyncCursor,
        reader: inout SyncFileReader,
        record: (
            _ stamp: Int64, _ kind: SyncChange.Kind, _ value: UnsafeRawBufferPointer,
            _ feedURL: UnsafeRawBufferPointer, _ guid: UnsafeRawBufferPointer
        ) throws -> Void,
        reached: (_ position: SyncCursor?) throws -> Void
    ) throws {
        let device = other.url.lastPathComponent
        // A snapshot at or past the segment being read replaces the segments before it.
        if let snapshot = listing.snapshots.last, snapshot >= cursor().segment {
            let path = other.snapshotURL(snapshot).path
            let outcome = try reader.read(path, from: 0, record: record) { _ in try reached(nil) }
            switch outcome {
            case .read(_, _, ended: true):
                try reached(
                    SyncCursor(
                        device: device, segment: snapshot + 1, offset: 0, lastStamp: 0, operations: 0))
            case .read: break
            case .newerVersion(let version):
                reader.problems.append(Self.newer(device, "snapshot-\(snapshot)", version))
            case .notSyncFile:
                reader.problems.append("\(device)/snapshot-\(snapshot): not a sync file, skipped")
            }
        }
        while true {
            let number = max(cursor().segment, 1)
            guard listing.segments.contains(number) else { break }
            let offset = cursor().segment == number ? cursor().offset : 0
            let name = DeviceFolder.segmentName(number)
            let outcome = try reader.read(other.segmentURL(number).path, from: offset, record: record) {
                end in
                try reached(
                    SyncCursor(device: device, segment: number, offset: end, lastStamp: 0, operations: 0))
            }
            switch outcome {
            case .read(let end, let truncated, _):
                try reached(
                    SyncCursor(device: device, segment: number, offset: end, lastStamp: 0, operations: 0))
                guard !truncated, listing.segments.contains(number + 1),
                    Self.isWhole(end, before: other.segmentURL(number + 1).path)
                else { return }
                try reached(
                    SyncCursor(
                        device: device, segment: number + 1, offset: 0, lastStamp: 0, operations: 0))
            case .newerVersion(let version):
                reader.problems.append(Self.newer(device, name, version))
                return
            case .notSyncFile:
                reader.problems.append("\(device)/\(name): not a sync file, skipped")
                return
            }
        }
    }

    /// Whether a copy of a segment read to `end` holds all of it, as the header of the next
    /// segment (at `next`) tells: a copy cut at the end of a line reads like a whole one, and
    /// leaving it would skip what the rest of it holds. A next segment whose header has not
    /// arrived yet tells nothing yet; one from an older Herald gives no size (the segment is
    /// taken as whole); one that is no sync file is left to the reader to report.
    private static func isWhole(_ end: Int, before next: String) -> Bool {
        guard let file = try? SyncFile(next) else { return false }
        defer { file.close() }
        let head = (try? file.read(at: 0, count: 128)) ?? []
        guard let newline = head.firstIndex(of: 10) else { return head.count >= 128 }
        guard let bytes = SyncRecord.previousSegmentBytes(header: head[..<newline]) else { return true }
        return end >= bytes
    }

    static func newer(_ device: String, _ name: String, _ version: Int) -> String {
        "\(device)/\(name): written by a newer Herald (format \(version); this one reads \(SyncRecord.version)), "
            + "skipped: upgrade Herald on this device"
    }
}
