/* Reads a whole file into a NUL-terminated buffer the caller frees; NULL (with a message) on failure.
 * parse_file reads and parses one with libical; NULL (with a message) when either fails. */
#ifndef ICSKIT_BASELINE_READ_FILE_H
#define ICSKIT_BASELINE_READ_FILE_H
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>

static char *read_file(const char *path) {
    FILE *in = fopen(path, "rb");
    if (!in) { perror(path); return NULL; }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (!text || fread(text, 1, (size_t)size, in) != (size_t)size) {
        fclose(in);
        free(text);
        fprintf(stderr, "%s: cannot read\n", path);
        return NULL;
    }
    text[size] = '\0';
    fclose(in);
    return text;
}

static icalcomponent *parse_file(const char *path) {
    char *text = read_file(path);
    if (!text) return NULL;
    icalcomponent *root = icalparser_parse_string(text);
    free(text);
    if (!root) fprintf(stderr, "%s: libical parsed nothing\n", path);
    return root;
}
#endif
