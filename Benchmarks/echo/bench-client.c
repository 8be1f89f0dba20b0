/*
 * bench-client: the load generator of the bus benchmark.
 *
 * One client drives both the echo service and navsessiond, so the two are
 * measured with identical client-side cost; only the call kind differs. The
 * call kinds are a small fixed menu (not a general marshaller), so every
 * message is built the same way on every run.
 *
 * Modes (results are one JSON line on stdout; diagnostics go to stderr):
 *   sequential  --count N calls, each with send_with_reply_and_block; latency percentiles.
 *   pipelined   --count N calls with --inflight K outstanding, matched by reply serial.
 *   urlsignal   --count R rounds of: OpenURL(s), time until the first
 *               org.navsession.Window1.Changed signal; then StackDropLast(u 1) on the
 *               signalling window and a Peer.Ping barrier, so the next round starts clean.
 *   once        one call (one append+drop pair for stack-pair); prints the reply's first
 *               string or object-path argument, if any.
 *
 * Any error reply aborts the run with exit status 3 and the error's name on stderr:
 * a benchmark that silently counts failures as calls would flatter the target.
 *
 * Build: cc -Wall -Wextra -O2 bench-client.c $(pkg-config --cflags --libs dbus-1)
 */
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define SESSION_PATH "/org/navsession/Session1"
#define SESSION_INTERFACE "org.navsession.Session1"
#define WINDOW_INTERFACE "org.navsession.Window1"
#define ECHO_PATH "/org/navsession/BenchEcho"
#define ECHO_INTERFACE "org.navsession.BenchEcho1"

#define EXIT_USAGE 2
#define EXIT_ERROR_REPLY 3
#define EXIT_FAILURE_OTHER 1

enum call_kind { CALL_ECHO, CALL_STACK_PAIR, CALL_OPEN_WINDOW, CALL_SWITCH_MODEL, CALL_OPEN_URL, CALL_STACK_APPEND, CALL_STACK_DROP };

struct call_info {
    const char *name;
    const char *interface;
    const char *path;        /* NULL: --path is required (a window object) */
    const char *default_arg; /* the string argument of the call */
};

static const struct call_info CALLS[] = {
    [CALL_ECHO] = { "echo", ECHO_INTERFACE, ECHO_PATH, "hello" },
    [CALL_STACK_PAIR] = { "stack-pair", WINDOW_INTERFACE, NULL, "detail" },
    [CALL_OPEN_WINDOW] = { "open-window", SESSION_INTERFACE, SESSION_PATH, "main" },
    [CALL_SWITCH_MODEL] = { "switch-model", WINDOW_INTERFACE, NULL, "main" },
    [CALL_OPEN_URL] = { "open-url", SESSION_INTERFACE, SESSION_PATH, "navsession-demo://detail/42" },
    /* Grow and shrink a window's stack (the depth measurements): StackAppend(arg, {"id": "1"}) per call, and
     * StackDropLast(arg as a count). */
    [CALL_STACK_APPEND] = { "stack-append", WINDOW_INTERFACE, NULL, "detail" },
    [CALL_STACK_DROP] = { "stack-drop", WINDOW_INTERFACE, NULL, "1" },
};

struct config {
    const char *mode;
    const char *dest;
    const char *path;
    const char *interface;
    const char *arg;
    enum call_kind call;
    long count;
    long inflight;
    int timeout_ms;
    int back; /* urlsignal: navigate back after each round */
};

