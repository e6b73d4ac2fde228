import CSQLite3
import Synchronization

/// One SQLite connection. Not `Sendable`: it lives inside `LibraryStore`, on the database
/// actor, which serialises every use (so it is opened with `SQLITE_OPEN_NOMUTEX`).
package final class SQLiteConnection {
    package let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// The cancellation token of the statement running now, read by the progress handler.
    package let interrupt = InterruptSlot()

    /// Set before the first connection: SQLite takes configuration only before it starts.
    private static let configured: Void = { _ = cs_disable_memory_statistics() }()

    /// How a file is opened.
    package enum Access: Equatable {
        /// Read and written, created when missing (Herald's library).
        case readWrite
        /// Read only, never created. `immutable`: SQLite takes the file as one that cannot
        /// change, so it takes no lock and needs no `-shm`/`-wal` file beside it: for a file in a
        /// directory where those cannot be made (a read-only mount), where the alternative is
        /// not reading it at all.
        case readOnly(immutable: Bool)
    }

    package init(path: String, access: Access = .readWrite, registeringFunctions: Bool = true) throws(SQLiteError) {
        _ = Self.configured
        var db: OpaquePointer?
        let flags: Int32
        var name = path
        switch access {
        case .readWrite: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly(let immutable):
            // A URI, so that `immutable` can be given; the path is escaped as URIs want.
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = Self.uri(path) + (immutable ? "?immutable=1" : "?mode=ro")
        }
        let code = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: message + " (\(path))", sql: nil)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        if registeringFunctions { QueryFunctions.register(on: db) }
        // Every 1000 VM steps: stop if the running statement's task was cancelled, or its
        // budget of steps is spent.
        sqlite3_progress_handler(
            db, Int32(InterruptSlot.stepsPerCall),
            { context in
                guard let context else { return 0 }
                let slot = Unmanaged<InterruptSlot>.fromOpaque(context).takeUnretainedValue()
                return slot.shouldStop() ? 1 : 0
            }, Unmanaged.passUnretained(interrupt).toOpaque())
    }

    /// `path` as a `file:` URI: `?`, `#` and `%` escaped (SQLite decodes `%HH`); an absolute
    /// path after an empty authority (`file:///…`, so `//x` is not read as a host), a relative
    /// one kept relative.
    package static func uri(_ path: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"):
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        return (path.hasPrefix("/") ? "file://" : "file:") + String(decoding: out, as: UTF8.self)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without results (several statements allowed).
    package func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: code, message: message, sql: sql)
        }
    }

    /// A prepared statement, cached by its SQL, reset and with its bindings cleared.
    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        // Bounded: SQL made from data (a query feed's condition, a tag's feed ids) would
        // otherwise add statements for good. A statement in use stays alive with its user.
        if statements.count >= Self.maxCachedStatements { statements.removeAll() }
        statements[sql] = statement
        return statement
    }

    package static let maxCachedStatements = 256

    /// A statement prepared for one use and not cached: for SQL whose text changes from
    /// call to call (a list of ids), which would otherwise fill the cache for good.
    package func prepareUncached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Transactions open on this connection (nested ones are savepoints).
    private var depth = 0

    /// Whether a transaction is open. Some errors (a full disk, an I/O error, an interrupt)
    /// make SQLite roll back the whole transaction, savepoints and all.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    /// Inside another transaction it is a savepoint: a throw undoes only its own changes, and
    /// nothing is durable before the outermost commits.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        let savepoint = depth > 0 ? "s\(depth)" : nil
        try execute(savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN IMMEDIATE")
        depth += 1
        defer { depth -= 1 }
        do {
            let result = try body()
            try execute(savepoint.map { "RELEASE \($0)" } ?? "COMMIT")
            return result
        } catch {
            if isInTransaction {
                try? execute(savepoint.map { "ROLLBACK TO \($0); RELEASE \($0)" } ?? "ROLLBACK")
            }
            throw error
        }
    }

    /// A single integer from a query (`PRAGMA user_version`, `count(*)`).
    package func integer(_ sql: String) throws -> Int64 {
        try prepare(sql).firstRow { $0.int64(0) } ?? 0
    }

    /// Statements that are mid-rows, holding a read transaction (tests: should be none).
    package var busyStatements: Int {
        var count = 0
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { count += 1 }
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }

    /// Resets every statement of this connection left mid-rows (one whose caller read the
    /// rows it needed and stopped): only between calls on the database actor, when no caller
    /// is stepping through one. VACUUM fails while any is.
    package func resetBusyStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    package var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
    package var changes: Int { Int(sqlite3_changes(handle)) }
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}

/// A flag a cancelled task raises, read by SQLite's progress handler on the database thread.
package final class CancellationToken: Sendable {
    private let cancelled = Atomic<Bool>(false)
    package func cancel() { cancelled.store(true, ordering: .relaxed) }
    package var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// Which token the running statement answers to, and how many more steps the statements
/// of an untrusted file may run. Set and read only on the database's thread (the progress
/// handler runs inside `sqlite3_step` there).
package final class InterruptSlot {
    /// SQLite calls the progress handler every this many VM steps.
    package static let stepsPerCall = 1000

    package var current: CancellationToken?
    /// Progress-handler calls left before the running statement is stopped (nil: no
    /// budget); `budgetSpent` then says why it was.
    package var callsLeft: Int?
    package private(set) var budgetSpent = false

    /// Gives the statements run from now on `steps` VM steps in all; nil: no budget (what
    /// `budgetSpent` says stays until the next budget is given).
    package func setBudget(steps: Int?) {
        callsLeft = steps.map { max($0 / Self.stepsPerCall, 1) }
        if steps != nil { budgetSpent = false }
    }

    package func shouldStop() -> Bool {
        if current?.isCancelled == true { return true }
        guard let left = callsLeft else { return false }
        if left <= 0 {
            budgetSpent = true
            return true
        }
        callsLeft = left - 1
        return false
    }
}
