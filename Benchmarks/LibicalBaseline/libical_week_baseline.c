/* What the two libraries ICSKit must use take alone for `agenda --week` on a store: SQLite reading the items that
 * have an instance in the window (the store's instance index names them) and libical parsing each item whole. No
 * expansion, ordering, handles or output: a floor for the week, not a rival of it.
 * Usage: libical-week-baseline STORE.sqlite FROM TO    (UTC seconds; prints the number of items parsed)
 * Built by `make bench` against the same libical and SQLite ICSKit links (pkg-config libical sqlite3). */
#include <libical/ical.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s STORE.sqlite FROM TO\n", argv[0]);
        return 2;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_stmt *items = NULL;
    const char *sql = "SELECT content FROM item WHERE id IN "
                      "(SELECT itemID FROM instance WHERE startUTC < ?2 AND endUTC > ?1)";
    if (sqlite3_prepare_v2(db, sql, -1, &items, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s (a store with its week indexed?)\n", argv[1], sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_bind_int64(items, 1, strtoll(argv[2], NULL, 10));
    sqlite3_bind_int64(items, 2, strtoll(argv[3], NULL, 10));
    long parsed = 0;
    while (sqlite3_step(items) == SQLITE_ROW) {
        icalcomponent *item = icalparser_parse_string((const char *)sqlite3_column_text(items, 0));
        if (item) {
            parsed++;
            icalcomponent_free(item);
        }
    }
    sqlite3_finalize(items);
    sqlite3_close(db);
    if (parsed == 0) {
        fprintf(stderr, "%s: no item has an instance in the window\n", argv[1]);
        return 1;
    }
    printf("%ld\n", parsed);
    return 0;
}
