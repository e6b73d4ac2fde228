import CCurl
import Foundation
import Synchronization

/// A request handed to the loop thread, with the continuation its outcome resumes.
struct CurlJob: Sendable {
    var id: UInt64
    var request: FetchRequest
    var limits: FetchLimits
    var continuation: CheckedContinuation<CurlOutcome, Never>
}

/// The ids of paused transfers, oldest first (loop thread only).
final class PauseQueue {
    private var ids: [UInt64] = []
    private var start = 0

    func append(_ id: UInt64) { ids.append(id) }

    var count: Int { ids.count - start }

    func next() -> UInt64? {
        guard start < ids.count else { return nil }
        defer {
            start += 1
            if start > 64 && start * 2 > ids.count {
                ids.removeFirst(start)
                start = 0
            }
        }
        return ids[start]
    }
}

/// One thread driving a libcurl multi handle: every transfer of a fetcher runs on it, and
/// between events it sleeps in `curl_multi_poll` (in the kernel, at no CPU cost), woken by
/// the sockets, libcurl's next timeout or `curl_multi_wakeup` when a request arrives.
///
/// This replaces URLSession, whose Linux implementation drives the same libcurl but spins
/// while a response is pending (13.7 CPU-seconds in 15 s waiting on one silent server).
///
/// `@unchecked Sendable`: the multi handle and the transfers are touched only on the loop
/// thread; other threads reach the loop through `inbox` (a Mutex) and `curl_multi_wakeup`,
/// which libcurl documents as callable from any thread.
final class CurlLoop: @unchecked Sendable {
    private enum Command {
        case start(CurlJob)
        case cancel(UInt64)
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<(commands: [Command], stopped: Bool)>(([], false))
    // Loop thread only.
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var handles: [UInt64: UnsafeMutableRawPointer] = [:]
    /// Cancelled before their start reached the loop.
    private var cancelledEarly: Set<UInt64> = []
    /// Transfers waiting for room in the budget, oldest first.
    private let paused = PauseQueue()
    private var lastExpiry = ContinuousClock.now
    let budget: BodyBudget?

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_ALL)) }()

    /// Starts the loop's thread. `perHost` and `total` cap the connections libcurl opens.
    init?(perHost: Int, total: Int, bodyBudget: Int?) {
        Self.globalInit
        self.budget = bodyBudget.map(BodyBudget.init(limit:))
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        hc_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        hc_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, total)
        hc_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, total)
        // One transfer per connection (HTTP/2 is still spoken): with libcurl 7.88, a transfer
        // paused for the body budget could stall the others multiplexed on its connection.
        hc_multi_setopt_long(multi, CURLMOPT_PIPELINING, 0)
        let thread = Thread { [self] in run() }
        thread.name = "herald-fetch"
        thread.start()
    }

    /// Runs a request to its end (or its cancellation).
    func perform(_ request: FetchRequest, limits: FetchLimits, id: UInt64) async -> CurlOutcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                send(.start(CurlJob(id: id, request: request, limits: limits, continuation: continuation)))
            }
        } onCancel: {
            send(.cancel(id))
        }
    }

    /// The caller is done with a body: its bytes leave the budget, the lead is free if
    /// `transfer` held it (see `BodyBudget`), and a paused transfer may go on.
    func release(bytes: Int, transfer: UInt64? = nil) {
        guard let budget, bytes > 0 || transfer != nil else { return }
        if let transfer { budget.end(transfer) }
        if bytes > 0 { budget.release(bytes) }
        curl_multi_wakeup(multi)
    }

    /// Ends the thread once the transfers under way are cancelled.
    func stop() {
        inbox.withLock { $0.stopped = true }
        curl_multi_wakeup(multi)
    }

    private func send(_ command: Command) {
        inbox.withLock { $0.commands.append(command) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        var running: Int32 = 0
        while true {
            let (commands, stopped) = inbox.withLock { inbox in
                defer { inbox.commands.removeAll() }
                return (inbox.commands, inbox.stopped)
            }
            for command in commands { handle(command) }
            if stopped { break }
            curl_multi_perform(multi, &running)
            collectFinished()
            resumePaused()
            expireOverdue()
            // Sleep until a socket is ready, libcurl's next timer is due or a request comes.
            var timeout = -1
            curl_multi_timeout(multi, &timeout)
            let wait = timeout < 0 || timeout > 1000 ? 1000 : timeout
            curl_multi_poll(multi, nil, 0, Int32(wait), nil)
        }
        for id in Array(handles.keys) { handle(.cancel(id)) }
        curl_multi_cleanup(multi)
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let job):
            if cancelledEarly.remove(job.id) != nil {
                var outcome = CurlOutcome()
                outcome.cancelled = true
                return job.continuation.resume(returning: outcome)
            }
            guard let transfer = CurlTransfer(job: job, budget: budget, pauses: paused) else {
                var outcome = CurlOutcome()
                outcome.code = CURLE_OUT_OF_MEMORY
                outcome.message = "cannot start a transfer (out of memory)"
                return job.continuation.resume(returning: outcome)
            }
            guard curl_multi_add_handle(multi, transfer.easy) == CURLM_OK else {
                var outcome = CurlOutcome()
                outcome.code = CURLE_FAILED_INIT
                outcome.message = "cannot start a transfer"
                return job.continuation.resume(returning: outcome)
            }
            transfers[transfer.easy] = transfer
            handles[job.id] = transfer.easy
        case .cancel(let id):
            guard let easy = handles.removeValue(forKey: id),
                let transfer = transfers.removeValue(forKey: easy)
            else {
                // Not started yet: its start is behind in the inbox. (Or already finished:
                // then the id stays in the set, a few bytes, and never comes again.)
                cancelledEarly.insert(id)
                return
            }
            curl_multi_remove_handle(multi, easy)
            var outcome = transfer.outcome
            outcome.cancelled = true
            transfer.continuation.resume(returning: outcome)
        }
    }

    /// Lets paused transfers receive, oldest first, while the budget has room. (A resumed
    /// transfer may be handed its first bytes at once, and take the room.)
    private func resumePaused() {
        // One pass at most: a transfer resumed here may be handed its bytes at once and
        // pause again (no room, and the lead taken), going to the back of the queue.
        // A transfer that has not started its body needs room; one paused past its
        // reservation needs room or a free lead. One that cannot go on is not resumed (that
        // would only have libcurl hand it the same bytes again): it keeps its place.
        guard let budget else { return }
        var turns = paused.count
        while turns > 0, budget.hasRoom || budget.leadIsFree, let id = paused.next() {
            turns -= 1
            guard let easy = handles[id], let transfer = transfers[easy], transfer.paused else { continue }
            guard budget.hasRoom || transfer.isAdmitted else {
                paused.append(id)
                continue
            }
            transfer.paused = false
            hc_resume(easy)
        }
    }

    /// Ends the fetches that have run longer than their limit (checked at most once a
    /// second: the poll below wakes at least that often).
    private func expireOverdue() {
        let now = ContinuousClock.now
        guard now - lastExpiry >= .seconds(1) else { return }
        lastExpiry = now
        for (easy, transfer) in transfers where transfer.isOverdue(at: now) {
            transfers.removeValue(forKey: easy)
            handles.removeValue(forKey: transfer.id)
            curl_multi_remove_handle(multi, easy)
            var outcome = transfer.finish(CURLE_OPERATION_TIMEDOUT)
            outcome.expired = true
            transfer.continuation.resume(returning: outcome)
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = transfers.removeValue(forKey: easy)
            else { continue }
            let code = hc_message_result(message)
            handles.removeValue(forKey: transfer.id)
            let outcome = transfer.finish(code)
            curl_multi_remove_handle(multi, easy)
            transfer.continuation.resume(returning: outcome)
        }
    }
}