static void die(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void die(int status, const char *fmt, ...)
{
    va_list ap;
    fputs("bench-client: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n == 0 ? 1 : n);
    if (p == NULL)
        die(EXIT_FAILURE_OTHER, "out of memory");
    return p;
}

/* ---- percentiles ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array, in microseconds. */
static double pct_us(const double *sorted, long n, double p)
{
    long rank;
    if (n <= 0)
        return 0;
    rank = (long)ceil(p * (double)n) - 1;
    if (rank < 0)
        rank = 0;
    if (rank >= n)
        rank = n - 1;
    return sorted[rank] * 1e6;
}

static void print_latency_json(const char *prefix, double *lat, long n)
{
    qsort(lat, (size_t)n, sizeof *lat, cmp_double);
    printf("\"%sp50_us\":%.1f,\"%sp90_us\":%.1f,\"%sp99_us\":%.1f,\"%smax_us\":%.1f", prefix, pct_us(lat, n, 0.50),
           prefix, pct_us(lat, n, 0.90), prefix, pct_us(lat, n, 0.99), prefix, n > 0 ? lat[n - 1] * 1e6 : 0.0);
}

/* ---- building calls ----------------------------------------------------------------- */

static void append_or_die(dbus_bool_t ok)
{
    if (!ok)
        die(EXIT_FAILURE_OTHER, "out of memory while building a message");
}

/* Appends an a{ss}; entries is a NULL-terminated key,value,... list (may be empty). */
static void append_string_dict(DBusMessageIter *it, const char *const *entries)
{
    DBusMessageIter dict, entry;
    append_or_die(dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{ss}", &dict));
    for (; entries[0] != NULL; entries += 2) {
        append_or_die(dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry));
        append_or_die(dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &entries[0]));
        append_or_die(dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &entries[1]));
        append_or_die(dbus_message_iter_close_container(&dict, &entry));
    }
    append_or_die(dbus_message_iter_close_container(it, &dict));
}

/* The method that call number `index` of `kind` invokes. */
static const char *call_member(enum call_kind kind, long index)
{
    switch (kind) {
    case CALL_ECHO: return "Echo";
    case CALL_STACK_PAIR: return (index & 1) ? "StackDropLast" : "StackAppend";
    case CALL_OPEN_WINDOW: return "OpenWindow";
    case CALL_SWITCH_MODEL: return "SwitchModel";
    case CALL_OPEN_URL: return "OpenURL";
    case CALL_STACK_APPEND: return "StackAppend";
    case CALL_STACK_DROP: return "StackDropLast";
    }
    return "?";
}

/* Builds call number `index` of the configured kind; stack-pair alternates
 * StackAppend (even) and StackDropLast (odd) so the stack never grows. */
static DBusMessage *build_call(const struct config *cfg, enum call_kind kind, const char *path, long index)
{
    static const char *const no_entries[] = { NULL };
    static const char *const id_entry[] = { "id", "1", NULL };
    const char *member = call_member(kind, index);
    DBusMessage *m;
    DBusMessageIter it;
    dbus_uint32_t one = 1;
    int drop = (kind == CALL_STACK_PAIR && (index & 1)) || kind == CALL_STACK_DROP;

    m = dbus_message_new_method_call(cfg->dest, path, kind == cfg->call ? cfg->interface : CALLS[kind].interface,
                                     member);
    if (m == NULL)
        die(EXIT_FAILURE_OTHER, "out of memory while building a message");
    dbus_message_iter_init_append(m, &it);
    if (drop) {
        if (kind == CALL_STACK_DROP)
            one = (dbus_uint32_t)strtoul(kind == cfg->call ? cfg->arg : CALLS[kind].default_arg, NULL, 10);
        append_or_die(dbus_message_iter_append_basic(&it, DBUS_TYPE_UINT32, &one));
    } else {
        const char *arg = kind == cfg->call ? cfg->arg : CALLS[kind].default_arg;
        append_or_die(dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &arg));
        if (kind == CALL_STACK_PAIR || kind == CALL_STACK_APPEND)
            append_string_dict(&it, id_entry);
        else if (kind == CALL_OPEN_WINDOW || kind == CALL_SWITCH_MODEL)
            append_string_dict(&it, no_entries);
    }
    return m;
}

/* Fails the run if `m` is an error reply, naming the error and the call. */
static void check_reply(DBusMessage *m, const char *what, long index)
{
    const char *text = NULL;
    if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_ERROR)
        return;
    if (!dbus_message_get_args(m, NULL, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID))
        text = "(no message)";
    fprintf(stderr, "bench-client: error reply to %s (call #%ld): %s: %s\n", what, index, dbus_message_get_error_name(m),
            text);
    /* First line of stdout carries the bare name so the harness can branch on it. */
    printf("%s\n", dbus_message_get_error_name(m));
    fflush(stdout);
    exit(EXIT_ERROR_REPLY);
}

/* Returns the next incoming message, reading from the socket as needed, or NULL
 * once `deadline` (monotonic seconds) has passed. */
