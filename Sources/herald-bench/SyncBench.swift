import Foundation
import HeraldStore
import HeraldSync

/// `herald-bench sync-merge [--operations N] [--devices D] [--dir DIR [--reuse]]`: writes N operations
/// of D other devices into a sync folder (1 MiB segments: subscriptions of 1,000 feeds, then
/// read/starred flips on 200,000 articles, with repeats, as a year of reading would), then
/// times one `herald sync` of a new library with it, and prints the peak memory (VmHWM) of
/// the whole process. The articles are not in the library: the flags wait for them, as
/// they would on a new machine before its first reload.
enum SyncBench {
    static func run(operations: Int, devices: Int, directory: String?, reuse: Bool = false) async throws {
        let root = URL(fileURLWithPath: directory ?? NSTemporaryDirectory() + "herald-sync-bench-\(getpid())")
        let folder = root.appendingPathComponent("folder")
        let database = root.appendingPathComponent("herald.db")
        if reuse && FileManager.default.fileExists(atPath: folder.path) {
            // The folder of an earlier run, merged again into a new library (for a profiler).
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: database.path + suffix)
            }
        } else {
            try? FileManager.default.removeItem(at: root)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let started = ContinuousClock.now
            let bytes = try write(operations: operations, devices: devices, to: folder)
            // On disk before the merge starts, as a sync engine's copies would be: the
            // kernel writing 60 MB back would otherwise share the merge's time.
            sync()
            print(
                "sync-merge: wrote \(operations) operations of \(devices) devices, \(bytes / 1_048_576) MiB, in "
                    + "\(seconds(ContinuousClock.now - started))")
        }
        defer { if directory == nil { try? FileManager.default.removeItem(at: root) } }
        print("sync-merge: peak memory before merging \(peakKiB() / 1024) MiB")
        let store = try await LibraryStore.open(path: database.path)
        let merging = ContinuousClock.now
        let cpuBefore = cpuSeconds()
        let report = try await merge(store: store, folder: folder)
        let elapsed = ContinuousClock.now - merging
        let cpu = cpuSeconds() - cpuBefore
        print(
            "sync-merge: merged \(report.read) operations (\(report.won) newer) in \(seconds(elapsed)) "
                + String(format: "(CPU %.2f s user %.2f s system); ", cpu.user, cpu.system)
                + "\(report.applied.subscribed) feeds subscribed; \(report.problems.count) problems")
        print("sync-merge: peak memory \(peakKiB() / 1024) MiB (VmHWM, whole process)")
    }

    @DatabaseActor
    static func merge(store: LibraryStore, folder: URL) throws -> SyncReport {
        try SyncEngine(store: store, folder: folder).run()
    }

    static func write(operations: Int, devices: Int, to folder: URL) throws -> Int {
        var random = SystemRandomNumberGenerator()
        var total = 0
        let feeds = 1_000
        let articles = 200
        for device in 0..<devices {
            let id = String(format: "%016x%016x", device + 1, 0xbe7c4)
            let directory = folder.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var segment = 1
            var text = SyncRecord.header
            var stamp: Int64 = (1_790_000_000_000 + Int64(device)) << HybridClock.counterBits
            let count = operations / devices + (device < operations % devices ? 1 : 0)
            func flush() throws {
                let name = "ops-" + String(format: "%06d", segment) + ".log"
                try Data(text.utf8).write(to: directory.appendingPathComponent(name))
                total += text.utf8.count
                segment += 1
                text = SyncRecord.header
            }
            for index in 0..<count {
                stamp += Int64.random(in: 1...70_000, using: &random)
                let feed = index < feeds ? index : Int.random(in: 0..<feeds, using: &random)
                let url = "https://blog\(feed).example.org/feeds/all.atom.xml"
                let change: SyncChange
                if index < feeds {
                    change = SyncChange(kind: .sub, feedURL: url, value: "1")
                } else {
                    let guid =
                        "tag:blog\(feed).example.org,2026:/posts/\(Int.random(in: 0..<articles, using: &random))"
                    let kind: SyncChange.Kind = Int.random(in: 0..<5, using: &random) == 0 ? .star : .read
                    change = SyncChange(
                        kind: kind, feedURL: url, guid: guid, value: Bool.random(using: &random) ? "1" : "0")
                }
                text += SyncRecord.encode(stamp: stamp, change: change)
                if text.utf8.count > 1 << 20 { try flush() }
            }
            try flush()
        }
        return total
    }

    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return String(format: "%.2f s", Double(whole) + Double(attoseconds) / 1e18)
    }

    /// CPU seconds used so far by the process (user, system): on a loaded machine the wall
    /// time includes waiting for a core.
    static func cpuSeconds() -> (user: Double, system: Double) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (value(usage.ru_utime), value(usage.ru_stime))
    }

    /// The process's peak resident memory, KiB.
    static func peakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

func - (a: (user: Double, system: Double), b: (user: Double, system: Double)) -> (
    user: Double, system: Double
) {
    (a.user - b.user, a.system - b.system)
}
