#ifndef HERALD_CSQLITE3_SHIM_H
#define HERALD_CSQLITE3_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: Swift cannot import it.
static inline sqlite3_destructor_type cs_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic: Swift cannot call it. Turning memory statistics off (before
// the first connection) spares every SQLite allocation a global mutex; Herald never reads
// them.
static inline int cs_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sqlite3_db_config is variadic too. Sets an on/off option of one connection; returns
// SQLITE_OK or an error code (an option this SQLite does not know).
static inline int cs_db_config_flag(sqlite3 *db, int option, int on) {
    int now = -1;
    return sqlite3_db_config(db, option, on, &now);
}

#endif
