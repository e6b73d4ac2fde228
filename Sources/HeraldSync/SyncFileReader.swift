import Foundation
import HeraldStore

/// Reads one sync file from a byte offset, in chunks (a file is never in memory whole),
/// taking every complete record: a final record cut short (a sync engine still copying the
/// file) is left for a later read; a corrupt one is reported by file and byte offset and
/// skipped, never applied.
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
    /// Problems found, one line each, for the user.
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
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .read(end: offset, truncated: false, ended: false)
        }
        defer { try? handle.close() }
        var position = offset
        if offset == 0 {
            let head = try handle.read(upToCount: 64) ?? Data()
            guard let newline = head.firstIndex(of: 10) else {
                return head.count < 64
                    && Data(SyncRecord.magic.utf8).starts(with: head.prefix(SyncRecord.magic.utf8.count))
                    ? .read(end: 0, truncated: !head.isEmpty, ended: false) : .notSyncFile
            }
            let words = String(decoding: head[..<newline], as: UTF8.self).split(separator: " ")
            guard words.count >= 2, words[0] == SyncRecord.magic, let version = Int(words[1]) else {
                return .notSyncFile
            }
            guard version <= SyncRecord.version else { return .newerVersion(version) }
            position = newline + 1
        }
        try handle.seek(toOffset: UInt64(position))
        var carry: [UInt8] = []
        var ended = false
        let name = URL(fileURLWithPath: path).lastPathComponent
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
        while true {
            guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { break }
            carry.append(contentsOf: data)
            let consumed = try carry.withUnsafeBytes { buffer -> Int in
                var start = 0
                while let newline = buffer[start...].firstIndex(of: 10) {
                    let line = UnsafeRawBufferPointer(rebasing: buffer[start..<newline])
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
                        problems.append(
                            "\(parent)/\(name): corrupt record at byte \(position + start) (\(why)), skipped")
                    }
                    start = newline + 1
                }
                return start
            }
            position += consumed
            carry.removeFirst(consumed)
            try reached(position)
        }
        return .read(end: position, truncated: !carry.isEmpty, ended: ended)
    }
}
