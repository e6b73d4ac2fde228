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

extension ArticleRepository {
    /// Sets a flag on these articles one by one and returns them all (a repository that
    /// cannot tell which ones changed). The library does it in one transaction instead.
    public func setFlag(_ flag: ArticleFlag, _ value: Bool, articleIDs: [String]) async throws -> [String] {
        for id in articleIDs {
            switch flag {
            case .read: try await setRead(value, articleID: id)
            case .starred: try await setStarred(value, articleID: id)
            }
        }
        return articleIDs
    }

    /// Sets a flag on every article of a list that lacks it and returns their ids: the ids
    /// are read page by page, then written (`markRead(in:)` for read).
    public func setFlag(_ flag: ArticleFlag, _ value: Bool, in source: ArticleSource) async throws -> [String] {
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
