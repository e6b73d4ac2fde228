import Foundation
import Glibc

/// Whether the library can be written, and why not: a library on a read-only mount, or
/// one whose file or directory the user may not write (SQLite writes its `-wal` and `-shm`
/// files beside the library), is opened read only. Listing, searching and reading work;
/// a write says why it cannot be done (`reason`).
public struct LibraryAccess: Sendable, Equatable {
    /// Why the library cannot be written, in words ("its file system is read-only"); nil
    /// when it can.
    public var reason: String?

    public var isReadOnly: Bool { reason != nil }

    public static let writable = LibraryAccess(reason: nil)

    /// Finds out without writing: `access(2)` on the file (when there is one) and on its
    /// directory. A file that is not there yet is made in a directory that can be written.
    public static func of(path: String) -> LibraryAccess {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if Glibc.access(path, W_OK) != 0, errno != ENOENT {
            return LibraryAccess(reason: why(errno, file: "its file"))
        }
        if Glibc.access(directory, W_OK) != 0, errno != ENOENT {
            return LibraryAccess(
                reason: why(errno, file: "its directory \(directory)") + " (SQLite writes its journal there)")
        }
        return .writable
    }

    private static func why(_ code: Int32, file: String) -> String {
        switch code {
        case EROFS: "it is on a read-only file system"
        case EACCES, EPERM: "\(file) may not be written (permissions)"
        default: "\(file) cannot be written (\(String(cString: strerror(code))))"
        }
    }
}

/// A library that cannot be written was asked to change.
public struct LibraryReadOnlyError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// What was to be done ("upgrading it to schema 9", "herald add").
    public var what: String

    public init(path: String, reason: String, what: String) {
        (self.path, self.reason, self.what) = (path, reason, what)
    }

    public var description: String {
        "the library \(path) cannot be written: \(reason); \(what) needs to write it "
            + "(reading commands work: herald list, search, tags, the reader)"
    }
}
