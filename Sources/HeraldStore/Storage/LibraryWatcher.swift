public import Foundation
import Glibc
import Synchronization

/// Tells when the library's files change on disk, through inotify on their folder: another
/// process (`herald add`, `herald reload` from cron, a second reader) wrote it. The reader
/// then asks the store whether the data changed under another connection
/// (`LibraryStore.changedElsewhere`), so its own writes, which touch the same files, cost a
/// question and no work.
///
/// One thread of its own sleeps in `poll(2)` on the inotify descriptor and a pipe that wakes
/// it to stop: waiting costs no CPU. Changes close together come out as one signal.
public final class LibraryWatcher: Sendable {
    /// The database file; its `-wal` and `-journal` beside it count too.
    public let database: URL

    private struct State {
        var inotify: Int32 = -1
        var wake: (read: Int32, write: Int32) = (-1, -1)
    }

    private let state = Mutex(State())

    public init(database: URL) { self.database = database }

    /// Starts watching; the stream ends when `stop()` is called or its consumer goes away.
    /// A folder that cannot be watched gives a stream that never signals.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let folder = database.deletingLastPathComponent().path
        let started = state.withLock { state -> Bool in
            guard state.inotify < 0 else { return false }
            var ends: [Int32] = [-1, -1]
            let descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0, pipe(&ends) == 0,
                inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO))
                    >= 0
            else {
                if descriptor >= 0 { close(descriptor) }
                for end in ends where end >= 0 { close(end) }
                return false
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            state.inotify = descriptor
            state.wake = (ends[0], ends[1])
            return true
        }
        guard started else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [self] _ in stop() }
        let name = database.lastPathComponent
        let thread = Thread { [self] in run(continuation, name: name) }
        thread.name = "herald-library-watch"
        thread.start()
        return stream
    }

    /// Stops the thread (it closes the descriptors on its way out).
    public func stop() {
        state.withLock { state in
            guard state.wake.write >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(state.wake.write, &byte, 1)
        }
    }

    private func run(_ continuation: AsyncStream<Void>.Continuation, name: String) {
        let (inotify, wake) = state.withLock { ($0.inotify, $0.wake.read) }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var descriptors = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            // Asleep in the kernel until a change or the stop: no timeout, no polling.
            let ready = poll(&descriptors, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 { break }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { break }
            if Self.names(in: buffer[0..<count]).contains(where: { $0.hasPrefix(name) }) { continuation.yield(()) }
        }
        continuation.finish()
        state.withLock { state in
            close(state.inotify)
            close(state.wake.read)
            close(state.wake.write)
            state = State()
        }
    }

    /// The file names of whole `inotify_event`s.
    private static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let length = bytes[offset + 12..<offset + 16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let start = offset + header
            let end = min(start + length, bytes.endIndex)
            let raw = bytes[start..<end].prefix { $0 != 0 }
            names.append(String(decoding: raw, as: UTF8.self))
            offset = start + length
        }
        return names
    }
}
