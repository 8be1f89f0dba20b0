/*
 * floor-service: the fair floor for navsessiond's per-call cost (the daemon is held to
 * within 1.25x of a C service that honours the same contract).
 *
 * A C libdbus service that implements org.navsession.Window1.StackAppend(s, a{ss}) -> t and
 * StackDropLast(u) -> t on /org/navsession/Session1/window/1 with navsessiond's wire contract:
 *   - before the reply, one journal line of the same shape (with its "time", wall-clock milliseconds) written with
 *     write(2), and once the journal holds at
 *     least 256 lines and as many bytes as the last snapshot, a full snapshot written to a temporary file,
 *     fsync(2)ed and renamed (then the journal restarts);
 *   - Changed(t version, t previous_version, s cause_json, b animated, at started, at finished, s steps_json)
 *   - Announcement(t version, s text, t focus_model): the focused screen's title
 *   - VisibleModels (at) among the changed properties: the active model (no panes)
 *     with the same cause and steps JSON navsessiond sends;
 *   - org.freedesktop.DBus.Properties.PropertiesChanged with the Window1 properties whose value changed
 *     (Version, Title — the demo manifest's titles, "Home"/"Detail" —, ActiveScreen, ActiveModel, CanGoBack, CanPop,
 *     CanGoForward: a pop leaves a forward entry, a push clears it; CanUndo once there is a change, UndoLabel:
 *     "Undo open Detail" after a push, "Undo close Detail" after a pop) and Routes listed as invalidated
 *     (EmitsChangedSignal=invalidates: its value grows with the window);
 *   - then the reply; the same error names for a count of 0 (InvalidCount) and a pop at the root
 *     (AlreadyAtRoot);
 *   - org.navsession.Session1.OpenURL(s) -> o on /org/navsession/Session1 for navsession-demo://detail/<id>: one push
 *     of "detail" {"id": <id>} from the stack, journaled and announced the same way (the OpenURL round trip).
 * Whatever navsessiond costs beyond this is the Swift side's own.
 *
 * Usage: floor-service [BUS_NAME [STATE_DIR]]   (default org.navsession.BenchFloor, a new /tmp directory)
 * Connects to $DBUS_SESSION_BUS_ADDRESS; prints "ready" once the name is owned.
 *
 * Build: cc -Wall -Wextra -O2 floor-service.c $(pkg-config --cflags --libs dbus-1)
 */
#define _GNU_SOURCE
#include <dbus/dbus.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WINDOW_PATH "/org/navsession/Session1/window/1"
#define WINDOW_INTERFACE "org.navsession.Window1"
#define SESSION_PATH "/org/navsession/Session1"
#define SESSION_INTERFACE "org.navsession.Session1"
#define DEFAULT_NAME "org.navsession.BenchFloor"
#define COMPACTION_INTERVAL 256
#define STACK_ID 1

/* A growable text buffer; every append checks for out-of-memory by exiting (a benchmark, not a daemon). */
typedef struct {
    char *data;
    size_t length, capacity;
} Text;

static void text_reserve(Text *t, size_t more)
{
    if (t->length + more + 1 <= t->capacity)
        return;
    size_t capacity = t->capacity ? t->capacity : 256;
    while (capacity < t->length + more + 1)
        capacity *= 2;
    t->data = realloc(t->data, capacity);
    if (t->data == NULL) {
        perror("floor-service: realloc");
        exit(70);
    }
    t->capacity = capacity;
}

static void text_add(Text *t, const char *s, size_t n)
{
    text_reserve(t, n);
    memcpy(t->data + t->length, s, n);
    t->length += n;
    t->data[t->length] = '\0';
}

static void text_str(Text *t, const char *s) { text_add(t, s, strlen(s)); }

/* Formats straight into `t`, growing it when the first attempt does not fit (vsnprintf returns the full length,
 * never more than it could write, so nothing is read past what was written). */
