import Foundation
public import HeraldCore
public import HeraldFetch
public import HeraldStore
import Synchronization

/// The podcast queue and its downloads (podboat's, inside the reader and `herald podcasts`):
/// the entries live in the library (`LibraryStore+Downloads.swift`), the bytes go to disk on
/// a thread per download (`EpisodeDownload`), at most `maxDownloads` at once, oldest first.
///
/// The library is written when an entry's state changes, never for its bytes: those are read
/// from the file (`entries()`), or from the running download's counter. While something
/// downloads, `changes()` yields four times a second (for a progress bar); otherwise only
/// when an entry moves, so an idle queue costs nothing.
public actor PodcastDownloads: PodcastQueue {
    let store: LibraryStore
    private var maxDownloads: Int
    private let limits: EpisodeDownload.Limits
    /// Downloads start by themselves as slots free up (the reader's queue, `herald podcasts
    /// download`); false: only `download(id:)` starts one.
    private let automatic: Bool
    private var running: [Int64: Transfer] = [:]
    /// Entries removed while their download ran: their part goes when it stops.
    private var removing: Set<Int64> = []
    /// Entries `d` asked for while their download was stopping: started again when it has.
    private var restarting: Set<Int64> = []
    private var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]
    private var ticker: Task<Void, Never>?
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var pumping = false
    private var pumpAgain = false

    /// One running download: its counters (written by its thread) and its stop flag.
    final class Transfer: Sendable {
        let cancelled = Atomic<Bool>(false)
        let counters = Mutex<(received: Int64, total: Int64?)>((0, nil))
        /// Bytes and time at the last tick, for the speed.
        /// (nil: not yet: the first tick takes what was on disk already as its start).
        let sampled = Mutex<(received: Int64, at: ContinuousClock.Instant, speed: Double?)?>(nil)
    }

    public init(
        store: LibraryStore, maxDownloads: Int, limits: EpisodeDownload.Limits = .init(), automatic: Bool = true
    ) {
        self.store = store
        self.maxDownloads = max(1, maxDownloads)
        self.limits = limits
        self.automatic = automatic
    }

    /// Downloads left running by a process that ended go back to the queue, and the queue
    /// starts (resuming them where their part files stop).
    public func resume() async throws {
        guard !store.access.isReadOnly else { return }
        try await store.requeueInterruptedDownloads()
        await pump()
    }

    // MARK: PodcastQueue

    public func entries() async throws -> [Download] {
        var entries = try await store.downloadEntries()
        for index in entries.indices {
            let entry = entries[index]
            if let transfer = running[entry.id] {
                let counters = transfer.counters.withLock { $0 }
                entries[index].received = counters.received
                entries[index].size = counters.total ?? entry.size
                entries[index].speed = transfer.sampled.withLock { $0?.speed }
            } else {
                let file = entry.state == .finished || entry.state == .played ? entry.path : entry.partPath
                entries[index].received = Self.size(of: file) ?? 0
            }
        }
        return entries
    }

    public func enqueue(_ request: DownloadRequest) async throws -> EnqueueOutcome {
        // Two episodes named alike (`episode.mp3` of two feeds) get two files.
        let outcome = try await store.addDownload(
            request, added: Int64(Date().timeIntervalSince1970), numbering: true)
        if case .added = outcome {
            notify()
            await pump()
        }
        return outcome
    }

    public func download(id: Int64) async throws {
        if let transfer = running[id] {
            // Stopping (a `c` just before): it starts again once it has stopped.
            if transfer.cancelled.load(ordering: .relaxed) { restarting.insert(id) }
            return
        }
        guard let entry = try await store.downloadEntry(id: id) else { return }
        guard entry.state != .finished, entry.state != .played else { return }
        // Started now, past `max-downloads` if need be: the user asked for this one. One shown
        // downloading that no download here runs (another process's, or one that died) is
        // taken over if its part is free, else left to its process.
        try await launch(entry, from: [.queued, .failed, .cancelled, .downloading])
    }

    public func cancel(id: Int64) async throws -> Bool {
        restarting.remove(id)
        if let transfer = running[id] {
            transfer.cancelled.store(true, ordering: .relaxed)
            return true
        }
        guard let entry = try await store.downloadEntry(id: id), entry.state == .queued else { return false }
        try await store.setDownloadState(id: id, .cancelled)
        notify()
        return true
    }

    public func setPlayed(_ played: Bool, id: Int64) async throws {
        guard let entry = try await store.downloadEntry(id: id),
            entry.state == .finished || entry.state == .played
        else { return }
        try await store.setDownloadState(id: id, played ? .played : .finished)
        notify()
    }

    public func remove(id: Int64, deletingFile: Bool) async throws {
        if let transfer = running[id] {
            removing.insert(id)
            transfer.cancelled.store(true, ordering: .relaxed)
        }
        guard let entry = try await store.removeDownload(id: id) else { return }
        if running[id] == nil { Self.unlinkFile(entry.partPath) }
        // Only a played episode's file goes: one downloaded and never played stays.
        if deletingFile, entry.state == .played { Self.unlinkFile(entry.path) }
        notify()
    }

    public func purge(deletingFiles: Bool) async throws -> Int {
        // podboat's purge: the episodes done with (played); downloaded ones wait to be heard.
        let gone = try await store.removeDownloads(in: [.played])
        if deletingFiles {
            for entry in gone { Self.unlinkFile(entry.path) }
        }
        if !gone.isEmpty { notify() }
        return gone.count
    }

    /// Removes a regular file (never a folder, never through a link).
    static func unlinkFile(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        unlink(path)
    }

    public func setMaxDownloads(_ count: Int) async {
        maxDownloads = max(1, count)
        await pump()
    }

    public func changes() async -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = UUID()
        listeners[key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.forget(key) }
        }
        return stream
    }

    /// Returns when nothing downloads and nothing queued is left to start.
    public func waitUntilIdle() async {
        await pump()
        guard pumping || !running.isEmpty else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    // MARK: Running

    private func forget(_ key: UUID) { listeners[key] = nil }

    private func notify() {
        for listener in listeners.values { listener.yield() }
    }

    /// Starts queued entries, oldest first, while slots are free. One pump at a time: one that
    /// is asked for while another runs (it awaits the library) makes that one look again.
    private func pump() async {
        if pumping {
            pumpAgain = true
            return
        }
        pumping = true
        repeat {
            pumpAgain = false
            guard automatic, running.count < maxDownloads,
                let queued = try? await store.downloadEntries().filter({ $0.state == .queued })
            else { continue }
            for entry in queued where running.count < maxDownloads && running[entry.id] == nil {
                try? await launch(entry, from: [.queued])
            }
        } while pumpAgain
        pumping = false
        if running.isEmpty {
            for waiter in idleWaiters { waiter.resume() }
            idleWaiters.removeAll()
        }
    }

    /// Starts an entry's download if the library still has it in one of `states` (a cancel or
    /// a removal that came while the pump read the queue wins).
    private func launch(_ entry: Download, from states: Set<Download.State>) async throws {
        // Taken before the first await: nothing else starts this entry meanwhile.
        guard running[entry.id] == nil else { return }
        let transfer = Transfer()
        // What is on disk already counts until the first new bytes arrive.
        transfer.counters.withLock { $0 = (Self.size(of: entry.partPath) ?? 0, entry.size) }
        running[entry.id] = transfer
        let started: Bool
        do {
            started = try await store.startDownload(id: entry.id, from: states)
        } catch {
            running[entry.id] = nil
            throw error
        }
        guard started else {
            running[entry.id] = nil
            return
        }
        notify()
        startTicker()
        let (url, path, limits, id) = (entry.url, entry.path, limits, entry.id)
        let thread = Thread { [self] in
            // Below the reader's priority, as parsing is (`BackgroundWorkers`): a key wakes the
            // main thread at once while a download writes.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            let outcome = EpisodeDownload.run(
                url: url, to: path, limits: limits,
                progress: { received, total in transfer.counters.withLock { $0 = (received, total) } },
                isCancelled: { transfer.cancelled.load(ordering: .relaxed) })
            Task { await self.ended(id, outcome, part: Download.partPath(of: path)) }
        }
        thread.name = "herald-download"
        thread.start()
    }

    private func ended(_ id: Int64, _ outcome: EpisodeDownload.Outcome, part: String) async {
        running[id] = nil
        if removing.remove(id) != nil {
            // Removed while it ran: what it had goes (a file it finished meanwhile stays).
            if case .finished = outcome {} else { Self.unlinkFile(part) }
        } else {
            let (state, size, error): (Download.State, Int64?, String?)
            switch outcome {
            case .finished(let bytes): (state, size, error) = (.finished, bytes, nil)
            case .failed(let why, _): (state, size, error) = (.failed, nil, why)
            case .cancelled: (state, size, error) = (.cancelled, nil, nil)
            // Another process has it (its part is locked): it says when it is done; `d` here
            // takes it over once it is free.
            case .elsewhere: (state, size, error) = (.downloading, nil, nil)
            }
            // A library busy past its timeout (a reload from cron) must not leave the entry
            // shown downloading: the state is tried again a few times.
            for attempt in 1...4 {
                do {
                    try await store.setDownloadState(id: id, state, size: size, error: error)
                    break
                } catch {
                    if attempt < 4 { try? await Task.sleep(for: .seconds(1)) }
                }
            }
        }
        notify()
        if restarting.remove(id) != nil, let entry = try? await store.downloadEntry(id: id) {
            try? await launch(entry, from: [.cancelled, .queued, .failed])
        }
        await pump()
    }

    /// While something downloads: the speeds, and a change four times a second.
    private func startTicker() {
        guard ticker == nil || ticker!.isCancelled else { return }
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                guard let self, await self.tick() else { return }
            }
        }
    }

    private func tick() -> Bool {
        guard !running.isEmpty else {
            ticker = nil
            return false
        }
        let now = ContinuousClock.now
        for transfer in running.values {
            let received = transfer.counters.withLock { $0.received }
            transfer.sampled.withLock { sample in
                guard let last = sample else {
                    sample = (received, now, nil)
                    return
                }
                let seconds = (now - last.at) / .seconds(1)
                guard seconds >= 1 else { return }
                let current = Double(received - last.received) / seconds
                sample = (received, now, last.speed.map { $0 * 0.5 + current * 0.5 } ?? current)
            }
        }
        notify()
        return true
    }

    static func size(of path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }
}
