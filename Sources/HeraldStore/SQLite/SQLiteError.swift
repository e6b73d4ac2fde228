import CSQLite3

/// A failed SQLite call, with SQLite's own message and the statement that failed.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        "database error \(code): \(message)" + (sql.map { " (in: \($0.prefix(120)))" } ?? "")
    }

    /// The statement was stopped by an interrupt (a cancelled search).
    public var isInterrupt: Bool { code & 0xFF == SQLITE_INTERRUPT }
    /// The file is not a database, or is damaged.
    public var isCorrupt: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
}