static void text_fmt(Text *t, const char *format, ...)
{
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    text_reserve(t, 128);
    int n = vsnprintf(t->data + t->length, t->capacity - t->length, format, args);
    va_end(args);
    if (n < 0) {
        perror("floor-service: vsnprintf");
        exit(70);
    }
    if ((size_t)n >= t->capacity - t->length) {
        text_reserve(t, (size_t)n);
        vsnprintf(t->data + t->length, t->capacity - t->length, format, again);
    }
    va_end(again);
    t->length += (size_t)n;
}

/* A JSON string literal with the escapes navsessiond's JSONString.literal writes. */
static void text_json_string(Text *t, const char *s)
{
    text_str(t, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': text_str(t, "\\\""); break;
        case '\\': text_str(t, "\\\\"); break;
        case '\n': text_str(t, "\\n"); break;
        case '\r': text_str(t, "\\r"); break;
        case '\t': text_str(t, "\\t"); break;
        default:
            if (*p < 0x20)
                text_fmt(t, "\\u%04x", *p);
            else
                text_add(t, (const char *)p, 1);
        }
    }
    text_str(t, "\"");
}

/* The window: one stack whose path holds model ids and screen names (element 0 is the root, "home"). */
typedef struct {
    unsigned long long *ids;
    char **screens;
    size_t depth, capacity;
    unsigned long long next_id, version;
    int can_go_forward, can_undo;
    char undo_label[300];
    int journal_fd, journal_lines;
    size_t journal_bytes, snapshot_bytes;
    char *directory;
} Window;

static Window window;

static void push_element(unsigned long long id, const char *screen)
{
    if (window.depth == window.capacity) {
        window.capacity = window.capacity ? window.capacity * 2 : 64;
        window.ids = realloc(window.ids, window.capacity * sizeof *window.ids);
        window.screens = realloc(window.screens, window.capacity * sizeof *window.screens);
        if (window.ids == NULL || window.screens == NULL) {
            perror("floor-service: realloc");
            exit(70);
        }
    }
    window.ids[window.depth] = id;
    window.screens[window.depth] = strdup(screen);
    window.depth++;
}

static void write_all(int fd, const char *data, size_t length, const char *what)
{
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            perror(what);
            exit(74);
        }
        data += n;
        length -= (size_t)n;
    }
}

static void open_journal(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/journal.jsonl", window.directory);
    if (window.journal_fd >= 0)
        close(window.journal_fd);
    window.journal_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (window.journal_fd < 0) {
        perror("floor-service: journal");
        exit(74);
    }
    window.journal_lines = 0;
    window.journal_bytes = 0;
}

/* The whole window as one snapshot file, written the way navsessiond writes state.json. */
static void write_snapshot(void)
{
    Text t = {0};
    char path[4096], temporary[4096];
    text_fmt(&t, "{\"format\":\"navsession.session\",\"version\":%llu,\"windows\":[{\"number\":1,\"models\":[",
             window.version);
    text_fmt(&t, "{\"id\":%d,\"kind\":\"stack\",\"path\":[", STACK_ID);
    for (size_t i = 0; i < window.depth; i++)
        text_fmt(&t, "%s{\"model\":%llu}", i ? "," : "", window.ids[i]);
    text_str(&t, "]}");
    for (size_t i = 0; i < window.depth; i++) {
        text_fmt(&t, ",{\"attachment\":{\"index\":%zu,\"type\":\"path\"},\"id\":%llu,\"kind\":\"screen\",\"params\":{},"
                     "\"parent\":%d,\"screen\":", i, window.ids[i], STACK_ID);
        text_json_string(&t, window.screens[i]);
        text_str(&t, "}");
    }
    text_fmt(&t, "],\"nextModelID\":%llu}]}\n", window.next_id);
    snprintf(path, sizeof path, "%s/state.json", window.directory);
    snprintf(temporary, sizeof temporary, "%s/state.json.tmp", window.directory);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        perror("floor-service: snapshot");
        exit(74);
    }
    write_all(fd, t.data, t.length, "floor-service: snapshot");
    window.snapshot_bytes = t.length;
    fsync(fd);
    close(fd);
    if (rename(temporary, path) != 0) {
        perror("floor-service: rename");
        exit(74);
    }
    int directory = open(window.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory >= 0) {
        fsync(directory);
        close(directory);
    }
    free(t.data);
    open_journal();
}

