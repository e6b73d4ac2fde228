import Foundation
import HeraldStore

/// Reads one sync file from a byte offset, in chunks (a file is never in memory whole),
/// taking every complete record: a final record cut short (a sync engine still copying the
/// file) is left for a later read; a corrupt one is skipped, never applied, and counted.
///
/// The file is another device's, so hostile: only a regular file is opened (never through a
/// symbolic link, never a FIFO or a device), it is read up to the size it had when opened
/// (a file that keeps growing cannot keep the reader), a record longer than
/// `SyncRecord.maximumLineBytes` is skipped without being held, and a file found shorter
/// than what was read of it already is an error for its device.
struct SyncFileReader {
    /// What a read found.
    enum Outcome: Equatable {
        /// Records up to `end` (the offset after the last complete record) were read;
        /// `truncated`: bytes after `end` that do not make a record yet; `ended`: a
        /// snapshot's last record was seen.
        case read(end: Int, truncated: Bool, ended: Bool)
        /// The file is of a newer format: it is skipped, never misread.
        case newerVersion(Int)
        /// The file does not start with the sync header.
        case notSyncFile
    }

    var chunkSize = 4 << 20
    /// Problems found, one line per file, for the user.
    var problems: [String] = []

    /// Reads `path` from `offset` (0: from the header), handing the operations found to
    /// `body` a chunk at a time with the offset they reach.
    mutating func read(
        _ path: String, from offset: Int,
        _ body: (_ operations: [(Int64, SyncChange)], _ end: Int) throws -> Void
    ) throws -> Outcome {
        var operations: [(Int64, SyncChange)] = []
        return try read(path, from: offset) { stamp, kind, value, url, guid in
            // The fields' escapes were checked.
            let (value, url, guid) = (
                SyncRecord.unescape(value) ?? [], SyncRecord.unescape(url) ?? [],
                SyncRecord.unescape(guid) ?? []
            )
            operations.append(
                (
                    stamp,
                    SyncChange(
                        kind: kind, feedURL: String(decoding: url, as: UTF8.self),
                        guid: String(decoding: guid, as: UTF8.self),
                        value: String(decoding: value, as: UTF8.self))
                ))
        } reached: { end in
            try body(operations, end)
            operations.removeAll(keepingCapacity: true)
        }
    }

