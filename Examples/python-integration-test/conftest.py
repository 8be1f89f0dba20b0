"""A pytest fixture that runs a throwaway NavSession daemon for each test.

`navsessiond --private-bus --ephemeral` starts its own dbus-daemon and keeps the session in memory, so a
test touches neither the desktop's session bus nor the disk. Only Debian's python3-gi (Gio) is needed.
"""

import os
import pathlib
import subprocess

import pytest
from gi.repository import Gio, GLib

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
APP_ID = "org.navsession.Demo"
SESSION_PATH = "/org/navsession/Session1"
WINDOW_IFACE = "org.navsession.Window1"
SESSION_IFACE = "org.navsession.Session1"


class NavSession:
    """A connection to the daemon with the few helpers an app-flow test needs."""

    def __init__(self, address: str):
        self.bus = Gio.DBusConnection.new_for_address_sync(
            address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None,
            None,
        )
        self.context = GLib.MainContext.default()

    def call(self, path, interface, method, signature=None, args=(), reply=None):
        """Calls a method and returns its unpacked reply (a tuple)."""
        parameters = GLib.Variant(signature, args) if signature else None
        result = self.bus.call_sync(
            APP_ID, path, interface, method, parameters,
            GLib.VariantType(reply) if reply else None, Gio.DBusCallFlags.NONE, 10_000, None,
        )
        return result.unpack() if result is not None else ()

    def session(self, method, signature=None, args=(), reply=None):
        return self.call(SESSION_PATH, SESSION_IFACE, method, signature, args, reply)

    def window(self, path, method, signature=None, args=(), reply=None):
        return self.call(path, WINDOW_IFACE, method, signature, args, reply)

    def prop(self, path, name):
        (value,) = self.call(path, "org.freedesktop.DBus.Properties", "Get", "(ss)", (WINDOW_IFACE, name), "(v)")
        return value

    def changes(self, path):
        """Starts collecting the window's Changed signals (subscribe before acting, so none is missed)."""
        return ChangeLog(self, path)

    def wait_for_name(self, timeout=10.0):
        """Returns once the daemon owns its name, asking the bus (NameOwnerChanged), never sleeping."""
        owned = []

        def on_owner(_bus, _sender, _path, _iface, _signal, params):
            name, _old, new = params.unpack()
            if name == APP_ID and new:
                owned.append(new)

        subscription = self.bus.signal_subscribe(
            "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
            APP_ID, Gio.DBusSignalFlags.NONE, on_owner,
        )
        try:
            (has,) = self.call_bus("NameHasOwner", "(s)", (APP_ID,), "(b)")
            if not has:
                self.run_until(lambda: owned, timeout, "the daemon to own " + APP_ID)
        finally:
            self.bus.signal_unsubscribe(subscription)

    def call_bus(self, method, signature, args, reply):
        result = self.bus.call_sync(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method,
            GLib.Variant(signature, args), GLib.VariantType(reply), Gio.DBusCallFlags.NONE, 10_000, None,
        )
        return result.unpack()

    def run_until(self, condition, timeout, what):
        """Dispatches D-Bus events until `condition()` holds; fails the test after `timeout` seconds."""
        expired = []
        source = GLib.timeout_add(int(timeout * 1000), lambda: expired.append(True) or False)
        try:
            while not condition():
                if expired:
                    pytest.fail(f"timed out after {timeout} s waiting for {what}")
                self.context.iteration(True)
        finally:
            if not expired:
                GLib.source_remove(source)


class ChangeLog:
    """The Changed signals of one window, in order, as (version, previous_version, cause_json)."""

    def __init__(self, navsession: NavSession, path: str):
        self.navsession = navsession
        self.seen = []
        self.subscription = navsession.bus.signal_subscribe(
            APP_ID, WINDOW_IFACE, "Changed", path, None, Gio.DBusSignalFlags.NONE, self._on_changed,
        )

    def _on_changed(self, _bus, _sender, _path, _iface, _signal, params):
        version, previous, cause, *_ = params.unpack()
        self.seen.append((version, previous, cause))

    def wait_for_version(self, version, timeout=10.0):
        self.navsession.run_until(lambda: any(v >= version for v, _, _ in self.seen), timeout, f"version {version}")
        return self.seen

    def close(self):
        self.navsession.bus.signal_unsubscribe(self.subscription)


@pytest.fixture
def navsession():
    """A running `navsessiond --private-bus --ephemeral` and a connection to its bus; stopped afterwards."""
    binary = os.environ.get("NAVSESSIOND", str(REPOSITORY / ".build" / "debug" / "navsessiond"))
    daemon = subprocess.Popen(
        [binary, "--private-bus", "--ephemeral", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        # The daemon's first line on stdout is the private bus's address.
        line = daemon.stdout.readline().strip()
        assert line.startswith("DBUS_SESSION_BUS_ADDRESS="), f"unexpected first line {line!r}: {daemon.stderr.read()}"
        connection = NavSession(line.split("=", 1)[1])
        connection.wait_for_name()
        yield connection
        connection.bus.close_sync(None)
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