/* One journal line around the batch JSON, as navsessiond's JournalLine.batch, written before the reply. */
static void journal(const Text *batch)
{
    Text line = {0};
    text_fmt(&line, "{\"batch\":");
    text_add(&line, batch->data, batch->length);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long long milliseconds = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
    text_fmt(&line, ",\"op\":\"batch\",\"version\":%llu,\"window\":1,\"time\":%lld}\n", window.version, milliseconds);
    write_all(window.journal_fd, line.data, line.length, "floor-service: journal");
    window.journal_bytes += line.length;
    free(line.data);
    /* navsessiond's rule: at least 256 lines and at least a snapshot's worth of journal bytes. */
    if (++window.journal_lines >= COMPACTION_INTERVAL && window.journal_bytes >= window.snapshot_bytes)
        write_snapshot();
}

static dbus_bool_t append_variant(DBusMessageIter *dict, const char *name, int type, const void *value)
{
    DBusMessageIter entry, variant;
    char signature[2] = {(char)type, '\0'};
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry)
        && dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &name)
        && dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, signature, &variant)
        && dbus_message_iter_append_basic(&variant, type, value)
        && dbus_message_iter_close_container(&entry, &variant)
        && dbus_message_iter_close_container(dict, &entry);
}

/* A dict entry whose value is an array of one id ("at"): VisibleModels without panes is the active model. */
static dbus_bool_t append_visible(DBusMessageIter *dict, const char *name, dbus_uint64_t id)
{
    DBusMessageIter entry, variant, array;
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry)
        && dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &name)
        && dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "at", &variant)
        && dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "t", &array)
        && dbus_message_iter_append_basic(&array, DBUS_TYPE_UINT64, &id)
        && dbus_message_iter_close_container(&variant, &array)
        && dbus_message_iter_close_container(&entry, &variant)
        && dbus_message_iter_close_container(dict, &entry);
}

static dbus_bool_t append_ids(DBusMessageIter *args, const unsigned long long *ids, size_t count)
{
    DBusMessageIter array;
    if (!dbus_message_iter_open_container(args, DBUS_TYPE_ARRAY, "t", &array))
        return FALSE;
    for (size_t i = 0; i < count; i++) {
        dbus_uint64_t id = ids[i];
        if (!dbus_message_iter_append_basic(&array, DBUS_TYPE_UINT64, &id))
            return FALSE;
    }
    return dbus_message_iter_close_container(args, &array);
}

