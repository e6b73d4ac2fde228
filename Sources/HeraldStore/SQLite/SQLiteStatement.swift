import CSQLite3

/// A prepared statement. Bind with `bind`, iterate with `step`, read columns by index.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection
    package let sql: String

    package init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(
            connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: connection.lastMessage, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds values to `?1`, `?2`, … in order.
    @discardableResult
    package func bind(_ values: SQLiteValue...) throws(SQLiteError) -> SQLiteStatement {
        try bind(values)
    }

    @discardableResult
    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> SQLiteStatement {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, cs_transient())
            case .blob(let v):
                code = v.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), cs_transient())
                }
            }
            guard code == SQLITE_OK else {
                throw SQLiteError(code: code, message: connection.lastMessage, sql: sql)
            }
        }
        return self
    }

    /// Binds UTF-8 bytes as text to `?index` (SQLite copies them: no `String` is made, for
    /// loops that bind fields read from a file).
    package func bindText(_ index: Int32, _ text: UnsafeRawBufferPointer) throws(SQLiteError) {
        let code =
            if let base = text.baseAddress, !text.isEmpty {
                sqlite3_bind_text(
                    handle, index, base.assumingMemoryBound(to: CChar.self), Int32(text.count), cs_transient()
                )
            } else {
                sqlite3_bind_text(handle, index, "", 0, cs_transient())
            }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: connection.lastMessage, sql: sql)
        }
    }

    package func bindInteger(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        let code = sqlite3_bind_int64(handle, index, value)
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: connection.lastMessage, sql: sql)
        }
    }

    /// Advances to the next row; false when there is none.
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: code, message: connection.lastMessage, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Reads the first row (nil when there is none) and resets the statement, so it does not
    /// hold a read transaction open: a statement left mid-rows would pin the connection to an
    /// old snapshot and keep the WAL from being reset.
    package func firstRow<T>(_ read: (SQLiteStatement) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return try read(self)
    }

    /// Reads every row, and resets the statement.
    package func allRows<T>(_ read: (SQLiteStatement) throws -> T) throws -> [T] {
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while try step() { rows.append(try read(self)) }
        return rows
    }

    /// Runs a statement that returns no rows.
    package func run() throws(SQLiteError) {
        while try step() {}
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The bytes of a text or blob column, 0 for any other: read before the column is read
    /// any other way (a conversion makes its type undefined).
    package func valueBytes(_ column: Int32) -> Int {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_TEXT, SQLITE_BLOB: Int(sqlite3_column_bytes(handle, column))
        default: 0
        }
    }

    /// A column as it is stored (a real comes back as text).
    package func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_BLOB: .blob(blob(column))
        default: .text(text(column) ?? "")
        }
    }

    /// The bytes of a BLOB column, valid only inside `read` (SQLite owns them).
    package func withBlob<T>(_ column: Int32, _ read: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try read(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    package func blob(_ column: Int32) -> [UInt8] { withBlob(column) { Array($0) } }
}

/// A value bound to a statement parameter.
package enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    package static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    package static func optional(_ value: Int64?) -> SQLiteValue { value.map(SQLiteValue.integer) ?? .null }
    package static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}
