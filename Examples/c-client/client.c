/* navsession-c-client: opens a window of the demo, logs in, pushes a screen and follows Window1.Changed,
 * through C proxies that gdbus-codegen generates from the interface XML (see the Makefile).
 *
 *   navsession-c-client [BUS_NAME]     (default org.navsession.Demo; the session bus: DBUS_SESSION_BUS_ADDRESS)
 *
 * Prints one line per step and per Changed signal; exits 0 once the push's Changed has arrived, 1 on an error
 * (the D-Bus error name is printed) or when it does not arrive within 10 s. */
#include <stdio.h>
#include <stdlib.h>
#include "navsession-generated.h"

typedef struct {
  GMainLoop *loop;
  guint64 awaited; /* the version whose Changed ends the run; 0 while not known yet */
  guint64 last_seen;
  gboolean timed_out;
} Follow;

static void
on_changed (NavSessionWindow1 *window, guint64 version, guint64 previous_version, const gchar *cause_json,
            gboolean animated, GVariant *started, GVariant *finished, const gchar *steps_json, gpointer user_data)
{
  Follow *follow = user_data;
  g_print ("changed: v%" G_GUINT64_FORMAT " (from v%" G_GUINT64_FORMAT "), %" G_GSIZE_FORMAT
           " model(s) started, steps %s\n",
           version, previous_version, g_variant_n_children (started), steps_json);
  follow->last_seen = version;
  if (follow->awaited != 0 && version >= follow->awaited)
    g_main_loop_quit (follow->loop);
}

static gboolean
on_timeout (gpointer user_data)
{
  Follow *follow = user_data;
  follow->timed_out = TRUE;
  g_main_loop_quit (follow->loop);
  return G_SOURCE_REMOVE;
}

/* An empty a{ss}, or one pair. */
static GVariant *
params (const gchar *key, const gchar *value)
{
  GVariantBuilder builder;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  if (key != NULL)
    g_variant_builder_add (&builder, "{ss}", key, value);
  return g_variant_builder_end (&builder);
}

static int
fail (const gchar *what, GError *error)
{
  gchar *name = g_dbus_error_get_remote_error (error);
  g_printerr ("navsession-c-client: %s: %s%s%s\n", what, name ? name : "", name ? ": " : "", error->message);
  g_free (name);
  g_error_free (error);
  return EXIT_FAILURE;
}

int
main (int argc, char **argv)
{
  const gchar *bus_name = argc > 1 ? argv[1] : "org.navsession.Demo";
  GError *error = NULL;

  GDBusConnection *bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    return fail ("session bus", error);

  NavSessionSession1 *session = nav_session_session1_proxy_new_sync (
      bus, G_DBUS_PROXY_FLAGS_NONE, bus_name, "/org/navsession/Session1", NULL, &error);
  if (session == NULL)
    return fail ("Session1 proxy", error);

  gchar *path = NULL;
  if (!nav_session_session1_call_open_window_sync (session, "main", params (NULL, NULL), &path, NULL, &error))
    return fail ("OpenWindow", error);
  g_print ("opened %s\n", path);

  /* The proxy subscribes to the window's signals when it is made: before anything is changed. */
  NavSessionWindow1 *window = nav_session_window1_proxy_new_sync (
      bus, G_DBUS_PROXY_FLAGS_NONE, bus_name, path, NULL, &error);
  if (window == NULL)
    return fail ("Window1 proxy", error);
  Follow follow = { g_main_loop_new (NULL, FALSE), 0, 0, FALSE };
  g_signal_connect (window, "changed", G_CALLBACK (on_changed), &follow);

  guint64 version = 0;
  if (!nav_session_window1_call_switch_model_sync (window, "main", params (NULL, NULL), &version, NULL, &error))
    return fail ("SwitchModel", error);
  g_print ("logged in: v%" G_GUINT64_FORMAT "\n", version);

  if (!nav_session_window1_call_stack_append_sync (window, "detail", params ("id", "42"), &version, NULL, &error))
    return fail ("StackAppend", error);
  g_print ("pushed detail: v%" G_GUINT64_FORMAT "\n", version);

  follow.awaited = version;
  if (follow.last_seen < version)
    {
      guint timeout = g_timeout_add_seconds (10, on_timeout, &follow);
      g_main_loop_run (follow.loop);
      if (!follow.timed_out)
        g_source_remove (timeout);
    }
  if (follow.timed_out)
    {
      g_printerr ("navsession-c-client: no Changed for v%" G_GUINT64_FORMAT " within 10 s\n", version);
      return EXIT_FAILURE;
    }

  /* Asked, not cached: PropertiesChanged follows Changed, so the proxy's cache may not have it yet. */
  GVariant *reply = g_dbus_connection_call_sync (
      bus, bus_name, path, "org.freedesktop.DBus.Properties", "Get",
      g_variant_new ("(ss)", "org.navsession.Window1", "ActiveScreen"), G_VARIANT_TYPE ("(v)"),
      G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  if (reply == NULL)
    return fail ("ActiveScreen", error);
  GVariant *screen = NULL;
  g_variant_get (reply, "(v)", &screen);
  g_print ("active screen: %s\n", g_variant_get_string (screen, NULL));

  g_variant_unref (screen);
  g_variant_unref (reply);
  g_main_loop_unref (follow.loop);
  g_free (path);
  g_object_unref (window);
  g_object_unref (session);
  g_object_unref (bus);
  return EXIT_SUCCESS;
}