/* Changed, then PropertiesChanged (only what changed), like navsessiond's announcement of one change. */
static void announce(DBusConnection *conn, const Text *cause, const unsigned long long *started, size_t started_count,
                     const unsigned long long *finished, size_t finished_count, const Text *steps, int back_changed,
                     int forward_changed, const char *undo_verb, const char *undo_screen)
{
    DBusMessage *changed = dbus_message_new_signal(WINDOW_PATH, WINDOW_INTERFACE, "Changed");
    DBusMessageIter args;
    dbus_uint64_t version = window.version, previous = window.version - 1;
    dbus_bool_t animated = TRUE;
    const char *cause_text = cause->data, *steps_text = steps->data;
    dbus_message_iter_init_append(changed, &args);
    if (!dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &version)
        || !dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &previous)
        || !dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &cause_text)
        || !dbus_message_iter_append_basic(&args, DBUS_TYPE_BOOLEAN, &animated)
        || !append_ids(&args, started, started_count) || !append_ids(&args, finished, finished_count)
        || !dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &steps_text)) {
        fprintf(stderr, "floor-service: out of memory\n");
        exit(70);
    }
    dbus_connection_send(conn, changed, NULL);
    dbus_message_unref(changed);

    const char *screen = window.screens[window.depth - 1];
    /* The manifest's title of the screen: its name capitalised ("home" -> "Home"). */
    char title_buffer[256];
    snprintf(title_buffer, sizeof title_buffer, "%s", screen);
    title_buffer[0] = (char)toupper((unsigned char)title_buffer[0]);
    const char *title = title_buffer;
    dbus_uint64_t active = window.ids[window.depth - 1];

    /* Announcement: focus moved to the pushed screen, or back to the one under it; the phrase of both is its title. */
    DBusMessage *announcement = dbus_message_new_signal(WINDOW_PATH, WINDOW_INTERFACE, "Announcement");
    DBusMessageIter aargs;
    dbus_message_iter_init_append(announcement, &aargs);
    if (!dbus_message_iter_append_basic(&aargs, DBUS_TYPE_UINT64, &version)
        || !dbus_message_iter_append_basic(&aargs, DBUS_TYPE_STRING, &title)
        || !dbus_message_iter_append_basic(&aargs, DBUS_TYPE_UINT64, &active)) {
        fprintf(stderr, "floor-service: out of memory\n");
        exit(70);
    }
    dbus_connection_send(conn, announcement, NULL);
    dbus_message_unref(announcement);

    DBusMessage *properties = dbus_message_new_signal(WINDOW_PATH, DBUS_INTERFACE_PROPERTIES, "PropertiesChanged");
    DBusMessageIter pargs, dict, invalidated;
    const char *interface = WINDOW_INTERFACE;
    dbus_bool_t can_go_back = window.depth > 1, can_go_forward = window.can_go_forward != 0, can_undo = TRUE;
    /* UndoLabel: what Undo would take back, in the manifest's titles. */
    char label_buffer[300];
    snprintf(label_buffer, sizeof label_buffer, "Undo %s %s", undo_verb, undo_screen);
    size_t title_at = 5 + strlen(undo_verb) + 1;
    if (title_at < sizeof label_buffer)
        label_buffer[title_at] = (char)toupper((unsigned char)label_buffer[title_at]);
    int undo_changed = !window.can_undo;
    int label_changed = strcmp(label_buffer, window.undo_label) != 0;
    window.can_undo = 1;
    memcpy(window.undo_label, label_buffer, sizeof label_buffer);
    const char *undo_label = window.undo_label;
    const char *routes = "Routes";
    dbus_message_iter_init_append(properties, &pargs);
    dbus_bool_t ok = dbus_message_iter_append_basic(&pargs, DBUS_TYPE_STRING, &interface)
        && dbus_message_iter_open_container(&pargs, DBUS_TYPE_ARRAY, "{sv}", &dict)
        && append_variant(&dict, "Version", DBUS_TYPE_UINT64, &version)
        && append_variant(&dict, "Title", DBUS_TYPE_STRING, &title)
        && append_variant(&dict, "ActiveScreen", DBUS_TYPE_STRING, &screen)
        && append_variant(&dict, "ActiveModel", DBUS_TYPE_UINT64, &active)
        && (!back_changed || (append_variant(&dict, "CanGoBack", DBUS_TYPE_BOOLEAN, &can_go_back)
                              && append_variant(&dict, "CanPop", DBUS_TYPE_BOOLEAN, &can_go_back)))
        && (!forward_changed || append_variant(&dict, "CanGoForward", DBUS_TYPE_BOOLEAN, &can_go_forward))
        && (!undo_changed || append_variant(&dict, "CanUndo", DBUS_TYPE_BOOLEAN, &can_undo))
        && (!label_changed || append_variant(&dict, "UndoLabel", DBUS_TYPE_STRING, &undo_label))
        && append_visible(&dict, "VisibleModels", active)
        && dbus_message_iter_close_container(&pargs, &dict)
        && dbus_message_iter_open_container(&pargs, DBUS_TYPE_ARRAY, "s", &invalidated)
        && dbus_message_iter_append_basic(&invalidated, DBUS_TYPE_STRING, &routes)
        && dbus_message_iter_close_container(&pargs, &invalidated);
    if (!ok) {
        fprintf(stderr, "floor-service: out of memory\n");
        exit(70);
    }
    dbus_connection_send(conn, properties, NULL);
    dbus_message_unref(properties);
}

static DBusMessage *version_reply(DBusMessage *call)
{
    DBusMessage *reply = dbus_message_new_method_return(call);
    dbus_uint64_t version = window.version;
    if (reply != NULL)
        dbus_message_append_args(reply, DBUS_TYPE_UINT64, &version, DBUS_TYPE_INVALID);
    return reply;
}

