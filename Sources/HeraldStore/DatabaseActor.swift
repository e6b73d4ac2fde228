import Foundation
import Synchronization

/// The one actor that owns the SQLite connection: every statement runs on it, one at a
/// time, and only `Sendable` values (plain structs) leave it.
///
/// It runs on a thread of its own (`DatabaseExecutor`) at a slightly lower priority than the
/// reader's: storing a reload's articles is most of a reload's CPU, and on the cooperative
/// pool it ran at the main thread's priority, so a key pressed during a reload waited for a
/// core behind it.
@globalActor
public actor DatabaseActor {
    public static let shared = DatabaseActor()

    private static let executor = DatabaseExecutor(niceness: 5)

    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }
}

/// A serial executor on one thread: jobs run in the order they were enqueued.
final class DatabaseExecutor: SerialExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    init(niceness: Int32) {
        let thread = Thread { [self] in
            // Linux keeps the nice value per thread; `who` 0 is the calling thread.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            run()
        }
        thread.name = "herald-database"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            // Everything queued, in order (the semaphore's extra counts then find none).
            let batch = jobs.withLock { jobs in
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