static DBusMessage *next_message(DBusConnection *c, double deadline)
{
    for (;;) {
        DBusMessage *m = dbus_connection_pop_message(c);
        double left;
        if (m != NULL)
            return m;
        left = deadline - now_s();
        if (left <= 0)
            return NULL;
        if (!dbus_connection_read_write(c, (int)(left * 1000.0) + 1))
            die(EXIT_FAILURE_OTHER, "disconnected from the bus");
    }
}

/* ---- modes ---------------------------------------------------------------------------- */

static void print_header(const struct config *cfg, long calls, double seconds, double cpu)
{
    printf("{\"mode\":\"%s\",\"call\":\"%s\",\"dest\":\"%s\",\"calls\":%ld,\"inflight\":%ld,\"seconds\":%.6f,"
           "\"calls_per_sec\":%.1f,\"client_cpu_us_per_call\":%.2f,",
           cfg->mode, CALLS[cfg->call].name, cfg->dest, calls, strcmp(cfg->mode, "pipelined") == 0 ? cfg->inflight : 1,
           seconds,
           seconds > 0 ? (double)calls / seconds : 0.0, calls > 0 ? cpu * 1e6 / (double)calls : 0.0);
}

static void run_sequential(DBusConnection *c, const struct config *cfg)
{
    double *lat = xmalloc(sizeof(double) * (size_t)cfg->count);
    double t_start = now_s(), cpu_start = cpu_s(), seconds;
    DBusError err;
    long i;

    dbus_error_init(&err);
    for (i = 0; i < cfg->count; i++) {
        DBusMessage *call = build_call(cfg, cfg->call, cfg->path, i);
        double t0 = now_s();
        DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, call, cfg->timeout_ms, &err);
        lat[i] = now_s() - t0;
        if (reply == NULL) {
            /* send_with_reply_and_block turns an error reply into `err`. */
            fprintf(stderr, "bench-client: error reply to %s (call #%ld): %s: %s\n", dbus_message_get_member(call), i,
                    err.name, err.message);
            printf("%s\n", err.name);
            exit(EXIT_ERROR_REPLY);
        }
        dbus_message_unref(reply);
        dbus_message_unref(call);
    }
    seconds = now_s() - t_start;
    print_header(cfg, cfg->count, seconds, cpu_s() - cpu_start);
    print_latency_json("lat_", lat, cfg->count);
    printf("}\n");
    free(lat);
}

struct in_flight {
    dbus_uint32_t serial; /* 0 = free slot (libdbus never uses serial 0) */
    long index;
    double sent_at;
};

static void run_pipelined(DBusConnection *c, const struct config *cfg)
{
    /* Serials on one connection increase by one per message, so a power-of-two
     * table four times the window never sees two live calls in one slot. */
    size_t slots = 1;
    struct in_flight *table;
    double *lat = xmalloc(sizeof(double) * (size_t)cfg->count);
    long sent = 0, done = 0;
    double t_start, cpu_start, last_progress, seconds;

    while (slots < (size_t)cfg->inflight * 4)
        slots <<= 1;
    table = calloc(slots, sizeof *table);
    if (table == NULL)
        die(EXIT_FAILURE_OTHER, "out of memory");

    t_start = last_progress = now_s();
    cpu_start = cpu_s();
    while (done < cfg->count) {
        DBusMessage *m;
        while (sent < cfg->count && sent - done < cfg->inflight) {
            DBusMessage *call = build_call(cfg, cfg->call, cfg->path, sent);
            dbus_uint32_t serial = 0;
            struct in_flight *slot;
            if (!dbus_connection_send(c, call, &serial))
                die(EXIT_FAILURE_OTHER, "out of memory while sending");
            slot = &table[serial & (slots - 1)];
            if (slot->serial != 0)
                die(EXIT_FAILURE_OTHER, "internal: in-flight table collision at serial %u", serial);
            slot->serial = serial;
            slot->index = sent;
            slot->sent_at = now_s();
            dbus_message_unref(call);
            sent++;
        }
        m = next_message(c, last_progress + cfg->timeout_ms / 1000.0);
        if (m == NULL)
            die(EXIT_FAILURE_OTHER, "no reply within %d ms with %ld calls in flight (%ld of %ld done)", cfg->timeout_ms,
                sent - done, done, cfg->count);
        if (dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_METHOD_RETURN ||
            dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_ERROR) {
            dbus_uint32_t rs = dbus_message_get_reply_serial(m);
            struct in_flight *slot = &table[rs & (slots - 1)];
            if (slot->serial == rs) {
                check_reply(m, call_member(cfg->call, slot->index), slot->index);
                lat[done++] = now_s() - slot->sent_at;
                slot->serial = 0;
                last_progress = now_s();
            }
        }
        /* Signals (NameAcquired, anything the target broadcasts) are not ours: drop them. */
        dbus_message_unref(m);
    }
    seconds = now_s() - t_start;
    print_header(cfg, cfg->count, seconds, cpu_s() - cpu_start);
    print_latency_json("lat_", lat, cfg->count);
    printf("}\n");
    free(lat);
    free(table);
}