/* Pushes `screen` as one change: the journal line around `batch` before anything is announced, then Changed and
 * PropertiesChanged; frees `batch`. */
static void push_screen(DBusConnection *conn, Text *batch, const char *screen)
{
    unsigned long long id = window.next_id++;
    push_element(id, screen);
    window.version++;
    journal(batch);

    Text cause = {0}, steps = {0};
    text_str(&cause, "{\"commands\":");
    text_add(&cause, batch->data, batch->length);
    text_str(&cause, "}");
    text_fmt(&steps, "[{\"kind\":\"push\",\"stack\":%d,\"models\":[%llu]}]", STACK_ID, id);
    int forward_changed = window.can_go_forward;
    window.can_go_forward = 0;
    announce(conn, &cause, &id, 1, NULL, 0, &steps, window.depth == 2, forward_changed, "open", screen);
    free(batch->data);
    free(cause.data);
    free(steps.data);
}

static DBusMessage *stack_append(DBusConnection *conn, DBusMessage *call)
{
    DBusMessageIter args, dict;
    const char *screen;
    if (!dbus_message_has_signature(call, "sa{ss}"))
        return dbus_message_new_error(call, DBUS_ERROR_INVALID_ARGS, "StackAppend expects signature 'sa{ss}'");
    dbus_message_iter_init(call, &args);
    dbus_message_iter_get_basic(&args, &screen);
    if (screen[0] == '\0')
        return dbus_message_new_error(call, DBUS_ERROR_INVALID_ARGS, "the screen name is empty");
    dbus_message_iter_next(&args);

    /* The batch as navsessiond journals it, and the cause as Changed carries it. */
    Text batch = {0};
    text_str(&batch, "[{\"command\":\"stackAppend\",\"models\":[{\"kind\":\"screen\",\"params\":{");
    dbus_message_iter_recurse(&args, &dict);
    int first = 1;
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        DBusMessageIter entry;
        const char *key, *value;
        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        dbus_message_iter_get_basic(&entry, &value);
        if (!first)
            text_str(&batch, ",");
        first = 0;
        text_json_string(&batch, key);
        text_str(&batch, ":");
        text_json_string(&batch, value);
        dbus_message_iter_next(&dict);
    }
    text_str(&batch, "},\"screen\":");
    text_json_string(&batch, screen);
    text_str(&batch, "}]}]");
    push_screen(conn, &batch, screen);
    return version_reply(call);
}

/* Session1.OpenURL for the one link the benchmark opens, navsession-demo://detail/<id>: navsessiond applies it as
 * one stackAppend from the window's stack (journaled and announced like a call), then replies with the window. */
static DBusMessage *open_url(DBusConnection *conn, DBusMessage *call)
{
    static const char prefix[] = "navsession-demo://detail/";
    const char *url, *path = WINDOW_PATH;
    if (!dbus_message_get_args(call, NULL, DBUS_TYPE_STRING, &url, DBUS_TYPE_INVALID))
        return dbus_message_new_error(call, DBUS_ERROR_INVALID_ARGS, "OpenURL expects signature 's'");
    const char *id = url + sizeof prefix - 1;
    if (strncmp(url, prefix, sizeof prefix - 1) != 0 || id[0] == '\0' || strspn(id, "0123456789") != strlen(id))
        return dbus_message_new_error(call, "org.navsession.Error.NoRouteMatched", "the floor opens detail links only");
    Text batch = {0};
    text_fmt(&batch, "[{\"command\":\"stackAppend\",\"from\":%d,\"models\":[{\"kind\":\"screen\",\"params\":{\"id\":", STACK_ID);
    text_json_string(&batch, id);
    text_str(&batch, "},\"screen\":\"detail\"}]}]");
    push_screen(conn, &batch, "detail");
    DBusMessage *reply = dbus_message_new_method_return(call);
    if (reply != NULL)
        dbus_message_append_args(reply, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID);
    return reply;
}

