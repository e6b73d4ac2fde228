import CSQLite3

/// A database file another program wrote (newsboat's cache), read as hostile input.
extension SQLiteConnection {
    /// Opens `path` read only and never writes it (`query_only`), with its schema not
    /// trusted: views and triggers are switched off (a view named as a table would otherwise
    /// run whatever query its author wrote: a recursive one never ends), functions that are
    /// not innocuous may not run from the schema (`trusted_schema` off), defensive mode is on,
    /// and no value longer than `maxValueBytes` is ever made (`SQLITE_LIMIT_LENGTH`: a stored
    /// one is an error, `SQLITE_TOOBIG`, before it is read into memory). Herald's own SQL
    /// functions are not registered on it.
    ///
    /// When SQLite cannot make the `-shm` file a WAL-mode file needs for reading (a directory
    /// that cannot be written), the file is opened immutable: read as it is, without locks.
    package static func untrusted(path: String, maxValueBytes: Int) throws(SQLiteError) -> SQLiteConnection {
        try readOnly(path: path, registeringFunctions: false) { connection throws(SQLiteError) in
            try connection.distrust(maxValueBytes: maxValueBytes)
        }.connection
    }

    /// Opens `path` read only, set up by `prepare`, and reads its schema. When SQLite cannot
    /// open the `-shm` file a WAL-mode file needs for reading (on a read-only mount it may
    /// neither create one nor open one read-write: `SQLITE_CANTOPEN`; in a directory the user
    /// may not write, `SQLITE_READONLY_DIRECTORY`), it opens it again immutable: read as it
    /// is, without locks; what a `-wal` file beside it holds is then not seen (Herald leaves
    /// none behind when it closes a library). `immutable` says which it was.
    package static func readOnly(
        path: String, registeringFunctions: Bool = true,
        prepare: (SQLiteConnection) throws(SQLiteError) -> Void = { _ in }
    ) throws(SQLiteError) -> (connection: SQLiteConnection, immutable: Bool) {
        func open(immutable: Bool) throws(SQLiteError) -> SQLiteConnection {
            let connection = try SQLiteConnection(
                path: path, access: .readOnly(immutable: immutable),
                registeringFunctions: registeringFunctions)
            try prepare(connection)
            // The first read opens the file for real (the schema, a WAL file's -shm).
            let probe = try connection.prepareUncached("SELECT count(*) FROM sqlite_schema")
            defer { probe.reset() }
            _ = try probe.step()
            return connection
        }
        do {
            return (try open(immutable: false), false)
        } catch  where error.code & 0xFF == SQLITE_CANTOPEN || error.code & 0xFF == SQLITE_READONLY {
            return (try open(immutable: true), true)
        }
    }

    private func distrust(maxValueBytes: Int) throws(SQLiteError) {
        for option in [
            SQLITE_DBCONFIG_ENABLE_VIEW, SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_TRUSTED_SCHEMA,
        ] {
            let code = cs_db_config_flag(handle, option, 0)
            guard code == SQLITE_OK else { throw SQLiteError(code: code, message: lastMessage, sql: nil) }
        }
        let code = cs_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 1)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: lastMessage, sql: nil) }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: maxValueBytes))
        try execute("PRAGMA query_only = 1")
    }
}
