#define _GNU_SOURCE
#include "CDBusShims.h"

#include <fcntl.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A connection rarely has more than two watches and a few pending-call timeouts, so flat arrays are enough. */
typedef struct {
    DBusTimeout *timeout;
    int64_t deadline_ms;
} CDBusShims_TimeoutEntry;

struct CDBusShims_Loop {
    int event_fd;
    DBusWatch **watches;
    int watch_count;
    int watch_capacity;
    CDBusShims_TimeoutEntry *timeouts;
    int timeout_count;
    int timeout_capacity;
    struct pollfd *pollfds;
    int pollfd_capacity;
    /* The thread that runs CDBusShims_loop_wait (and attached the connection); set once by attach. */
    pthread_t owner;
    int has_owner;
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

CDBusShims_Loop *CDBusShims_loop_new(void) {
    CDBusShims_Loop *loop = calloc(1, sizeof(CDBusShims_Loop));
    if (loop == NULL) return NULL;
    loop->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (loop->event_fd < 0) {
        free(loop);
        return NULL;
    }
    return loop;
}

void CDBusShims_loop_free(CDBusShims_Loop *loop) {
    if (loop == NULL) return;
    close(loop->event_fd);
    free(loop->watches);
    free(loop->timeouts);
    free(loop->pollfds);
    free(loop);
}

void CDBusShims_loop_wakeup(CDBusShims_Loop *loop) {
    uint64_t one = 1;
    /* EAGAIN means the counter is already non-zero, so the loop will wake anyway. */
    ssize_t ignored = write(loop->event_fd, &one, sizeof one);
    (void)ignored;
}

/* The callbacks below run with the connection lock held: they only do bookkeeping. */

static dbus_bool_t add_watch(DBusWatch *watch, void *data) {
    CDBusShims_Loop *loop = data;
    if (loop->watch_count == loop->watch_capacity) {
        int capacity = loop->watch_capacity ? loop->watch_capacity * 2 : 4;
        DBusWatch **grown = realloc(loop->watches, sizeof(DBusWatch *) * (size_t)capacity);
        if (grown == NULL) return FALSE;
        loop->watches = grown;
        loop->watch_capacity = capacity;
    }
    loop->watches[loop->watch_count++] = watch;
    return TRUE;
}

static void remove_watch(DBusWatch *watch, void *data) {
    CDBusShims_Loop *loop = data;
    for (int i = 0; i < loop->watch_count; i++) {
        if (loop->watches[i] == watch) {
            loop->watches[i] = loop->watches[--loop->watch_count];
            return;
        }
    }
}

/* libdbus calls the notifications below from whichever thread touched the connection. On the loop's own
 * thread a wakeup is pointless (the thread rebuilds its poll set and dispatches before sleeping again), and
 * skipping it saves an eventfd write, read and extra poll per message. */
static void wake_if_foreign(CDBusShims_Loop *loop) {
    if (loop->has_owner && pthread_equal(pthread_self(), loop->owner)) return;
    CDBusShims_loop_wakeup(loop);
}

static void toggle_watch(DBusWatch *watch, void *data) {
    /* Enabled state is read from the watch at every poll; waking makes a blocked poll pick the change up. */
    (void)watch;
    wake_if_foreign(data);
}

static int64_t deadline_for(DBusTimeout *timeout) {
    /* A zero interval would make the expiry scan below spin; one millisecond is the loop's resolution. */
    int interval = dbus_timeout_get_interval(timeout);
    return now_ms() + (interval > 0 ? interval : 1);
}

static dbus_bool_t add_timeout(DBusTimeout *timeout, void *data) {
    CDBusShims_Loop *loop = data;
    if (loop->timeout_count == loop->timeout_capacity) {
        int capacity = loop->timeout_capacity ? loop->timeout_capacity * 2 : 8;
        CDBusShims_TimeoutEntry *grown =
            realloc(loop->timeouts, sizeof(CDBusShims_TimeoutEntry) * (size_t)capacity);
        if (grown == NULL) return FALSE;
        loop->timeouts = grown;
        loop->timeout_capacity = capacity;
    }
    loop->timeouts[loop->timeout_count].timeout = timeout;
    loop->timeouts[loop->timeout_count].deadline_ms = deadline_for(timeout);
    loop->timeout_count++;
    wake_if_foreign(loop);
    return TRUE;
}

static void remove_timeout(DBusTimeout *timeout, void *data) {
    CDBusShims_Loop *loop = data;
    for (int i = 0; i < loop->timeout_count; i++) {
        if (loop->timeouts[i].timeout == timeout) {
            loop->timeouts[i] = loop->timeouts[--loop->timeout_count];
            return;
        }
    }
}

static void toggle_timeout(DBusTimeout *timeout, void *data) {
    CDBusShims_Loop *loop = data;
    for (int i = 0; i < loop->timeout_count; i++) {
        if (loop->timeouts[i].timeout == timeout) {
            loop->timeouts[i].deadline_ms = deadline_for(timeout);
        }
    }
    wake_if_foreign(loop);
}

static void wakeup_main(void *data) { wake_if_foreign(data); }

static void dispatch_status_changed(DBusConnection *connection, DBusDispatchStatus status, void *data) {
    (void)connection;
    if (status == DBUS_DISPATCH_DATA_REMAINS) wake_if_foreign(data);
}

int CDBusShims_loop_attach(CDBusShims_Loop *loop, DBusConnection *connection) {
    loop->owner = pthread_self();
    loop->has_owner = 1;
    if (!dbus_connection_set_watch_functions(connection, add_watch, remove_watch, toggle_watch, loop, NULL))
        return 0;
    if (!dbus_connection_set_timeout_functions(connection, add_timeout, remove_timeout, toggle_timeout, loop, NULL))
        return 0;
    dbus_connection_set_wakeup_main_function(connection, wakeup_main, loop, NULL);
    dbus_connection_set_dispatch_status_function(connection, dispatch_status_changed, loop, NULL);
    return 1;
}

void CDBusShims_loop_detach(CDBusShims_Loop *loop, DBusConnection *connection) {
    (void)loop;
    dbus_connection_set_watch_functions(connection, NULL, NULL, NULL, NULL, NULL);
    dbus_connection_set_timeout_functions(connection, NULL, NULL, NULL, NULL, NULL);
    dbus_connection_set_wakeup_main_function(connection, NULL, NULL, NULL);
    dbus_connection_set_dispatch_status_function(connection, NULL, NULL, NULL);
}

void CDBusShims_loop_wait(CDBusShims_Loop *loop) {
    int needed = loop->watch_count + 1;
    if (needed > loop->pollfd_capacity) {
        struct pollfd *grown = realloc(loop->pollfds, sizeof(struct pollfd) * (size_t)needed);
        if (grown == NULL) return; /* Retried on the next turn; nothing is lost. */
        loop->pollfds = grown;
        loop->pollfd_capacity = needed;
    }
    /* Snapshot the watches: dbus_watch_handle may add or remove watches while we iterate. */
    DBusWatch *polled[64];
    int count = 0;
    loop->pollfds[0].fd = loop->event_fd;
    loop->pollfds[0].events = POLLIN;
    loop->pollfds[0].revents = 0;
    for (int i = 0; i < loop->watch_count && count < 63; i++) {
        DBusWatch *watch = loop->watches[i];
        if (!dbus_watch_get_enabled(watch)) continue;
        unsigned int flags = dbus_watch_get_flags(watch);
        short events = 0;
        if (flags & DBUS_WATCH_READABLE) events |= POLLIN;
        if (flags & DBUS_WATCH_WRITABLE) events |= POLLOUT;
        polled[count] = watch;
        count++;
        loop->pollfds[count].fd = dbus_watch_get_unix_fd(watch);
        loop->pollfds[count].events = events;
        loop->pollfds[count].revents = 0;
    }

    int timeout_ms = -1;
    int64_t now = now_ms();
    for (int i = 0; i < loop->timeout_count; i++) {
        if (!dbus_timeout_get_enabled(loop->timeouts[i].timeout)) continue;
        int64_t remaining = loop->timeouts[i].deadline_ms - now;
        if (remaining < 0) remaining = 0;
        if (timeout_ms < 0 || remaining < timeout_ms) timeout_ms = (int)remaining;
    }

    int ready = poll(loop->pollfds, (nfds_t)(count + 1), timeout_ms);
    if (ready < 0 && errno != EINTR) return;

    if (ready > 0 && (loop->pollfds[0].revents & POLLIN)) {
        uint64_t value;
        ssize_t ignored = read(loop->event_fd, &value, sizeof value);
        (void)ignored;
    }
    for (int i = 0; ready > 0 && i < count; i++) {
        short revents = loop->pollfds[i + 1].revents;
        if (revents == 0) continue;
        unsigned int flags = 0;
        if (revents & POLLIN) flags |= DBUS_WATCH_READABLE;
        if (revents & POLLOUT) flags |= DBUS_WATCH_WRITABLE;
        if (revents & POLLHUP) flags |= DBUS_WATCH_HANGUP;
        if (revents & POLLERR) flags |= DBUS_WATCH_ERROR;
        /* A watch removed by an earlier handle call in this turn must not be touched. */
        int still_present = 0;
        for (int j = 0; j < loop->watch_count; j++) {
            if (loop->watches[j] == polled[i]) still_present = 1;
        }
        if (still_present) dbus_watch_handle(polled[i], flags);
    }

    now = now_ms();
    for (int i = 0; i < loop->timeout_count; i++) {
        CDBusShims_TimeoutEntry *entry = &loop->timeouts[i];
        if (!dbus_timeout_get_enabled(entry->timeout) || entry->deadline_ms > now) continue;
        DBusTimeout *timeout = entry->timeout;
        entry->deadline_ms = deadline_for(timeout);
        /* Handling may remove this or other timeouts; restart the scan afterwards to stay in bounds. */
        dbus_timeout_handle(timeout);
        i = -1;
        now = now_ms();
    }
}

int CDBusShims_write_direct(DBusConnection *connection, const void *bytes, size_t length) {
    int fd = -1;
    if (!dbus_connection_get_socket(connection, &fd) || fd < 0) return -1;
    /* What libdbus holds was queued before these bytes; it goes first (normally empty: no system call). */
    if (dbus_connection_has_messages_to_send(connection)) dbus_connection_flush(connection);
    const char *next = bytes;
    size_t left = length;
    while (left > 0) {
        ssize_t written = send(fd, next, left, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (written > 0) {
            next += written;
            left -= (size_t)written;
            continue;
        }
        if (written < 0 && errno == EINTR) continue;
        if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd writable = { .fd = fd, .events = POLLOUT, .revents = 0 };
            int ready = poll(&writable, 1, 1000);
            if (ready < 0 && errno != EINTR) return errno;
            if (ready > 0 && (writable.revents & (POLLERR | POLLHUP | POLLNVAL))) return EPIPE;
            continue;
        }
        return written < 0 ? errno : EPIPE;
    }
    return 0;
}
