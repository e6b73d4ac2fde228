/// A flag of an article that the reader sets in bulk and undo restores.
public enum ArticleFlag: String, Sendable, Hashable {
    case read, starred
}

extension ArticleSummary {
    /// The value of one of the article's flags.
    public func flag(_ flag: ArticleFlag) -> Bool {
        switch flag {
        case .read: isRead
        case .starred: isStarred
        }
    }
}

/// The bulk writes for repositories that are actors (in memory, and the tests' wrappers),
/// built on their one-article writes. The library (`LibraryStore`, a class on the database
/// actor) has its own, one transaction each; it is kept out of these on purpose: a call made
/// on it directly would otherwise pick these (nonisolated, async) over its own.
extension ArticleRepository where Self: Actor {
    /// Sets a flag on each of these articles that lacks it; returns those.
    public func setFlag(_ flag: ArticleFlag, _ value: Bool, articleIDs: [String]) async throws -> [String] {
        var changed: [String] = []
        for id in articleIDs {
            guard try await article(id: id).summary.flag(flag) != value else { continue }
            switch flag {
            case .read: try await setRead(value, articleID: id)
            case .starred: try await setStarred(value, articleID: id)
            }
            changed.append(id)
        }
        return changed
    }

    /// Sets a flag on every article of a list that lacks it and returns their ids: the ids
    /// are read page by page, then written (`markRead(in:)` for read).
    public func setFlag(_ flag: ArticleFlag, _ value: Bool, in source: ArticleSource) async throws -> [String]
    {
        var ids: [String] = []
        var page = ArticlePage.first(limit: 500)
        while true {
            let rows = try await articles(in: source, page: page)
            ids += rows.filter { $0.flag(flag) != value }.map(\.id)
            guard rows.count == 500, let last = rows.last else { break }
            page = .after(last.sortKey, limit: 500)
        }
        if flag == .read, value {
            try await markRead(in: source)
            return ids
        }
        return try await setFlag(flag, value, articleIDs: ids)
    }
}
