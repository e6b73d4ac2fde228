import Foundation
import Synchronization

/// Threads for the CPU-bound part of a reload (parsing feeds, HTML into text), one per core,
/// at a lower scheduling priority (nice 10) than the rest of the process.
///
/// Linux schedules threads, not tasks: Swift task priorities do not reach the kernel, and
/// the cooperative pool runs at the process's priority. With parsing on these threads, a
/// key press wakes the main thread at full priority while both cores are busy parsing, and
/// the kernel gives it a core at once (a nice-10 thread weighs a tenth of a nice-0 one).
/// When nothing else wants the cores, these threads have them all: a reload alone is not
/// slower.
final class BackgroundWorkers: Sendable {
    typealias Job = @Sendable () -> Void

    /// One per core, made on first use, for the life of the process.
    static let shared = BackgroundWorkers(threads: ProcessInfo.processInfo.activeProcessorCount)

    private let jobs = Mutex<[Job]>([])
    /// Counts the jobs queued: a worker sleeps in the kernel until there is one.
    private let ready = DispatchSemaphore(value: 0)

    init(threads: Int, niceness: Int32 = 10) {
        for n in 0..<max(threads, 1) {
            let thread = Thread { [self] in
                // Linux keeps the nice value per thread, and `who` 0 is the calling thread:
                // the rest of the process keeps its priority.
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                work()
            }
            thread.name = "herald-parse-\(n)"
            thread.start()
        }
    }

    /// Runs `body` on a worker and returns its result.
    func run<Value: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Value)
        async throws(Failure) -> Value
    {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            enqueue {
                continuation.resume(
                    returning: Result { () throws(Failure) -> Value in try body() })
            }
        }
        return try result.get()
    }

    private func enqueue(_ job: @escaping Job) {
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    private func work() {
        while true {
            ready.wait()
            let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            job?()
        }
    }
}
