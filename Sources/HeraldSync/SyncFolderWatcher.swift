public import Foundation
import Glibc
import Synchronization

/// Tells when another device's files in the sync folder change, through inotify: a watch on
/// the folder (a device folder appearing) and one on each other device's folder (a segment
/// or snapshot written, or renamed into place as Syncthing and Dropbox do).
///
/// One thread of its own sleeps in `poll(2)` on the inotify descriptor and a pipe that wakes
/// it to stop: waiting costs no CPU. Changes close together come out as one signal (the
/// stream keeps only the newest); the reader's sync schedule coalesces the rest. This
/// device's own folder is not watched: its writes are not news.
public final class SyncFolderWatcher: Sendable {
    public let folder: URL

    private struct State {
        var inotify: Int32 = -1
        /// The pipe whose write end stops the thread.
        var wake: (read: Int32, write: Int32) = (-1, -1)
        var root: Int32 = -1
        /// Watch descriptor → device id.
        var devices: [Int32: String] = [:]
        /// This device's id, once known: its folder is not watched.
        var own: String?
    }

    private let state = Mutex(State())

    public init(folder: URL) { self.folder = folder }

    /// Starts watching; the stream ends when `stop()` is called or its consumer goes away.
    /// A folder that cannot be watched (missing, no inotify) gives a stream that never
    /// signals: the timer's syncs still run and report why.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let started = state.withLock { state -> Bool in
            guard state.inotify < 0 else { return false }
            var ends: [Int32] = [-1, -1]
            let descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0, pipe(&ends) == 0 else {
                if descriptor >= 0 { close(descriptor) }
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
        refresh(own: nil)
        continuation.onTermination = { [self] _ in stop() }
        let thread = Thread { [self] in run(continuation) }
        thread.name = "herald-sync-watch"
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

    /// Watches the folder and every other device's folder in it, and stops watching `own`
    /// (this device's). Cheap (one directory listing): called before and after each sync.
    public func refresh(own: String?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        state.withLock { state in
            guard state.inotify >= 0 else { return }
            if let own { state.own = own }
            if state.root < 0 {
                state.root = inotify_add_watch(state.inotify, folder.path, Self.folderEvents)
            }
            for name in names where SyncEngine.isDeviceID(name) {
                Self.watch(name, in: &state, folder: folder)
            }
            if let own = state.own, let descriptor = state.devices.first(where: { $0.value == own })?.key {
                inotify_rm_watch(state.inotify, descriptor)
                state.devices[descriptor] = nil
            }
        }
    }

    /// How many folders are watched (the sync folder counts as one): for tests.
    public var watchedFolders: Int {
        state.withLock { ($0.root >= 0 ? 1 : 0) + $0.devices.count }
    }

    // MARK: The thread

    static let folderEvents = UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_ONLYDIR)
    /// A device folder that is a symbolic link is not watched (nor read: `DeviceFolder`).
    static let deviceEvents =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)

    private static func watch(_ device: String, in state: inout State, folder: URL) {
        guard device != state.own, !state.devices.values.contains(device) else { return }
        let path = folder.appendingPathComponent(device).path
        let descriptor = inotify_add_watch(state.inotify, path, deviceEvents)
        if descriptor >= 0 { state.devices[descriptor] = device }
    }

    private func run(_ continuation: AsyncStream<Void>.Continuation) {
        let (inotify, wake) = state.withLock { ($0.inotify, $0.wake.read) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
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
            if news(in: buffer[0..<count]) { continuation.yield(()) }
        }
        continuation.finish()
        state.withLock { state in
            close(state.inotify)
            close(state.wake.read)
            close(state.wake.write)
            state = State()
        }
    }

    /// Whether the events in `bytes` (whole `inotify_event`s) are a change to read: a
    /// device folder created in the sync folder (it is watched from now on), or a
    /// segment or snapshot written in another device's folder.
    private func news(in bytes: ArraySlice<UInt8>) -> Bool {
        var news = false
        var offset = bytes.startIndex
        let header = 16  // int wd; uint32 mask, cookie, len; then the name, NUL-padded.
        while offset + header <= bytes.endIndex {
            func word(_ at: Int) -> UInt32 {
                (0..<4).reduce(0) { $0 | UInt32(bytes[offset + at + $1]) << (8 * UInt32($1)) }
            }
            let descriptor = Int32(bitPattern: word(0))
            let mask = word(4)
            let length = Int(word(12))
            let nameBytes = bytes[(offset + header)..<min(offset + header + length, bytes.endIndex)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += header + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                news = true
                continue
            }
            state.withLock { state in
                if mask & UInt32(IN_IGNORED) != 0 {
                    state.devices[descriptor] = nil
                    if descriptor == state.root { state.root = -1 }
                } else if descriptor == state.root {
                    guard SyncEngine.isDeviceID(name), name != state.own else { return }
                    Self.watch(name, in: &state, folder: folder)
                    news = true
                } else if state.devices[descriptor] != nil, Self.isSyncFile(name) {
                    news = true
                }
            }
        }
        return news
    }

    /// A segment or a snapshot (not a temporary file a sync engine writes before renaming).
    static func isSyncFile(_ name: String) -> Bool {
        (name.hasPrefix("ops-") && name.hasSuffix(".log")) || name.hasPrefix("snapshot-")
    }
}
