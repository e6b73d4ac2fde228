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
        /// Names that look like sync files but are not taken, each with why (a symlink, a
        /// FIFO, a device, a directory, a number past `maximumNumber`).
        var refused: [String] = []
    }

    /// The greatest segment or snapshot number read (nine digits): a device writing a segment
    /// of 1 MiB a second would take 30 years to reach it, and every sum made from a number
    /// stays far from overflowing.
    static let maximumNumber = 999_999_999

    func segmentURL(_ number: Int) -> URL { url.appendingPathComponent(Self.segmentName(number)) }
    func snapshotURL(_ number: Int) -> URL { url.appendingPathComponent("snapshot-\(number)") }

    static func segmentName(_ number: Int) -> String {
        let digits = String(number)
        return "ops-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".log"
    }

    /// The number a file name gives: ASCII digits only (no sign, no space), at most
    /// `maximumNumber`; nil for anything else.
    static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.count <= 9, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            return nil
        }
        return Int(digits)
    }

    /// What is in the folder now (files being written, `.…tmp`, are not counted). The files
    /// are another device's, so hostile: only regular files are taken (a symlink could point
    /// anywhere, a FIFO or a device would block or never end), and only names whose number
    /// is in range.
    func list() -> Listing {
        var listing = Listing()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        for name in names {
            let isSegment = name.hasPrefix("ops-") && name.hasSuffix(".log")
            guard isSegment || name.hasPrefix("snapshot-") else { continue }
            let digits = isSegment ? name.dropFirst(4).dropLast(4) : name.dropFirst(9)
            guard let number = Self.number(digits) else {
                listing.refused.append("\(Self.shown(name)): not a number up to \(Self.maximumNumber)")
                continue
            }
            var info = stat()
            guard lstat(url.appendingPathComponent(name).path, &info) == 0 else { continue }
            guard info.st_mode & S_IFMT == S_IFREG else {
                listing.refused.append("\(Self.shown(name)): \(Self.kind(info.st_mode)), not a file")
                continue
            }
            if isSegment { listing.segments.append(number) } else { listing.snapshots.append(number) }
            // Sizes are the kernel's (at most 2^63 - 1 each): the sum saturates.
            let (sum, overflow) = listing.bytes.addingReportingOverflow(Int(info.st_size))
            listing.bytes = overflow ? .max : sum
        }
        listing.segments.sort()
        listing.snapshots.sort()
        return listing
    }

    /// What a file type is, in words.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "not a regular file"
        }
    }

    /// A name from another device's folder as it may be shown: at most 80 characters,
    /// control characters escaped.
    static func shown(_ name: String) -> String {
        let cut = name.count > 80 ? String(name.prefix(80)) + "…" : name
        return String(cut.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0) })
    }

    /// Why this folder cannot be used as a device's (nil: it can): it must be a directory of
    /// its own, not a symbolic link to one elsewhere, which would have Herald read (or, for
    /// this device's folder, write) outside the sync folder.
    func refusal() -> String? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(Self.kind(info.st_mode)), not a folder"
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
    }

    // MARK: Writing (this device's own folder only)

    /// Appends `lines` to segment `number` (created with its header, which gives
    /// `previousBytes`, the size of the segment before) and syncs it to disk.
    /// A record left half-written by a crash is cut off first, so the next one starts on a
    /// line of its own. Returns the segment's size after.
    func append(_ lines: [String], toSegment number: Int, previousBytes: Int? = nil) throws -> Int {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = segmentURL(number).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard fd >= 0 else { throw SyncError.io(path, errno) }
        defer { close(fd) }
        try Self.requireRegular(fd: fd, path: path)
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
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        try Self.requireRegular(fd: fd, path: path)
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

    /// Throws unless `fd` is a regular file: this device's folder is in a folder others write
    /// to, and a FIFO or a device put there under a segment's name must not be written.
    private static func requireRegular(fd: Int32, path: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SyncError.io(path, errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SyncError.refused(path, kind(info.st_mode)) }
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
        // A new file, never through a link someone left under this name.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
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
    /// A path in the sync folder that is not what it must be (a symbolic link, a FIFO or a
    /// device where a file or a folder belongs), and what it is.
    case refused(String, String)
    /// A file that changed under the reader in a way no writer of sync files changes one (it
    /// became shorter than what was read of it already).
    case changed(String, String)

    public var description: String {
        switch self {
        case .io(let path, let code): "\(path): \(String(cString: strerror(code)))"
        case .refused(let path, let what): "\(path): \(what), refused"
        case .changed(let path, let how): "\(path): \(how)"
        case .noFolder(let path):
            "no sync folder at \(path): create it (or the folder your sync engine shares) first"
        }
    }
}