/* Sends `call` (taking ownership) and waits for its reply, dropping anything else that arrives. */
static void call_and_wait(DBusConnection *c, DBusMessage *call, const struct config *cfg, const char *what, long round)
{
    dbus_uint32_t serial = 0;
    double deadline = now_s() + cfg->timeout_ms / 1000.0;
    if (call == NULL || !dbus_connection_send(c, call, &serial))
        die(EXIT_FAILURE_OTHER, "out of memory while sending");
    dbus_message_unref(call);
    for (;;) {
        DBusMessage *m = next_message(c, deadline);
        int mine;
        if (m == NULL)
            die(EXIT_FAILURE_OTHER, "no reply to %s within %d ms (round %ld)", what, cfg->timeout_ms, round);
        mine = dbus_message_get_reply_serial(m) == serial;
        if (mine)
            check_reply(m, what, round);
        dbus_message_unref(m);
        if (mine)
            return;
    }
}

static void run_urlsignal(DBusConnection *c, const struct config *cfg)
{
    char rule[512];
    DBusError err;
    double *sig_lat = xmalloc(sizeof(double) * (size_t)cfg->count);
    double *reply_lat = xmalloc(sizeof(double) * (size_t)cfg->count);
    long round, signal_first = 0, extra_signals = 0;
    double t_start;

    /* sender= with a well-known name is resolved by the bus to its current owner. */
    snprintf(rule, sizeof rule, "type='signal',sender='%s',interface='%s',member='Changed'", cfg->dest,
             WINDOW_INTERFACE);
    dbus_error_init(&err);
    dbus_bus_add_match(c, rule, &err);
    if (dbus_error_is_set(&err))
        die(EXIT_FAILURE_OTHER, "AddMatch %s failed: %s", rule, err.message);

    t_start = now_s();
    for (round = 0; round < cfg->count; round++) {
        DBusMessage *call = build_call(cfg, CALL_OPEN_URL, cfg->path, round);
        dbus_uint32_t serial = 0;
        double t0, deadline, t_signal = -1, t_reply = -1;
        char *window = NULL;

        if (!dbus_connection_send(c, call, &serial))
            die(EXIT_FAILURE_OTHER, "out of memory while sending");
        dbus_message_unref(call);
        /* The clock starts once libdbus has the message; the socket write is part of what we measure. */
        t0 = now_s();
        deadline = t0 + cfg->timeout_ms / 1000.0;
        while (t_signal < 0 || t_reply < 0) {
            DBusMessage *m = next_message(c, deadline);
            if (m == NULL)
                die(EXIT_FAILURE_OTHER, "round %ld: %s within %d ms of OpenURL", round,
                    t_reply < 0 ? "no reply" : "no " WINDOW_INTERFACE ".Changed signal", cfg->timeout_ms);
            if (dbus_message_get_reply_serial(m) == serial) {
                check_reply(m, "OpenURL", round);
                t_reply = now_s();
            } else if (dbus_message_is_signal(m, WINDOW_INTERFACE, "Changed")) {
                if (t_signal < 0) {
                    t_signal = now_s();
                    /* A signal always has a path (the bus rejects one without). */
                    window = strdup(dbus_message_get_path(m) != NULL ? dbus_message_get_path(m) : "/");
                    if (window == NULL)
                        die(EXIT_FAILURE_OTHER, "out of memory");
                    signal_first += t_reply < 0;
                } else {
                    extra_signals++;
                }
            }
            dbus_message_unref(m);
        }
        sig_lat[round] = t_signal - t0;
        reply_lat[round] = t_reply - t0;

        if (cfg->back) {
            /* Undo the deep link on the window that reported it, so every round does the same work. */
            call_and_wait(c, build_call(cfg, CALL_STACK_PAIR, window, 1), cfg, "StackDropLast", round);
        }
        /* Barrier: the bus keeps one sender's messages in order, so once Ping's reply is
         * here, every Changed the target emitted before it has been received and dropped. */
        call_and_wait(c, dbus_message_new_method_call(cfg->dest, cfg->path, DBUS_INTERFACE_PEER, "Ping"), cfg,
                      "Peer.Ping", round);
        free(window);
    }
    printf("{\"mode\":\"urlsignal\",\"call\":\"open-url\",\"dest\":\"%s\",\"rounds\":%ld,\"seconds\":%.6f,"
           "\"signal_before_reply\":%ld,\"extra_signals\":%ld,",
           cfg->dest, cfg->count, now_s() - t_start, signal_first, extra_signals);
    print_latency_json("signal_", sig_lat, cfg->count);
    putchar(',');
    print_latency_json("reply_", reply_lat, cfg->count);
    printf("}\n");
    free(sig_lat);
    free(reply_lat);
}

