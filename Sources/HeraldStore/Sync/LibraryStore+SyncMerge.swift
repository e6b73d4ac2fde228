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
    @discardableResult
    public func mergeOthers(_ backlog: inout SyncBacklog, cursor: SyncCursor?) throws -> Int {
        func write() throws -> Int {
            var won = 0
            let statement = try db.prepare(Self.upsertStateSQL)
            try backlog.drain { kind, url, guid, value, stamp, device in
                statement.reset()
                try statement.bindText(1, url)
                try statement.bindText(2, guid)
                var (kindText, deviceText) = (kind.rawValue, device)
                try kindText.withUTF8 { try statement.bindText(3, UnsafeRawBufferPointer($0)) }
                try statement.bindText(4, value)
                try statement.bindInteger(5, stamp)
                try deviceText.withUTF8 { try statement.bindText(6, UnsafeRawBufferPointer($0)) }
                try statement.bindInteger(7, 0)
                try statement.run()
                if db.changes > 0 { won += 1 }
            }
            if let cursor { try setCursor(cursor) }
            return won
        }
        // Inside a transaction (a device's files are merged in one), no savepoint: a failure
        // rolls the whole transaction back, and a savepoint would copy every page it first
        // changes into the statement journal, most of the state for a large batch.
        return try db.isInTransaction ? write() : db.transaction(write)
    }
}
