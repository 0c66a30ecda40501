/* What SQLite alone takes to write what `icskit import` writes: the rows of a store an import made (its calendars,
 * items, their categories and relations, the merge base), copied with INSERT ... SELECT into an empty store of the
 * same schema, indexes and triggers, in one transaction, as a first import writes (rollback journal, synchronous
 * FULL, foreign keys on). Nothing is parsed or derived: a floor for the import, not a rival of it.
 * Usage: sqlite-import-floor IMPORTED.sqlite EMPTY.sqlite    (EMPTY must not exist; prints the number of items)
 * Built by `make bench` against the same SQLite ICSKit links (pkg-config sqlite3). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static int fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s IMPORTED.sqlite EMPTY.sqlite\n", argv[0]);
        return 2;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE, NULL)
        != SQLITE_OK)
        return fail(db, argv[2]);
    if (sqlite3_exec(db, "PRAGMA page_size = 16384; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL", NULL,
                     NULL, NULL) != SQLITE_OK)
        return fail(db, "pragmas");
    sqlite3_stmt *attach = NULL;
    if (sqlite3_prepare_v2(db, "ATTACH ? AS old", -1, &attach, NULL) != SQLITE_OK) return fail(db, "attach");
    sqlite3_bind_text(attach, 1, argv[1], -1, SQLITE_STATIC);
    if (sqlite3_step(attach) != SQLITE_DONE) return fail(db, argv[1]);
    sqlite3_finalize(attach);
    /* The schema as the imported store has it: tables first, then indexes and triggers. A virtual table makes its
     * own shadow tables, whose statements then fail as already there. */
    sqlite3_stmt *schema = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT sql FROM old.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                           "ORDER BY type <> 'table', rowid",
                           -1, &schema, NULL) != SQLITE_OK)
        return fail(db, "schema");
    while (sqlite3_step(schema) == SQLITE_ROW) {
        const char *sql = (const char *)sqlite3_column_text(schema, 0);
        if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK && !strstr(sqlite3_errmsg(db), "already exists"))
            return fail(db, sql);
    }
    sqlite3_finalize(schema);
    const char *copy = "PRAGMA foreign_keys = ON; BEGIN;"
                       "INSERT INTO main.grdb_migrations SELECT * FROM old.grdb_migrations;"
                       "INSERT INTO main.calendar SELECT * FROM old.calendar;"
                       "INSERT INTO main.timeZone SELECT * FROM old.timeZone;"
                       "INSERT INTO main.item SELECT * FROM old.item;"
                       "INSERT INTO main.itemCategory SELECT * FROM old.itemCategory;"
                       "INSERT INTO main.relation SELECT * FROM old.relation;"
                       "INSERT INTO main.syncState SELECT * FROM old.syncState;"
                       "COMMIT;";
    if (sqlite3_exec(db, copy, NULL, NULL, NULL) != SQLITE_OK) return fail(db, "copy");
    sqlite3_stmt *count = NULL;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM main.item", -1, &count, NULL) != SQLITE_OK
        || sqlite3_step(count) != SQLITE_ROW)
        return fail(db, "count");
    long items = (long)sqlite3_column_int64(count, 0);
    sqlite3_finalize(count);
    sqlite3_close(db);
    if (items == 0) {
        fprintf(stderr, "%s: no items to copy\n", argv[1]);
        return 1;
    }
    printf("%ld\n", items);
    return 0;
}
