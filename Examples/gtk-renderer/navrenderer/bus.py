"""The renderer's only link to navsessiond: D-Bus calls and signals through Gio.

Nothing here knows GTK widgets.  :class:`NavBus` follows the session's ObjectManager and forwards
what happens to a :class:`Listener`; every call is asynchronous and reports errors to a callback.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Protocol

from gi.repository import Gio, GLib

SESSION_PATH = "/org/navsession/Session1"
SESSION_IFACE = "org.navsession.Session1"
WINDOW_IFACE = "org.navsession.Window1"
OBJECT_MANAGER_IFACE = "org.freedesktop.DBus.ObjectManager"
PROPERTIES_IFACE = "org.freedesktop.DBus.Properties"
CALL_TIMEOUT_MS = 10_000

log = logging.getLogger("gtk-renderer.bus")

OnError = Callable[[GLib.Error], None]


class Listener(Protocol):
    def window_added(self, path: str) -> None: ...
    def window_removed(self, path: str) -> None: ...
    def window_changed(self, path: str, version: int, previous: int, animated: bool, steps_json: str) -> None: ...
    def window_properties(self, path: str, changed: dict[str, Any]) -> None: ...
    def daemon_gone(self) -> None: ...


def error_name(error: GLib.Error) -> str:
    """The D-Bus error name of a call's error (e.g. ``org.navsession.Error.StaleReport``)."""
    return Gio.DBusError.get_remote_error(error) or error.message