    /// Reads `path` from `offset` (0: from the header), handing each operation's fields to
    /// `record` as the file's bytes (escapes checked, not undone; valid only during the call),
    /// and the offset reached after each chunk to `reached`.
    mutating func read(
        _ path: String, from offset: Int,
        record: (
            _ stamp: Int64, _ kind: SyncChange.Kind, _ value: UnsafeRawBufferPointer,
            _ feedURL: UnsafeRawBufferPointer, _ guid: UnsafeRawBufferPointer
        ) throws -> Void,
        reached: (_ end: Int) throws -> Void
    ) throws -> Outcome {
        guard let file = try SyncFile(path) else { return .read(end: offset, truncated: false, ended: false) }
        defer { file.close() }
        guard offset <= file.size else {
            throw SyncError.changed(path, "\(file.size) bytes, shorter than the \(offset) read of it before")
        }
        var position = offset
        if offset == 0 {
            let head = try file.read(at: 0, count: 64)
            guard let newline = head.firstIndex(of: 10) else {
                return head.count < 64
                    && Array(SyncRecord.magic.utf8).starts(with: head.prefix(SyncRecord.magic.utf8.count))
                    ? .read(end: 0, truncated: !head.isEmpty, ended: false) : .notSyncFile
            }
            let words = String(decoding: head[..<newline], as: UTF8.self).split(separator: " ")
            guard words.count >= 2, words[0] == SyncRecord.magic, let version = Int(words[1]) else {
                return .notSyncFile
            }
            guard version <= SyncRecord.version else { return .newerVersion(version) }
            position = newline + 1
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
        var damage = Damage()
        var carry: [UInt8] = []
        var ended = false
        // Inside a record longer than the limit: its bytes are passed over up to its newline.
        var skipping = false
        var next = position
        var buffer = [UInt8](repeating: 0, count: min(chunkSize, max(file.size - next, 0)))
        while next < file.size {
            let got = try file.read(at: next, into: &buffer, count: min(buffer.count, file.size - next))
            guard got > 0 else {
                throw SyncError.changed(path, "shorter than when it was opened (\(file.size) bytes)")
            }
            let data = buffer[0..<got]
            next += got
            var body = data
            if skipping {
                guard let newline = Self.newline(in: data) else {
                    position = next
                    try reached(position)
                    continue
                }
                skipping = false
                body = data[(newline + 1)...]
                position = next - got + newline + 1
            }
            carry.append(contentsOf: body)
            let consumed = try carry.withUnsafeBytes { buffer -> Int in
                var start = 0
                while let newline = Self.newline(in: buffer, from: start) {
                    let line = UnsafeRawBufferPointer(rebasing: buffer[start..<newline])
                    if line.count > SyncRecord.maximumLineBytes {
                        damage.note(at: position + start, "a record of \(line.count) bytes")
                    } else {
                        switch SyncRecord.fields(line) {
                        case .success(.operation(let stamp, let kind, let value, let url, let guid)):
                            try record(stamp, kind, value, url, guid)
                        case .success(.end): ended = true
                        case .failure(let problem):
                            let why =
                                switch problem {
                                case .checksum: "checksum mismatch"
                                case .malformed(let detail): detail
                                }
                            damage.note(at: position + start, why)
                        }
                    }
                    start = newline + 1
                }
                return start
            }
            position += consumed
            carry.removeFirst(consumed)
            if carry.count > SyncRecord.maximumLineBytes {
                // No record is this long: what follows up to the next newline is passed over.
                damage.note(at: position, "a record longer than \(SyncRecord.maximumLineBytes) bytes")
                position += carry.count
                carry.removeAll()
                skipping = true
            }
            try reached(position)
        }
        if let summary = damage.summary { problems.append("\(parent)/\(name): \(summary)") }
        return .read(end: position, truncated: !carry.isEmpty, ended: ended)
    }

    /// The index of the first newline in `bytes` (memchr: a file of a gigabyte without one
    /// is passed over at memory speed).
    static func newline(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBytes { buffer in
            newline(in: buffer, from: 0).map { bytes.startIndex + $0 }
        }
    }

    /// The index of the first newline at or after `start` in `buffer`.
    static func newline(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress,
            let found = memchr(base + start, 10, buffer.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The corrupt records of one file: how many, and the first.
    private struct Damage {
        var count = 0
        var first: (offset: Int, why: String)?

        mutating func note(at offset: Int, _ why: String) {
            count += 1
            if first == nil { first = (offset, why) }
        }

        var summary: String? {
            first.map { first in
                (count == 1 ? "a corrupt record" : "\(count) corrupt records")
                    + " skipped (the first at byte \(first.offset): \(first.why))"
            }
        }
    }
}

/// A sync file opened for reading, refused unless it is a regular file, with the size it had
/// when opened.
struct SyncFile {
    let descriptor: Int32
    let path: String
    let size: Int

    /// nil when there is no file at `path` (a segment compacted away since the listing).
    init?(_ path: String) throws {
        // O_NOFOLLOW: a symbolic link fails (ELOOP) instead of being followed; O_NONBLOCK: a
        // FIFO is opened without waiting for a writer, then refused.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw SyncError.refused(path, "a symbolic link")
            default: throw SyncError.io(path, errno)
            }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw SyncError.io(path, code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw SyncError.refused(path, DeviceFolder.kind(info.st_mode))
        }
        (self.descriptor, self.path, self.size) = (descriptor, path, Int(info.st_size))
    }

    func close() { Glibc.close(descriptor) }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.removeLast(count - (try read(at: offset, into: &bytes, count: count)))
        return bytes
    }

    /// Reads up to `count` bytes at `offset` into the start of `buffer` (which holds at
    /// least `count`); returns how many (fewer at the end of the file).
    func read(at offset: Int, into buffer: inout [UInt8], count: Int) throws -> Int {
        var done = 0
        try buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            while done < min(count, bytes.count) {
                let got = pread(descriptor, base + done, min(count, bytes.count) - done, off_t(offset + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw SyncError.io(path, errno)
                }
                if got == 0 { break }
                done += got
            }
        }
        return done
    }
}
