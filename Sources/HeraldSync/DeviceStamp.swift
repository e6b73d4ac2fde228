import Foundation

/// Where a library syncs from: the machine's host name and the library file's inode.
///
/// The device id lives in the library, so a library file copied to another machine (or to
/// another file on this one) would carry it along, and two libraries would then write the
/// same device folder. A sync compares the stamp kept beside the id with the file's own: a
/// different one means this is a copy, which takes a new id and reads the old one's files
/// as another device's. Moving the file (`mv`) keeps its inode; a copy never does. A
/// machine renamed, or a file restored from a backup, also counts as a copy: harmless, as
/// the new device reads everything the old id wrote.
struct DeviceStamp: Equatable {
    var host: String
    var inode: UInt64

    /// The stamp of the library file at `path` on a machine called `host`; nil when the
    /// file cannot be seen (then nothing is compared).
    init?(libraryPath path: String, host: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.host = host
        self.inode = UInt64(info.st_ino)
    }

    init?(text: String) {
        let parts = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard parts.count == 2, let inode = UInt64(parts[1]) else { return nil }
        self.host = String(parts[0])
        self.inode = inode
    }

    var text: String { "\(host)\t\(inode)" }

    /// This machine's host name ("" when it has none).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
