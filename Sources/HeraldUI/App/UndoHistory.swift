import HeraldCore

/// One change the reader can take back: a flag set to `value` on exactly these articles
/// (the ones whose flag changed, not the whole list the change was asked for).
struct UndoEntry: Sendable, Equatable {
    var flag: ArticleFlag
    var value: Bool
    var ids: [String]

    /// `37 articles marked read`, `1 article starred`.
    var summary: String {
        let articles = ids.count == 1 ? "1 article" : "\(ids.count) articles"
        switch (flag, value) {
        case (.read, true): return "\(articles) marked read"
        case (.read, false): return "\(articles) marked unread"
        case (.starred, true): return "\(articles) starred"
        case (.starred, false): return "\(articles) unstarred"
        }
    }
}

/// The last changes of read and starred flags, newest last; `u` takes them back newest
/// first. At most `limit` are kept: the oldest goes when a new one comes.
struct UndoHistory {
    static let limit = 50
    private(set) var entries: [UndoEntry] = []
    /// Writes under way whose changes are not recorded yet: an undo waits for them, or it
    /// would take back the change before the one the user just made.
    var pendingWrites = 0

    /// Keeps a change that wrote something (one that changed nothing has nothing to undo).
    mutating func record(_ entry: UndoEntry) {
        guard !entry.ids.isEmpty else { return }
        entries.append(entry)
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
    }

    /// The newest change, taken off the history.
    mutating func takeLast() -> UndoEntry? { entries.popLast() }

    /// Puts back a change whose undo could not be written.
    mutating func restore(_ entry: UndoEntry) {
        entries.append(entry)
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
    }
}
