public import HeraldCore

/// The read and starred flags of the articles the reader shows, by article id: the one place
/// every screen reads them from (`shown(_:)`), and the one place a change goes to (a key, a
/// bulk command, undo, another device's change by sync).
///
/// Rows read from the library are learned (`learn(_:readAt:)`) with the moment they were
/// asked for (`now`); a row is newer than what the store knows when it was asked for after
/// the library was known to hold that (a write saved, a sync applied). A change the user
/// made is shown at once and stays, whatever rows arrive, until its write is saved; a write
/// that fails puts back the flag the library kept. So the rows a screen holds never need
/// their flags changed by hand: a screen asks the store as it draws.
///
/// It keeps an entry for every article it has seen (about 100 bytes each: a session that
/// reads 100,000 rows holds some 10 MB).
@MainActor
public final class ArticleFlags {
    private struct Entry {
        var value: Bool
        /// When the library was known to hold `value` (`clock`); nil while a write of it is
        /// under way.
        var since: Int?
        /// Writes of this flag under way (the last one's value is `value`).
        var writing = 0
    }

    private var read: [String: Entry] = [:]
    private var starred: [String: Entry] = [:]
    /// Moves on each time the library is known to hold something new.
    private var clock = 0

    public init() {}

    /// The moment to learn rows with: call it before asking the library for them.
    public var now: Int { clock }

    /// Rows as the library had them at `stamp`: they replace what the store knows from
    /// before that, never a change under way or one saved since.
    public func learn(_ rows: some Sequence<ArticleSummary>, readAt stamp: Int) {
        for row in rows {
            learn(row.id, row.isRead, readAt: stamp, in: &read)
            learn(row.id, row.isStarred, readAt: stamp, in: &starred)
        }
    }

    /// The row with the flags the reader knows for it.
    public func shown(_ row: ArticleSummary) -> ArticleSummary {
        var row = row
        if let entry = read[row.id] { row.isRead = entry.value }
        if let entry = starred[row.id] { row.isStarred = entry.value }
        return row
    }

    /// The user changed a flag: shown at once; `saved` or `failed` follows once written.
    func change(_ flag: ArticleFlag, _ value: Bool, ids: some Sequence<String>) {
        update(flag) { entries in
            for id in ids {
                let writing = (entries[id]?.writing ?? 0) + 1
                entries[id] = Entry(value: value, since: nil, writing: writing)
            }
        }
    }

    /// A write of a change is saved: rows asked for from now on hold it.
    func saved(_ flag: ArticleFlag, ids: some Sequence<String>) {
        clock += 1
        let now = clock
        update(flag) { entries in
            for id in ids {
                guard var entry = entries[id] else { continue }
                entry.writing = max(entry.writing - 1, 0)
                if entry.writing == 0 { entry.since = now }
                entries[id] = entry
            }
        }
    }

    /// A write of a change failed: the flag the library kept (`kept`, by id) shows again,
    /// unless a later change is still being written.
    func failed(_ flag: ArticleFlag, kept: [String: Bool]) {
        clock += 1
        let now = clock
        update(flag) { entries in
            for (id, value) in kept {
                guard var entry = entries[id] else { continue }
                entry.writing = max(entry.writing - 1, 0)
                if entry.writing == 0 { entry = Entry(value: value, since: now) }
                entries[id] = entry
            }
        }
    }

    /// The library holds `value` for these articles now, changed by something other than
    /// a key of this reader (undo's write, a bulk command, another device by sync); a change
    /// of the user's still being written stays.
    func hold(_ flag: ArticleFlag, _ value: Bool, ids: some Sequence<String>) {
        clock += 1
        let now = clock
        update(flag) { entries in
            for id in ids where (entries[id]?.writing ?? 0) == 0 {
                entries[id] = Entry(value: value, since: now)
            }
        }
    }

    /// How many articles the store knows (tests).
    var count: Int { Set(read.keys).union(starred.keys).count }

    private func learn(_ id: String, _ value: Bool, readAt stamp: Int, in entries: inout [String: Entry]) {
        if let entry = entries[id], entry.since.map({ $0 > stamp }) ?? true { return }
        entries[id] = Entry(value: value, since: stamp)
    }

    private func update(_ flag: ArticleFlag, _ body: (inout [String: Entry]) -> Void) {
        switch flag {
        case .read: body(&read)
        case .starred: body(&starred)
        }
    }
}
