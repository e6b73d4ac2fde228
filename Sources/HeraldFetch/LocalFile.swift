public import Foundation

/// Reads a local file the way the network is read: at most `limit` bytes, whatever the file
/// is. A FIFO or `/dev/stdin` is read as it flows (`herald parse <(curl …)`), a device that
/// never ends (`/dev/zero`) stops at the limit, and a directory or a missing file says so.
public enum LocalFile {
    /// The contents of `path` ("-" is standard input). `regularOnly`: anything but a regular
    /// file is refused without waiting on it (a subscription's `file:` feed: a reload must
    /// never read the terminal, a FIFO that no one writes, or a device that never ends; the
    /// config file; newsboat's files).
    public static func read(_ path: String, limit: Int, regularOnly: Bool = false) throws(FetchError) -> Data
    {
        if path == "-" { return try read(descriptor: 0, path: "standard input", limit: limit) }
        // O_NONBLOCK: opening a FIFO does not wait for a writer (the mode is undone below).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK | O_NOCTTY : 0))
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .fileNotFound(path)
            case EACCES, EPERM: throw .other("permission denied: \(path)")
            default: throw .other("cannot open \(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { close(descriptor) }
        if regularOnly {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                throw .other("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw .other("\(path) is a directory, not a file")
            default: throw .other("\(path) is not a regular file (a device, a FIFO or a socket): not read")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        return try read(descriptor: descriptor, path: path, limit: limit)
    }

    static func read(descriptor: Int32, path: String, limit: Int) throws(FetchError) -> Data {
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw .other("\(path) is a directory, not a file")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EISDIR { throw .other("\(path) is a directory, not a file") }
                throw .other("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
