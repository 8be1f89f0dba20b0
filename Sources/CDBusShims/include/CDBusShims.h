#ifndef CDBUSSHIMS_H
#define CDBUSSHIMS_H
#include <dbus/dbus.h>

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

/// Writes all `length` bytes of `bytes` to the connection's socket, after libdbus has written whatever it had
/// queued (that was queued first). For messages DBusKit marshalled whole: they skip libdbus's outgoing queue
/// and its re-validation. Waits in poll while the socket is full (the bus reads its clients continuously), so
/// a return means every byte is with the kernel. Returns 0 on success, -1 when the connection has no socket
/// (nothing written: send through libdbus instead), or an errno when the socket failed (the connection is
/// gone; libdbus sees the hang-up on its next read).
int CDBusShims_write_direct(DBusConnection *connection, const void *bytes, size_t length);

#endif