static DBusMessage *stack_drop_last(DBusConnection *conn, DBusMessage *call)
{
    dbus_uint32_t count = 0;
    if (!dbus_message_get_args(call, NULL, DBUS_TYPE_UINT32, &count, DBUS_TYPE_INVALID))
        return dbus_message_new_error(call, DBUS_ERROR_INVALID_ARGS, "StackDropLast expects signature 'u'");
    if (count == 0)
        return dbus_message_new_error(call, "org.navsession.Error.InvalidCount", "count 0 must be at least 1");
    if (window.depth <= 1)
        return dbus_message_new_error(call, "org.navsession.Error.AlreadyAtRoot", "stack #1 is already at its root");
    size_t dropped = count < window.depth - 1 ? count : window.depth - 1;
    unsigned long long *finished = malloc(dropped * sizeof *finished);
    Text batch = {0}, cause = {0}, steps = {0};
    char closed[256]; /* the screen the pop closes (UndoLabel: "Undo close <title>") */
    snprintf(closed, sizeof closed, "%s", window.screens[window.depth - 1]);
    text_fmt(&steps, "[{\"kind\":\"pop\",\"stack\":%d,\"models\":[", STACK_ID);
    for (size_t i = 0; i < dropped; i++) {
        finished[i] = window.ids[window.depth - 1 - i];
        text_fmt(&steps, "%s%llu", i ? "," : "", finished[i]);
        free(window.screens[window.depth - 1 - i]);
    }
    text_str(&steps, "]}]");
    window.depth -= dropped;
    window.version++;
    text_fmt(&batch, "[{\"command\":\"stackDropLast\",\"count\":%u}]", count);
    journal(&batch);
    text_str(&cause, "{\"commands\":");
    text_add(&cause, batch.data, batch.length);
    text_str(&cause, "}");
    int forward_changed = !window.can_go_forward;
    window.can_go_forward = 1;
    announce(conn, &cause, NULL, 0, finished, dropped, &steps, window.depth == 1, forward_changed, "close", closed);
    free(finished);
    free(batch.data);
    free(cause.data);
    free(steps.data);
    return version_reply(call);
}

static DBusHandlerResult handle_message(DBusConnection *conn, DBusMessage *msg, void *data)
{
    DBusMessage *reply;
    (void)data;
    if (dbus_message_is_method_call(msg, WINDOW_INTERFACE, "StackAppend"))
        reply = stack_append(conn, msg);
    else if (dbus_message_is_method_call(msg, WINDOW_INTERFACE, "StackDropLast"))
        reply = stack_drop_last(conn, msg);
    else if (dbus_message_is_method_call(msg, SESSION_INTERFACE, "OpenURL"))
        reply = open_url(conn, msg);
    else
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    if (reply != NULL) {
        if (!dbus_message_get_no_reply(msg))
            dbus_connection_send(conn, reply, NULL);
        dbus_message_unref(reply);
    }
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : DEFAULT_NAME;
    char template[] = "/tmp/floor-service-XXXXXX";
    window.directory = argc > 2 ? argv[2] : mkdtemp(template);
    if (window.directory == NULL || (mkdir(window.directory, 0700) != 0 && errno != EEXIST)) {
        perror("floor-service: state directory");
        return 74;
    }
    window.journal_fd = -1;
    window.next_id = 3;
    push_element(2, "home");
    open_journal();

    DBusError err;
    dbus_error_init(&err);
    DBusConnection *conn = dbus_bus_get(DBUS_BUS_SESSION, &err);
    if (conn == NULL) {
        fprintf(stderr, "floor-service: cannot connect: %s\n", err.message);
        return 69;
    }
    static const DBusObjectPathVTable vtable = {.message_function = handle_message};
    if (!dbus_connection_register_object_path(conn, WINDOW_PATH, &vtable, NULL)
        || !dbus_connection_register_object_path(conn, SESSION_PATH, &vtable, NULL)) {
        fprintf(stderr, "floor-service: out of memory\n");
        return 70;
    }
    if (dbus_bus_request_name(conn, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &err) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "floor-service: cannot own %s: %s\n", name, dbus_error_is_set(&err) ? err.message : "taken");
        return 69;
    }
    printf("ready\n");
    fflush(stdout);
    while (dbus_connection_read_write_dispatch(conn, -1))
        ;
    return 0;
}
