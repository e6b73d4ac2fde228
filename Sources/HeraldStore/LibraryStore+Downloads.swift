import Foundation
public import HeraldCore

/// The podcast download queue (schema 15): one row per episode, its state and the file it
/// goes to. The bytes received are the file's own size, read by whoever shows them
/// (`PodcastDownloads`), so a download writes the library only when its state changes.
extension LibraryStore {
    /// Every entry, oldest first (`received` 0: the caller reads the file).
    public func downloadEntries() throws -> [Download] {
        let statement = try db.prepare(
            "SELECT id, url, path, title, feed_title, state, size, error, added FROM downloads ORDER BY id")
        var found: [Download] = []
        while try statement.step() { found.append(Self.download(statement)) }
        return found
    }

    public func downloadEntry(id: Int64) throws -> Download? {
        try db.prepare(
            "SELECT id, url, path, title, feed_title, state, size, error, added FROM downloads WHERE id = ?1"
        ).bind(.integer(id)).firstRow(Self.download)
    }

    private static func download(_ row: SQLiteStatement) -> Download {
        Download(
            id: row.int64(0), url: row.text(1) ?? "", path: row.text(2) ?? "", title: row.text(3) ?? "",
            feedTitle: row.text(4) ?? "", state: Download.State(rawValue: row.text(5) ?? "") ?? .failed,
            size: row.optionalInt64(6), error: row.text(7), added: row.int64(8))
    }

    /// Adds an entry, queued; an address already in the queue is left as it is. With
    /// `numbering`, a path another entry has, or a file (or part) on disk has, becomes `name
    /// (2).mp3`, `name (3).mp3` …: the choice and the insert are one step on the database's
    /// actor, so two adds at once never pick the same file.
    public func addDownload(_ request: DownloadRequest, added: Int64, numbering: Bool = false) throws -> EnqueueOutcome {
        if let known = try db.prepare(
            "SELECT id, url, path, title, feed_title, state, size, error, added FROM downloads WHERE url = ?1"
        ).bind(.text(request.url)).firstRow(Self.download) {
            return .alreadyQueued(known)
        }
        var request = request
        if numbering {
            for attempt in 1...1000 {
                let candidate = Download.numbered(request.path, attempt)
                let taken =
                    try downloadPathTaken(candidate) || FileManager.default.fileExists(atPath: candidate)
                    || FileManager.default.fileExists(atPath: Download.partPath(of: candidate))
                if !taken {
                    request.path = candidate
                    break
                }
            }
        }
        try db.prepare(
            "INSERT INTO downloads(url, path, title, feed_title, state, size, added) VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6)"
        ).bind(
            .text(request.url), .text(request.path), .text(request.title), .text(request.feedTitle),
            .optional(request.size), .integer(added)
        ).run()
        return .added(
            Download(
                id: db.lastInsertRowID, url: request.url, path: request.path, title: request.title,
                feedTitle: request.feedTitle, state: .queued, size: request.size, added: added))
    }

    /// Whether an entry goes to `path` already (two episodes named alike get two files).
    public func downloadPathTaken(_ path: String) throws -> Bool {
        try db.prepare("SELECT 1 FROM downloads WHERE path = ?1").bind(.text(path)).firstRow { _ in true } ?? false
    }

    /// Records an entry's new state; `size` nil keeps the known one, `error` is cleared
    /// unless given.
    public func setDownloadState(id: Int64, _ state: Download.State, size: Int64? = nil, error: String? = nil) throws {
        try db.prepare("UPDATE downloads SET state = ?2, size = coalesce(?3, size), error = ?4 WHERE id = ?1")
            .bind(.integer(id), .text(state.rawValue), .optional(size), .optional(error)).run()
    }

    /// Removes an entry; returns it (nil: there was none).
    public func removeDownload(id: Int64) throws -> Download? {
        let entry = try downloadEntry(id: id)
        try db.prepare("DELETE FROM downloads WHERE id = ?1").bind(.integer(id)).run()
        return entry
    }

    /// Marks an entry downloading if it is in one of `states` (a cancel or a removal that came
    /// meanwhile wins); whether it did.
    public func startDownload(id: Int64, from states: Set<Download.State>) throws -> Bool {
        let list = states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")
        return try db.prepareUncached(
            "UPDATE downloads SET state = 'downloading', error = NULL WHERE id = ?1 AND state IN (\(list)) RETURNING 1"
        ).bind(.integer(id)).firstRow { _ in true } ?? false
    }

    /// Removes the entries in these states; returns them.
    public func removeDownloads(in states: Set<Download.State>) throws -> [Download] {
        let gone = try downloadEntries().filter { states.contains($0.state) }
        try db.transaction {
            for entry in gone {
                try db.prepare("DELETE FROM downloads WHERE id = ?1").bind(.integer(entry.id)).run()
            }
        }
        return gone
    }

    /// Downloads a process left behind when it ended (a kill, a crash, `q`) go back to the
    /// queue: the next download resumes them.
    public func requeueInterruptedDownloads() throws {
        try db.execute("UPDATE downloads SET state = 'queued' WHERE state = 'downloading'")
    }
}

extension LibraryStore {
    /// The title of the article whose enclosure is at `url`, and its feed's (an episode
    /// imported from podboat's queue, which keeps only addresses).
    public func episodeTitles(url: String) throws -> (title: String, feed: String)? {
        // Enclosures are stored as JSON, where `/` is written `\/`.
        guard let encoded = try? JSONEncoder().encode(url) else { return nil }
        let needle = String(decoding: encoded, as: UTF8.self).dropFirst().dropLast()
        return try db.prepare(
            """
            SELECT a.title, f.title FROM articles a JOIN feeds f ON f.id = a.feed_id
            WHERE a.enclosures IS NOT NULL AND instr(a.enclosures, ?1) > 0 ORDER BY a.sort_time DESC LIMIT 1
            """
        ).bind(.text("\"" + needle + "\"")).firstRow { ($0.text(0) ?? "", $0.text(1) ?? "") }
    }
}
