import Dispatch
import Foundation
import FuzzSupport
import HeraldCore
import HeraldStore
import HeraldSync
import Synchronization

/// Another device's files in the sync folder, read and merged into a real library: the
/// input is a folder (see `FolderInput`) written to a fresh directory, then one sync runs
/// (`SyncEngine.run`: the file reader, the merge, applying the state). A sync either
/// reports or throws a `SyncError`; it never traps, never writes outside its folder (a link
/// planted there points at a sentinel file that must not change), never subscribes to an
/// address a synced feed may not have, and leaves the library whole (`PRAGMA
/// integrity_check`, every 64 runs). Every line is also decoded on its own: a line that
/// decodes encodes back to one that decodes the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSync(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FolderInput(UnsafeRawBufferPointer(start: start, count: count))
    for file in input.files { checkLines(file.bytes) }
    let run = Runs.next()
    let folder = Runs.root.appendingPathComponent(String(run))
    defer { try? FileManager.default.removeItem(at: folder) }
    input.write(to: folder, run: run, sentinel: Runs.sentinel.path)
    let outcome = onDatabaseActor { store in
        do {
            _ = try SyncEngine(store: store, folder: folder).run()
        } catch let error as SyncError {
            _ = error.description
        } catch {
            Invariant.require(false, "a sync threw \(error), not a SyncError")
        }
        for subscription in (try? store.subscriptions()) ?? [] {
            Invariant.require(
                FeedAddress.isHTTP(subscription.url),
                "subscribed from another device to \(subscription.url.debugDescription)")
        }
        return run % 64 == 0 ? ((try? store.integrityCheck()) ?? "failed") : "ok"
    }
    Invariant.require(outcome == "ok", "integrity check: \(outcome)")
    let sentinel = FileManager.default.contents(atPath: Runs.sentinel.path).map { Array($0) } ?? []
    Invariant.require(sentinel == Runs.sentinelBytes, "a sync wrote through a link to a file outside its folder")
    return 0
}

/// Makes the scratch directory and opens the library before the first input, so what they
/// keep for the whole run is not taken for a leak of that input.
@_cdecl("LLVMFuzzerInitialize")
public func initializeSyncFuzz(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    _ = Runs.root
    _ = onDatabaseActor { _ in "ok" }
    return 0
}

/// Each line of `bytes`: a decoded one encodes back to a line that decodes the same.
private func checkLines(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var start = 0
        while start < buffer.count {
            let end = buffer[start...].firstIndex(of: 10) ?? buffer.count
            let line = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            if case .success(.operation(let stamp, let change)) = SyncRecord.decode(line) {
                let again = Array(SyncRecord.encode(stamp: stamp, change: change).utf8.dropLast())
                let decoded = again.withUnsafeBytes { SyncRecord.decode($0) }
                Invariant.require(
                    decoded == .success(.operation(stamp: stamp, change: change)),
                    "\(change) at \(stamp) encodes to a line that decodes as \(decoded)")
            }
            start = end + 1
        }
    }
}

/// Runs `body` on the database actor with the fuzzer's one library (opened once: a sync
/// folder is fresh each run, and new device ids make every run read its files from the
/// start) and waits for it.
private func onDatabaseActor(_ body: @escaping @DatabaseActor @Sendable (LibraryStore) -> String) -> String {
    let result = Mutex<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task { @DatabaseActor in
        let store = try? Runs.library()
        result.withLock { $0 = store.map(body) ?? "the library did not open" }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 } ?? ""
}

/// The run counter, the scratch directory (on a memory file system when there is one: sync
/// files are written with fsync) and the library.
enum Runs {
    static let root: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("herald-fuzz-sync-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: url.appendingPathComponent("sentinel").path, contents: Data(sentinelBytes))
        return url
    }()
    static var sentinel: URL { root.appendingPathComponent("sentinel") }
    /// An array, not `Data`: LeakSanitizer does not see the pointer in a global `Data`
    /// (it is kept in an enum's payload) and takes its bytes for a leak.
    static let sentinelBytes = Array("a file of the user's\n".utf8)
    private static let counter = Atomic<Int>(0)

    static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }

    @DatabaseActor private static var store: LibraryStore?

    @DatabaseActor
    static func library() throws -> LibraryStore {
        if let store { return store }
        let opened = try LibraryStore.open(path: root.appendingPathComponent("library.db").path)
        store = opened
        return opened
    }
}

extension FeedAddress {
    /// An address with a scheme a feed from elsewhere may have.
    static func isHTTP(_ url: String) -> Bool {
        let scheme = URL(string: url)?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }
}
