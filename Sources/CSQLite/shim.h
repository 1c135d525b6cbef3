#ifndef STRATA_CSQLITE_SHIM_H
#define STRATA_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type strata_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// SQLITE_STATIC: the bytes outlive the statement's use of them.
static inline sqlite3_destructor_type strata_sqlite_static(void) {
    return SQLITE_STATIC;
}
#endif
