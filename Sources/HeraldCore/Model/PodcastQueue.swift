import Foundation

/// One episode in the podcast download queue (podboat's queue): where it comes from, the file
/// it goes to, and how far it got.
public struct Download: Sendable, Equatable, Identifiable {
    /// podboat's states, less its "deleted" (a removed entry is gone) and "ready".
    public enum State: String, Sendable, CaseIterable {
        /// Waiting for a free slot (`max-downloads`), or for `d`.
        case queued
        case downloading
        /// On disk, whole.
        case finished
        /// Stopped with an error (`error` says why); the partial file is kept for a resume.
        case failed
        /// Stopped by the user (`c`); the partial file is kept for a resume.
        case cancelled
        /// Finished, then played (`p`, or `m` to mark it so).
        case played
    }

    public var id: Int64
    /// The episode's address (the enclosure's URL; from a feed, so hostile).
    public var url: String
    /// The file it goes to (absolute, inside `download-path`); while it downloads, the bytes
    /// are in `partPath`.
    public var path: String
    public var title: String
    public var feedTitle: String
    public var state: State
    /// The whole file's size in bytes, when known (the server's or the feed's).
    public var size: Int64?
    /// Bytes on disk (finished: the file's size).
    public var received: Int64
    /// Bytes a second over the last seconds, while it downloads.
    public var speed: Double?
    /// Why it failed, in words.
    public var error: String?
    /// When it was added (seconds since 1970).
    public var added: Int64

    public init(
        id: Int64, url: String, path: String, title: String, feedTitle: String, state: State,
        size: Int64? = nil, received: Int64 = 0, speed: Double? = nil, error: String? = nil, added: Int64 = 0
    ) {
        (self.id, self.url, self.path, self.title, self.feedTitle) = (id, url, path, title, feedTitle)
        (self.state, self.size, self.received, self.speed, self.error, self.added) =
            (state, size, received, speed, error, added)
    }

    /// Where the bytes go until the file is whole (`NAME.part` beside it).
    public var partPath: String { Self.partPath(of: path) }

    public static func partPath(of path: String) -> String { path + ".part" }

    /// `name (2).mp3` for the `attempt`th file of that name (attempt 1: the name itself).
    public static func numbered(_ path: String, _ attempt: Int) -> String {
        guard attempt > 1 else { return path }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let stem = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(
            "\(stem) (\(attempt))" + (ext.isEmpty ? "" : ".\(ext)")
        ).path
    }

    /// How far it got, from 0 to 1, when the size is known.
    public var fraction: Double? {
        if state == .finished || state == .played { return 1 }
        guard let size, size > 0 else { return nil }
        return min(1, Double(received) / Double(size))
    }
}

/// What the reader's `e` (and `herald podcasts add`) asks the queue for.
public struct DownloadRequest: Sendable, Equatable {
    public var url: String
    public var path: String
    public var title: String
    public var feedTitle: String
    /// The size the feed gives, if any (until the server says).
    public var size: Int64?

    public init(url: String, path: String, title: String, feedTitle: String, size: Int64? = nil) {
        (self.url, self.path, self.title, self.feedTitle, self.size) = (url, path, title, feedTitle, size)
    }
}

/// What adding an episode came to.
public enum EnqueueOutcome: Sendable, Equatable {
    case added(Download)
    /// That address is in the queue already.
    case alreadyQueued(Download)
}

/// The podcast queue as the reader sees it: the entries, and the user's actions on them.
/// Downloads run off the main actor (the reader's keys never wait for them); `changes` says
/// when an entry moved (its state, or a few times a second its bytes while it downloads).
public protocol PodcastQueue: Sendable {
    /// Every entry, oldest first, with the bytes on disk now.
    func entries() async throws -> [Download]
    /// Adds an episode; it downloads when a slot is free.
    func enqueue(_ request: DownloadRequest) async throws -> EnqueueOutcome
    /// Downloads an entry now, or again (a failed or cancelled one resumes where it stopped).
    func download(id: Int64) async throws
    /// Stops an entry's download, keeping what it has for a resume; false when nothing here
    /// was to stop (finished, or another process downloads it).
    func cancel(id: Int64) async throws -> Bool
    /// Marks an entry played (or finished again).
    func setPlayed(_ played: Bool, id: Int64) async throws
    /// Removes an entry (stopping it); its partial file goes, a downloaded file stays (a played
    /// one's goes with `deletingFile`).
    func remove(id: Int64, deletingFile: Bool) async throws
    /// Removes the played entries (their files stay, unless `deletingFiles`); returns how many
    /// went.
    func purge(deletingFiles: Bool) async throws -> Int
    /// At most this many download at once.
    func setMaxDownloads(_ count: Int) async
    /// Yields when an entry changed; never ends while the queue lives.
    func changes() async -> AsyncStream<Void>
}