static void run_once(DBusConnection *c, const struct config *cfg)
{
    long calls = cfg->call == CALL_STACK_PAIR ? 2 : 1, i;
    for (i = 0; i < calls; i++) {
        DBusMessage *call = build_call(cfg, cfg->call, cfg->path, i);
        dbus_uint32_t serial = 0;
        double deadline = now_s() + cfg->timeout_ms / 1000.0;
        const char *member = dbus_message_get_member(call);
        DBusMessage *m;
        if (!dbus_connection_send(c, call, &serial))
            die(EXIT_FAILURE_OTHER, "out of memory while sending");
        while ((m = next_message(c, deadline)) != NULL && dbus_message_get_reply_serial(m) != serial)
            dbus_message_unref(m);
        if (m == NULL)
            die(EXIT_FAILURE_OTHER, "no reply to %s within %d ms", member, cfg->timeout_ms);
        check_reply(m, member, i);
        if (i == calls - 1) {
            DBusMessageIter it;
            if (dbus_message_iter_init(m, &it) && (dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_STRING ||
                                                   dbus_message_iter_get_arg_type(&it) == DBUS_TYPE_OBJECT_PATH)) {
                const char *value = NULL;
                dbus_message_iter_get_basic(&it, &value);
                printf("%s\n", value);
            }
        }
        dbus_message_unref(m);
        dbus_message_unref(call);
    }
}

/* ---- command line ------------------------------------------------------------------------ */

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s sequential|pipelined|urlsignal|once --dest NAME [options]\n"
            "  --call KIND        echo | stack-pair | open-window | switch-model | open-url | stack-append | stack-drop\n"
            "  --path PATH        object path (required for stack-pair and switch-model: the window)\n"
            "  --interface IFACE  override the call's interface\n"
            "  --arg STRING       the call's string argument (Echo text, screen, scene, model or URL)\n"
            "  --count N          calls, or rounds for urlsignal (default 1000)\n"
            "  --inflight K       calls outstanding in pipelined mode (default 32)\n"
            "  --timeout-ms MS    reply timeout, and stall timeout when pipelined (default 10000)\n"
            "  --no-back          urlsignal: do not send StackDropLast after each round\n"
            "Connects to $DBUS_SESSION_BUS_ADDRESS. Exit 3 on an error reply (its name on stdout).\n",
            argv0);
    exit(EXIT_USAGE);
}

static long parse_long(const char *s, long min, long max, const char *flag)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || end == s || v < min || v > max)
        die(EXIT_USAGE, "%s wants an integer in [%ld, %ld], got '%s'", flag, min, max, s);
    return v;
}

