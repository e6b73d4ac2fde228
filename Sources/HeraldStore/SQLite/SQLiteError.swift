import CSQLite3
public import HeraldCore

/// A failed SQLite call, with SQLite's own message and the statement that failed.
public struct SQLiteError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    LibraryBusyError
{
    public var code: Int32
    public var message: String
    public var sql: String?

    /// What went wrong, for the user: the cause in words, SQLite's message after it, never
    /// the statement (see `debugDescription`).
    public var description: String {
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: "the library file is damaged (\(message))"
        case SQLITE_READONLY: "the library cannot be written (\(message)): check its file's permissions"
        case SQLITE_FULL: "the disk is full (\(message))"
        case SQLITE_BUSY, SQLITE_LOCKED: "the library is busy: another program is writing to it (\(message))"
        case SQLITE_CANTOPEN: "the library cannot be opened (\(message))"
        default: "database error \(code): \(message)"
        }
    }

    /// The description with the statement that failed, for debugging.
    public var debugDescription: String { description + (sql.map { " (in: \($0.prefix(200)))" } ?? "") }

    /// Another connection held the lock past the busy timeout (`SQLITE_BUSY`), or a table
    /// was locked (`SQLITE_LOCKED`): the same statement may succeed later.
    public var isLibraryBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// The statement was stopped by an interrupt (a cancelled search).
    public var isInterrupt: Bool { code & 0xFF == SQLITE_INTERRUPT }
    /// The file is not a database, or is damaged.
    public var isCorrupt: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
}
