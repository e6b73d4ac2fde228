/// Merging other devices' operations into the state.
extension LibraryStore {
    /// Merges other devices' operations (last writer wins per key) and moves `cursor`, in
    /// one transaction; a state that changed waits for `applySyncState()`. The batch is first
    /// reduced to its winner per key, so a key flipped many times is written once. Returns
    /// how many keys' states changed.
    @discardableResult
    public func mergeOthers(_ operations: [SyncOperation], cursor: SyncCursor?) throws -> Int {
        var backlog = SyncBacklog()
        backlog.add(contentsOf: operations)
        return try mergeOthers(&backlog, cursor: cursor)
    }

    /// Writes the winners of `backlog` (emptying it) feed by feed and moves `cursor`, in one
    /// transaction. Returns how many keys' states changed.
    ///
    /// The keys go `upsertRows` to a statement (the rest one by one): SQLite's cost per
    /// statement run (reset, bindings, the program's start) is then shared by that many.
    @discardableResult
    public func mergeOthers(_ backlog: inout SyncBacklog, cursor: SyncCursor?) throws -> Int {
        func write() throws -> Int {
            var won = 0
            let many = try db.prepare(Self.upsertStatesSQL)
            let one = try db.prepare(Self.upsertStateSQL)
            // The last keys, fewer than a statement's rows, go one by one.
            let single = backlog.count - backlog.count % Self.upsertRows
            var (index, row) = (0, 0)
            try backlog.drain { kind, url, guid, value, stamp, device in
                let statement = index < single ? many : one
                let base = Int32(row * 6)
                try statement.bindText(base + 1, url)
                try statement.bindText(base + 2, guid)
                var (kindText, deviceText) = (kind.rawValue, device)
                try kindText.withUTF8 { try statement.bindText(base + 3, UnsafeRawBufferPointer($0)) }
                try statement.bindText(base + 4, value)
                try statement.bindInteger(base + 5, stamp)
                try deviceText.withUTF8 { try statement.bindText(base + 6, UnsafeRawBufferPointer($0)) }
                index += 1
                row += 1
                if statement === one {
                    try statement.bindInteger(7, 0)
                } else if row < Self.upsertRows {
                    return
                }
                try statement.run()
                won += db.changes
                statement.reset()
                row = 0
            }
            if let cursor { try setCursor(cursor) }
            return won
        }
        // Inside a transaction (a device's files are merged in one), no savepoint: a failure
        // rolls the whole transaction back, and a savepoint would copy every page it first
        // changes into the statement journal, most of the state for a large batch.
        return try db.isInTransaction ? write() : db.transaction(write)
    }

    /// Keys written by one run of `upsertStatesSQL`.
    static let upsertRows = 32

    /// `upsertStateSQL` for `upsertRows` keys at once, pending (not applied): each row
    /// binds its feed URL, guid, kind, value, stamp and device.
    static let upsertStatesSQL = """
        INSERT INTO sync_state(feed_url, guid, kind, value, stamp, device, applied) VALUES
        \((0..<upsertRows).map { row in
            "(" + (1...6).map { "?\(row * 6 + $0)" }.joined(separator: ", ") + ", 0)"
        }.joined(separator: ",\n"))
        ON CONFLICT(feed_url, guid, kind) DO UPDATE SET value = excluded.value, stamp = excluded.stamp,
            device = excluded.device, applied = excluded.applied
        WHERE (excluded.stamp, excluded.device) > (sync_state.stamp, sync_state.device)
        """
}
