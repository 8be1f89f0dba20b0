/*
 * echo-service: the baseline for the bus benchmark.
 *
 * A deliberately minimal libdbus responder: it owns a well-known name, exports
 * org.navsession.BenchEcho1.Echo(s) -> s at /org/navsession/BenchEcho, and does
 * nothing else. Whatever navsessiond costs on top of this is the daemon's own
 * overhead, because both run behind the same bus and are driven by the same
 * client (bench-client.c).
 *
 * Usage: echo-service [BUS_NAME]      (default org.navsession.BenchEcho)
 * Connects to $DBUS_SESSION_BUS_ADDRESS; prints "ready" once the name is owned.
 *
 * Build: cc -Wall -Wextra -O2 echo-service.c $(pkg-config --cflags --libs dbus-1)
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ECHO_PATH "/org/navsession/BenchEcho"
#define ECHO_INTERFACE "org.navsession.BenchEcho1"
#define DEFAULT_NAME "org.navsession.BenchEcho"

/* Sends the reply unless the caller asked for none. Returns FALSE only on OOM,
 * so the handler can ask libdbus to re-dispatch the message later instead of
 * replying twice or not at all. */
static dbus_bool_t send_reply(DBusConnection *conn, DBusMessage *call, DBusMessage *reply)
{
    dbus_bool_t ok;
    if (reply == NULL)
        return FALSE;
    ok = dbus_message_get_no_reply(call) ? TRUE : dbus_connection_send(conn, reply, NULL);
    dbus_message_unref(reply);
    return ok;
}

static DBusHandlerResult handle_message(DBusConnection *conn, DBusMessage *msg, void *data)
{
    DBusError err;
    const char *text = NULL;
    DBusMessage *reply;
    (void)data;

    if (!dbus_message_is_method_call(msg, ECHO_INTERFACE, "Echo"))
        /* libdbus answers unhandled method calls with UnknownMethod itself,
         * so every call still gets exactly one reply. */
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;

    dbus_error_init(&err);
    if (!dbus_message_get_args(msg, &err, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID)) {
        /* Wrong signature: a typed error, never a silent drop. */
        reply = dbus_message_new_error(msg, DBUS_ERROR_INVALID_ARGS, err.message);
        dbus_error_free(&err);
    } else {
        /* The reply aliases the call's string; append_args copies it. */
        reply = dbus_message_new_method_return(msg);
        if (reply != NULL && !dbus_message_append_args(reply, DBUS_TYPE_STRING, &text, DBUS_TYPE_INVALID)) {
            dbus_message_unref(reply);
            reply = NULL;
        }
    }
    return send_reply(conn, msg, reply) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NEED_MEMORY;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : DEFAULT_NAME;
    static const DBusObjectPathVTable vtable = { .message_function = handle_message };
    DBusError err;
    DBusConnection *conn;
    int owned;

    if (argc > 2 || (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))) {
        fprintf(stderr, "usage: %s [BUS_NAME]   (connects to $DBUS_SESSION_BUS_ADDRESS)\n", argv[0]);
        return 2;
    }
    /* Validate before libdbus sees it: invalid names abort inside libdbus. */
    dbus_error_init(&err);
    if (!dbus_validate_bus_name(name, &err)) {
        fprintf(stderr, "echo-service: invalid bus name '%s': %s\n", name, err.message);
        return 2;
    }

    conn = dbus_bus_get_private(DBUS_BUS_SESSION, &err);
    if (conn == NULL) {
        fprintf(stderr, "echo-service: cannot connect to the session bus: %s\n", err.message);
        return 1;
    }
    /* Leave the loop ourselves when the bus goes away rather than _exit() inside libdbus. */
    dbus_connection_set_exit_on_disconnect(conn, FALSE);

    if (!dbus_connection_try_register_object_path(conn, ECHO_PATH, &vtable, NULL, &err)) {
        fprintf(stderr, "echo-service: cannot export %s: %s\n", ECHO_PATH, err.message);
        return 1;
    }
    owned = dbus_bus_request_name(conn, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &err);
    if (owned != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "echo-service: cannot own %s: %s\n", name,
                dbus_error_is_set(&err) ? err.message : "name already taken");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);

    /* A pure responder never sends from another thread, so the blocking
     * read_write_dispatch loop is adequate here (reference §3.6, mode 1). */
    while (dbus_connection_read_write_dispatch(conn, -1))
        ;

    dbus_connection_close(conn);
    dbus_connection_unref(conn);
    return 0;
}
