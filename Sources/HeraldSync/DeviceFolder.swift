import Foundation

/// One device's folder inside the sync folder: `ops-000001.log`, `ops-000002.log`, … (the
/// operations, appended, rotated at a size) and `snapshot-N` (its latest state per key as of
/// the end of segment N, which replaces segments 1…N). Only the device itself writes here.
struct DeviceFolder {
    let url: URL

    /// The numbers of the segments and snapshots present, ascending.
    struct Listing {
        var segments: [Int] = []
        var snapshots: [Int] = []
        var bytes = 0
    }

    func segmentURL(_ number: Int) -> URL { url.appendingPathComponent(Self.segmentName(number)) }
    func snapshotURL(_ number: Int) -> URL { url.appendingPathComponent("snapshot-\(number)") }

    static func segmentName(_ number: Int) -> String {
        let digits = String(number)
        return "ops-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".log"
    }

    /// What is in the folder now (files being written, `.…tmp`, are not counted).
    func list() -> Listing {
        var listing = Listing()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        for name in names {
            if name.hasPrefix("ops-"), name.hasSuffix(".log"), let number = Int(name.dropFirst(4).dropLast(4))
            {
                listing.segments.append(number)
            } else if name.hasPrefix("snapshot-"), let number = Int(name.dropFirst(9)) {
                listing.snapshots.append(number)
            } else {
                continue
            }
            listing.bytes += Self.size(url.appendingPathComponent(name).path)
        }
        listing.segments.sort()
        listing.snapshots.sort()
        return listing
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    // MARK: Writing (this device's own folder only)

    /// Appends `lines` to segment `number` (created with its header, which gives
    /// `previousBytes`, the size of the segment before) and syncs it to disk.
    /// A record left half-written by a crash is cut off first, so the next one starts on a
    /// line of its own. Returns the segment's size after.
    func append(_ lines: [String], toSegment number: Int, previousBytes: Int? = nil) throws -> Int {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = segmentURL(number).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SyncError.io(path, errno) }
        defer { close(fd) }
        var end = Int(lseek(fd, 0, SEEK_END))
        if end > 0 {
            end = try Self.lastLineEnd(fd: fd, size: end, path: path)
            if ftruncate(fd, off_t(end)) != 0 { throw SyncError.io(path, errno) }
        }
        var text = end == 0 ? SyncRecord.header(previousSegmentBytes: previousBytes) : ""
        text += lines.joined()
        try Self.write(Array(text.utf8), fd: fd, at: end, path: path)
        if fsync(fd) != 0 { throw SyncError.io(path, errno) }
        return end + text.utf8.count
    }

    /// The bytes of segment `number`'s complete lines (nil: no such segment): what a reader
    /// of a copy reaches once it has the whole file.
    func completeBytes(ofSegment number: Int) throws -> Int? {
        let path = segmentURL(number).path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = Int(lseek(fd, 0, SEEK_END))
        return size > 0 ? try Self.lastLineEnd(fd: fd, size: size, path: path) : 0
    }

    /// The offset after the last newline of the file (0 if none).
    private static func lastLineEnd(fd: Int32, size: Int, path: String) throws -> Int {
        var end = size
        var buffer = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - buffer.count)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, end - start, off_t(start)) }
            guard count == end - start else { throw SyncError.io(path, errno) }
            if let index = buffer[0..<count].lastIndex(of: 10) { return start + index + 1 }
            end = start
        }
        return 0
    }

    private static func write(_ bytes: [UInt8], fd: Int32, at offset: Int, path: String) throws {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw SyncError.io(path, errno)
            }
            done += written
        }
    }

    /// Writes a file whole and atomically: a temporary file, synced, then renamed. `produce`
    /// hands its lines to the function it is given.
    func writeAtomically(_ name: String, _ produce: ((String) throws -> Void) throws -> Void) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let temporary = url.appendingPathComponent(".\(name).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SyncError.io(temporary, errno) }
        var offset = 0
        var pending: [UInt8] = []
        do {
            try produce { line in
                pending.append(contentsOf: line.utf8)
                if pending.count >= 1 << 20 {
                    try Self.write(pending, fd: fd, at: offset, path: temporary)
                    offset += pending.count
                    pending.removeAll(keepingCapacity: true)
                }
            }
            try Self.write(pending, fd: fd, at: offset, path: temporary)
            guard fsync(fd) == 0 else { throw SyncError.io(temporary, errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        let target = url.appendingPathComponent(name).path
        guard rename(temporary, target) == 0 else { throw SyncError.io(target, errno) }
        let directory = open(url.path, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    func remove(_ name: String) { unlink(url.appendingPathComponent(name).path) }
}

/// A sync failure a user can act on.
public enum SyncError: Error, Sendable, CustomStringConvertible {
    case io(String, Int32)
    case noFolder(String)

    public var description: String {
        switch self {
        case .io(let path, let code): "\(path): \(String(cString: strerror(code)))"
        case .noFolder(let path):
            "no sync folder at \(path): create it (or the folder your sync engine shares) first"
        }
    }
}
