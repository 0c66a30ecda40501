/* The C baseline for ICSKit's benchmarks: libical alone reading, parsing, serializing and writing a calendar.
 * Usage: libical-baseline INPUT.ics OUTPUT.ics
 * Built by `make bench` against the same libical ICSKit links (pkg-config libical). */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include "read_file.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT.ics OUTPUT.ics\n", argv[0]);
        return 2;
    }
    icalcomponent *root = parse_file(argv[1]);
    if (!root) return 1;
    char *out = icalcomponent_as_ical_string_r(root);
    FILE *dest = fopen(argv[2], "wb");
    if (!dest) { perror(argv[2]); return 1; }
    fputs(out, dest);
    fclose(dest);
    icalmemory_free_buffer(out);
    icalcomponent_free(root);
    return 0;
}