static void parse_args(int argc, char **argv, struct config *cfg)
{
    int i;
    size_t k;
    DBusError err;

    if (argc < 2)
        usage(argv[0]);
    cfg->mode = argv[1];
    if (strcmp(cfg->mode, "sequential") != 0 && strcmp(cfg->mode, "pipelined") != 0 &&
        strcmp(cfg->mode, "urlsignal") != 0 && strcmp(cfg->mode, "once") != 0)
        usage(argv[0]);
    cfg->call = strcmp(cfg->mode, "urlsignal") == 0 ? CALL_OPEN_URL : CALL_ECHO;
    for (i = 2; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--no-back") == 0) {
            cfg->back = 0;
            continue;
        }
        if (i + 1 >= argc)
            usage(argv[0]);
        if (strcmp(flag, "--dest") == 0)
            cfg->dest = argv[++i];
        else if (strcmp(flag, "--path") == 0)
            cfg->path = argv[++i];
        else if (strcmp(flag, "--interface") == 0)
            cfg->interface = argv[++i];
        else if (strcmp(flag, "--arg") == 0)
            cfg->arg = argv[++i];
        else if (strcmp(flag, "--count") == 0)
            cfg->count = parse_long(argv[++i], 1, 100000000L, flag);
        else if (strcmp(flag, "--inflight") == 0)
            cfg->inflight = parse_long(argv[++i], 1, 65536, flag);
        else if (strcmp(flag, "--timeout-ms") == 0)
            cfg->timeout_ms = (int)parse_long(argv[++i], 1, 3600000, flag);
        else if (strcmp(flag, "--call") == 0) {
            const char *name = argv[++i];
            for (k = 0; k < sizeof CALLS / sizeof CALLS[0]; k++)
                if (strcmp(name, CALLS[k].name) == 0)
                    break;
            if (k == sizeof CALLS / sizeof CALLS[0])
                die(EXIT_USAGE, "unknown --call '%s'", name);
            cfg->call = (enum call_kind)k;
        } else
            usage(argv[0]);
    }
    if (strcmp(cfg->mode, "urlsignal") == 0 && cfg->call != CALL_OPEN_URL)
        die(EXIT_USAGE, "urlsignal always uses --call open-url");
    if (cfg->dest == NULL)
        die(EXIT_USAGE, "--dest is required");
    if (cfg->path == NULL)
        cfg->path = CALLS[cfg->call].path;
    if (cfg->path == NULL)
        die(EXIT_USAGE, "--call %s needs --path (the window's object path)", CALLS[cfg->call].name);
    if (cfg->interface == NULL)
        cfg->interface = CALLS[cfg->call].interface;
    if (cfg->arg == NULL)
        cfg->arg = CALLS[cfg->call].default_arg;
    /* stack-pair must end where it started: an odd count would leave one element pushed. */
    if (cfg->call == CALL_STACK_PAIR && (cfg->count & 1))
        cfg->count++;

    /* libdbus aborts the process on invalid names (reference §3.9): check them first. */
    dbus_error_init(&err);
    if (!dbus_validate_bus_name(cfg->dest, &err) || !dbus_validate_path(cfg->path, &err) ||
        !dbus_validate_interface(cfg->interface, &err) || !dbus_validate_utf8(cfg->arg, &err))
        die(EXIT_USAGE, "invalid argument: %s", err.message);
}

int main(int argc, char **argv)
{
    struct config cfg = { .count = 1000, .inflight = 32, .timeout_ms = 10000, .back = 1 };
    DBusError err;
    DBusConnection *c;

    parse_args(argc, argv, &cfg);
    dbus_error_init(&err);
    c = dbus_bus_get_private(DBUS_BUS_SESSION, &err);
    if (c == NULL)
        die(EXIT_FAILURE_OTHER, "cannot connect to the session bus: %s", err.message);
    dbus_connection_set_exit_on_disconnect(c, FALSE);

    if (strcmp(cfg.mode, "sequential") == 0)
        run_sequential(c, &cfg);
    else if (strcmp(cfg.mode, "pipelined") == 0)
        run_pipelined(c, &cfg);
    else if (strcmp(cfg.mode, "urlsignal") == 0)
        run_urlsignal(c, &cfg);
    else
        run_once(c, &cfg);
    fflush(stdout);

    dbus_connection_close(c);
    dbus_connection_unref(c);
    return 0;
}
