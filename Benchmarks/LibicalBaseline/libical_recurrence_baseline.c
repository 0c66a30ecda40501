/* The C baseline for `icskit agenda`: libical alone reading a calendar and expanding every VEVENT over one year
 * with icalcomponent_foreach_recurrence (which, unlike ICSKit, ignores RECURRENCE-ID overrides).
 * Usage: libical-recurrence-baseline INPUT.ics YEAR    (prints the number of instances)
 * Built by `make bench` against the same libical ICSKit links (pkg-config libical). */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include "read_file.h"

static void count(icalcomponent *comp, struct icaltime_span *span, void *data) {
    (void)comp;
    (void)span;
    ++*(long *)data;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT.ics YEAR\n", argv[0]);
        return 2;
    }
    icalcomponent *root = parse_file(argv[1]);
    if (!root) return 1;

    int year = atoi(argv[2]);
    struct icaltimetype start = icaltime_null_time(), end = icaltime_null_time();
    start.year = year; start.month = 1; start.day = 1;
    end.year = year + 1; end.month = 1; end.day = 1;
    start.zone = end.zone = icaltimezone_get_utc_timezone();
    long instances = 0;
    icalcomponent *calendar = icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT
        ? root : icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT);
    for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT); event;
         event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        icalcomponent_foreach_recurrence(event, start, end, count, &instances);
    }
    printf("%ld\n", instances);
    icalcomponent_free(root);
    return 0;
}
