/* RFC 5545 next instance with libical's C iterator (libical-dev), the baseline `make bench` compares remindd's
 * core with: for each rule given (one argument each), started the day before 2026-11-24 in Europe/Berlin,
 * the iterator is moved to 2026-11-24 (icalrecur_iterator_set_start) and walked forward; prints
 * "LIBICAL <rule> <ns per instance>", the best of 5 runs. Usage: rrule_libical ITERATIONS RULE...  */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s ITERATIONS RULE...\n", argv[0]); return 2; }
    int iterations = atoi(argv[1]);
    icaltimezone *berlin = icaltimezone_get_builtin_timezone("Europe/Berlin");
    for (int r = 2; r < argc; r++) {
        struct icalrecurrencetype rule = icalrecurrencetype_from_string(argv[r]);
        if (rule.freq == ICAL_NO_RECURRENCE) { fprintf(stderr, "libical cannot read %s\n", argv[r]); return 1; }
        struct icaltimetype start = icaltime_from_string("20261123T090000");
        start = icaltime_set_timezone(&start, berlin);
        struct icaltimetype from = icaltime_from_string("20261124T000000");
        from = icaltime_set_timezone(&from, berlin);
        double best = 1e300;
        long long sink = 0;
        for (int run = 0; run < 5; run++) {
            double began = now_ns();
            icalrecur_iterator *it = icalrecur_iterator_new(rule, start);
            if (!it || !icalrecur_iterator_set_start(it, from)) { fprintf(stderr, "libical cannot start %s\n", argv[r]); return 1; }
            for (int i = 0; i < iterations; i++) {
                struct icaltimetype next = icalrecur_iterator_next(it);
                if (icaltime_is_null_time(next)) {
                    /* Past the end of its calendar: start again from now, as the Swift side does. */
                    icalrecur_iterator_free(it);
                    it = icalrecur_iterator_new(rule, start);
                    icalrecur_iterator_set_start(it, from);
                    continue;
                }
                sink += icaltime_as_timet_with_zone(next, berlin);
            }
            icalrecur_iterator_free(it);
            double ns = (now_ns() - began) / iterations;
            if (ns < best) best = ns;
        }
        printf("LIBICAL %s %.1f (%lld)\n", argv[r], best, sink % 10);
    }
    return 0;
}
