import CSQLite3

/// A new article on its way into the library: its prepared item and its packed body.
struct NewArticle {
    var entry: PreparedItem
    var body: [UInt8]
}

extension LibraryStore {
    /// The most rows one INSERT takes (11 values each).
    static let rowsPerInsert = 64

    /// Inserts new articles of one feed, several rows to a statement; returns their row ids,
    /// in order. Their guids must differ from each other and from the feed's stored ones.
    ///
    /// An INSERT into `articles` runs with a statement journal (its trigger writes `feeds`
    /// too, so the statement alone must be undoable): each page it changes is copied first,
    /// about seven 16 KB pages for one article. One INSERT a row copied 1.2 GB, to a
    /// temporary file, in a cold reload of 10,000 articles; one for many rows copies each
    /// page it changes once, and spends a third of the CPU time per row.
    func insertArticles(_ articles: [NewArticle], feed: Int64, seen: Int64) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(articles.count)
        var start = 0
        while start < articles.count {
            // 64, 32, 16 … rows: a few statements, each prepared once and cached.
            var count = Self.rowsPerInsert
            while count > articles.count - start { count /= 2 }
            let chunk = articles[start..<start + count]
            var values: [SQLiteValue] = []
            values.reserveCapacity(count * 11)
            for article in chunk {
                values += [.integer(feed), .text(article.entry.item.id), .integer(seen)]
                values += article.entry.row.values
                values.append(.blob(article.body))
            }
            let statement = try db.prepare(Self.insertSQL(rows: count)).bind(values)
            // RETURNING gives the rows in no set order: by guid, which is unique here.
            var byGuid: [String: Int64] = [:]
            while try statement.step() { byGuid[statement.text(1) ?? ""] = statement.int64(0) }
            for article in chunk {
                guard let id = byGuid[article.entry.item.id] else {
                    throw SQLiteError(
                        code: SQLITE_INTERNAL, message: "an inserted article has no id", sql: nil)
                }
                ids.append(id)
            }
            start += count
        }
        return ids
    }

    /// `INSERT … VALUES (…), (…) … RETURNING id, guid` for `rows` articles, 11 values each
    /// (feed, guid, first seen, then `StoredArticle.values`, then the body); an article
    /// without a publication date sorts by when it was first seen.
    static func insertSQL(rows: Int) -> String {
        var sql = """
            INSERT INTO articles(feed_id, guid, first_seen, sort_time, title, link, author, published,
                updated, enclosures, image, body)
            VALUES
            """
        for row in 0..<rows {
            let p = (1...11).map { "?\(row * 11 + $0)" }
            sql += (row == 0 ? " " : ", ")
            sql += "(\(p[0]), \(p[1]), \(p[2]), coalesce(\(p[6]), \(p[2])), \(p[3]), \(p[4]), \(p[5]), "
            sql += "\(p[6]), \(p[7]), \(p[8]), \(p[9]), \(p[10]))"
        }
        return sql + " RETURNING id, guid"
    }
}