class NavBus:
    """Follows the windows of the daemon that owns ``name`` on ``connection``."""

    def __init__(self, connection: Gio.DBusConnection, name: str, listener: Listener) -> None:
        self.connection = connection
        self.name = name
        self.listener = listener
        self.windows: set[str] = set()
        self._subscriptions: list[int] = []
        self._watch = 0

    # -- lifetime -------------------------------------------------------------------------------

    def start(self) -> None:
        sub = self.connection.signal_subscribe
        none = Gio.DBusSignalFlags.NONE
        self._subscriptions = [
            sub(self.name, OBJECT_MANAGER_IFACE, "InterfacesAdded", SESSION_PATH, None, none, self._on_added),
            sub(self.name, OBJECT_MANAGER_IFACE, "InterfacesRemoved", SESSION_PATH, None, none, self._on_removed),
            sub(self.name, WINDOW_IFACE, "Changed", None, None, none, self._on_changed),
            sub(self.name, PROPERTIES_IFACE, "PropertiesChanged", None, WINDOW_IFACE, none, self._on_properties),
        ]
        self._watch = Gio.bus_watch_name_on_connection(
            self.connection, self.name, Gio.BusNameWatcherFlags.NONE, self._on_appeared, self._on_vanished)

    def stop(self) -> None:
        for subscription in self._subscriptions:
            self.connection.signal_unsubscribe(subscription)
        self._subscriptions = []
        if self._watch:
            Gio.bus_unwatch_name(self._watch)
            self._watch = 0

    # -- calls ----------------------------------------------------------------------------------

    def call(self, path: str, interface: str, method: str, args: GLib.Variant | None,
             on_reply: Callable[[GLib.Variant], None] | None = None, on_error: OnError | None = None) -> None:
        def done(connection: Gio.DBusConnection, result: Gio.AsyncResult) -> None:
            try:
                reply = connection.call_finish(result)
            except GLib.Error as error:
                if on_error:
                    on_error(error)
                else:
                    log.warning("%s.%s on %s failed: %s", interface, method, path, error.message)
                return
            if on_reply:
                on_reply(reply)

        self.connection.call(self.name, path, interface, method, args, None, Gio.DBusCallFlags.NONE,
                             CALL_TIMEOUT_MS, None, done)

    def fetch(self, path: str, on_done: Callable[[dict[str, Any], dict[str, Any]], None],
              on_error: OnError | None = None) -> None:
        """GetState then the Window1 properties (asked back to back, so they describe one moment
        unless another client changes the window in between — its Changed then fetches again)."""
        results: dict[str, Any] = {}

        def state(reply: GLib.Variant) -> None:
            results["state"] = json.loads(reply.unpack()[0])
            finish()

        def props(reply: GLib.Variant) -> None:
            results["props"] = reply.unpack()[0]
            finish()

        def finish() -> None:
            if "state" in results and "props" in results:
                on_done(results["state"], results["props"])

        self.call(path, WINDOW_IFACE, "GetState", None, state, on_error)
        self.call(path, PROPERTIES_IFACE, "GetAll", GLib.Variant("(s)", (WINDOW_IFACE,)), props, on_error)

    def report(self, path: str, method: str, args: GLib.Variant | None, on_error: OnError) -> None:
        """A renderer report (ReportPopped, ReportDismissed, …); its effect arrives as Changed."""
        log.info("report %s%s on %s", method, args.print_(False) if args else "()", path)
        self.call(path, WINDOW_IFACE, method, args, None, on_error)

    def apply_at(self, path: str, batch_json: str, version: int, on_error: OnError) -> None:
        """Window1.Apply of ``batch_json`` only if the window is still at ``version`` (the state the user saw);
        otherwise org.navsession.Error.VersionMismatch and nothing changes. Its effect arrives as Changed."""
        log.info("apply %s at version %d on %s", batch_json, version, path)
        args = GLib.Variant("(sa{ss})", (batch_json, {"expected_version": str(version)}))
        self.call(path, WINDOW_IFACE, "Apply", args, None, on_error)

    # -- signals --------------------------------------------------------------------------------

    def _on_appeared(self, connection: Gio.DBusConnection, name: str, owner: str) -> None:
        log.info("%s appeared (%s)", name, owner)

        def objects(reply: GLib.Variant) -> None:
            managed: dict[str, dict[str, Any]] = reply.unpack()[0]
            paths = sorted((p for p, ifaces in managed.items() if WINDOW_IFACE in ifaces), key=_window_number)
            for path in set(self.windows) - set(paths):
                self._remove(path)
            for path in paths:
                self._add(path)

        self.call(SESSION_PATH, OBJECT_MANAGER_IFACE, "GetManagedObjects", None, objects)

    def _on_vanished(self, connection: Gio.DBusConnection | None, name: str) -> None:
        if self.windows:
            log.info("%s vanished: closing %d window(s)", name, len(self.windows))
        for path in sorted(self.windows):
            self._remove(path)
        self.listener.daemon_gone()

    def _on_added(self, _c: Any, _s: str, _p: str, _i: str, _m: str, params: GLib.Variant) -> None:
        path, interfaces = params.unpack()
        if WINDOW_IFACE in interfaces:
            self._add(path)

    def _on_removed(self, _c: Any, _s: str, _p: str, _i: str, _m: str, params: GLib.Variant) -> None:
        path, interfaces = params.unpack()
        if WINDOW_IFACE in interfaces:
            self._remove(path)

    def _on_changed(self, _c: Any, _s: str, path: str, _i: str, _m: str, params: GLib.Variant) -> None:
        version, previous, _cause, animated, _started, _finished, steps_json = params.unpack()
        if path in self.windows:
            self.listener.window_changed(path, version, previous, animated, steps_json)

    def _on_properties(self, _c: Any, _s: str, path: str, _i: str, _m: str, params: GLib.Variant) -> None:
        _interface, changed, _invalidated = params.unpack()
        if path in self.windows:
            self.listener.window_properties(path, changed)

    def _add(self, path: str) -> None:
        if path not in self.windows:
            self.windows.add(path)
            self.listener.window_added(path)

    def _remove(self, path: str) -> None:
        if path in self.windows:
            self.windows.discard(path)
            self.listener.window_removed(path)


def _window_number(path: str) -> int:
    tail = path.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 0
