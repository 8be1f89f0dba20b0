#ifndef CDBUSSHIMS_H
#define CDBUSSHIMS_H
#include <dbus/dbus.h>
#include <spawn.h>

/*
 * CDBusShims: the few pieces of C that Swift cannot express against libdbus.
 *
 * The event-loop glue lives here because libdbus calls the watch/timeout callbacks with the connection lock
 * held; keeping them in C means no Swift code (and no Swift runtime locks) ever runs under that lock.
 */

/// An event loop that drives exactly one DBusConnection on the thread that calls CDBusShims_loop_wait.
typedef struct CDBusShims_Loop CDBusShims_Loop;

/// Creates a loop with its own eventfd. Returns NULL when out of memory or file descriptors.
CDBusShims_Loop *CDBusShims_loop_new(void);

/// Frees the loop. The connection must have been detached first.
void CDBusShims_loop_free(CDBusShims_Loop *loop);

/// Installs watch, timeout, wakeup and dispatch-status functions on `connection`. Returns 0 when out of memory.
/// Must be called on the thread that will call CDBusShims_loop_wait: notifications from that thread skip the
/// eventfd, because the thread dispatches before it sleeps anyway.
int CDBusShims_loop_attach(CDBusShims_Loop *loop, DBusConnection *connection);

/// Removes everything CDBusShims_loop_attach installed.
void CDBusShims_loop_detach(CDBusShims_Loop *loop, DBusConnection *connection);

/// Wakes a thread blocked in CDBusShims_loop_wait. Safe from any thread (it only writes the eventfd).
void CDBusShims_loop_wakeup(CDBusShims_Loop *loop);

/// Blocks until a watched fd is ready, a libdbus timeout expires or the loop is woken, then handles ready
/// watches and expired timeouts. Does not dispatch; the caller dispatches afterwards.
void CDBusShims_loop_wait(CDBusShims_Loop *loop);

/// pipe2(O_CLOEXEC): Glibc's Swift overlay hides it (it needs _GNU_SOURCE), and a plain pipe() followed by
/// fcntl would leak the fds into children spawned by other threads in between. Returns 0 or -1 with errno.
int CDBusShims_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34), hidden from Swift for the same _GNU_SOURCE
/// reason: makes a spawned child close every fd from `lowest` up, so it inherits only stdin/stdout/stderr.
int CDBusShims_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// reason: mallopt(M_ARENA_MAX, count) (<malloc.h> is not in Swift's Glibc module): at most `count` malloc
/// arenas for the process. Returns 1 on success, 0 on failure.
int CDBusShims_limit_malloc_arenas(int count);

/// reason: names the calling thread (pthread_setname_np needs _GNU_SOURCE, prctl is variadic); `name` is cut
/// to the kernel's 15 bytes. Threads show by name in top -H, gdb and /proc/PID/task/*/comm.
void CDBusShims_set_thread_name(const char *name);

#endif
