"""A private bus and a throwaway daemon for tests (what the pytest plugin's fixtures use; usable without pytest,
the way python-dbusmock's ``DBusTestCase`` starts a bus for mocks).

    with TestBus() as bus, TestDaemon(bus.address, manifest="app.json") as daemon:
        session = navsession.connect(bus.address, daemon.name)

:class:`TestBus` runs ``dbus-daemon --nofork --print-address`` with the bus configuration found by
:func:`find_bus_config` (``--session`` when there is none); :class:`TestDaemon` runs ``navsessiond --bus ADDRESS
--ephemeral`` (found by :func:`find_daemon`) and returns once the daemon owns its name on that bus (it watches
``NameOwnerChanged``; no sleeping), or raises with the daemon's output when it exits first.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence, Union

from gi.repository import Gio, GLib

from .client import DEMO_NAME
from .errors import NavSessionError

#: The repository checkout this module lives in, when it runs from one (python/navsession/testing.py).
CHECKOUT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0
#: How long :func:`until` waits at most: a liveness bound for a loaded machine, never reached when things work.
LIVENESS = 30.0


def until(condition: Callable[[], Any], what: str, timeout: float = LIVENESS,
          context: Optional[GLib.MainContext] = None) -> Any:
    """Iterates ``context`` (default: the thread's default main context, where a session's signals and replies
    arrive) until ``condition()`` returns a true value, and returns that value; woken by events, never by polling.
    Raises ``AssertionError`` naming ``what`` after ``timeout`` seconds."""
    context = context or GLib.MainContext.default()
    expired = [False]
    source = GLib.timeout_source_new(int(timeout * 1000))
    source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
    source.attach(context)
    try:
        while True:
            value = condition()
            if value:
                return value
            assert not expired[0], f"not within {timeout} s: {what}"
            context.iteration(True)
    finally:
        source.destroy()


class TestSetupError(NavSessionError):
    """The bus or the daemon could not be started (the message says what was tried)."""

    __test__ = False  # not a pytest test class

    def __init__(self, message: str) -> None:
        super().__init__("navsession.TestSetupError", message)


def find_daemon() -> str:
    """``$NAVSESSIOND``, else ``navsessiond`` on ``PATH``, else the checkout's ``.build/debug/navsessiond``."""
    tried: List[str] = []
    explicit = os.environ.get("NAVSESSIOND")
    if explicit:
        if os.access(explicit, os.X_OK):
            return explicit
        raise TestSetupError(f"NAVSESSIOND={explicit} is not an executable file")
    found = shutil.which("navsessiond")
    if found:
        return found
    tried.append("navsessiond on PATH")
    for candidate in (CHECKOUT / ".build" / "debug" / "navsessiond", Path.cwd() / ".build" / "debug" / "navsessiond"):
        if os.access(candidate, os.X_OK):
            return str(candidate)
        tried.append(str(candidate))
    raise TestSetupError("no navsessiond: set NAVSESSIOND, put it on PATH or `swift build --product navsessiond` "
                         "(looked for " + ", ".join(tried) + ")")


def find_bus_config() -> Optional[str]:
    """``$NAVSESSION_BUS_CONFIG``, else the checkout's ``dbus/test-session.conf``, else ``None``
    (``dbus-daemon --session``: the system's session configuration)."""
    explicit = os.environ.get("NAVSESSION_BUS_CONFIG")
    if explicit:
        return explicit
    checkout = CHECKOUT / "dbus" / "test-session.conf"
    return str(checkout) if checkout.is_file() else None


def _wait(process: Gio.Subprocess, timeout: float) -> bool:
    """Waits for ``process`` to exit (on a private main context); False after ``timeout``."""
    context = GLib.MainContext()
    context.push_thread_default()
    try:
        done = [False]
        expired = [False]
        process.wait_async(None, lambda *_: done.__setitem__(0, True))
        source = GLib.timeout_source_new(int(timeout * 1000))
        source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
        source.attach(context)
        while not done[0] and not expired[0]:
            context.iteration(True)
        source.destroy()
        return done[0]
    finally:
        context.pop_thread_default()


def _stop(process: Optional[Gio.Subprocess]) -> None:
    if process is None:
        return
    process.send_signal(signal.SIGTERM)  # nothing when it has exited already
    if not _wait(process, STOP_TIMEOUT):
        process.force_exit()
        _wait(process, STOP_TIMEOUT)


class TestBus:
    """A private ``dbus-daemon``; ``address`` is its address once started."""

    __test__ = False

    def __init__(self, config: Optional[str] = None) -> None:
        self.config = config if config is not None else find_bus_config()
        self.address = ""
        self.process: Optional[Gio.Subprocess] = None

    def start(self) -> "TestBus":
        argv = ["dbus-daemon", "--nofork", "--print-address=1"]
        argv += [f"--config-file={self.config}"] if self.config else ["--session"]
        try:
            self.process = Gio.Subprocess.new(argv, Gio.SubprocessFlags.STDOUT_PIPE | Gio.SubprocessFlags.STDERR_SILENCE)
        except GLib.Error as error:
            raise TestSetupError(f"cannot run {' '.join(argv)}: {error.message} (Debian: apt-get install dbus)") from None
        line, _length = Gio.DataInputStream.new(self.process.get_stdout_pipe()).read_line_utf8(None)
        if not line:
            _stop(self.process)
            raise TestSetupError(f"{' '.join(argv)} printed no address")
        self.address = line.strip()
        return self

    def stop(self) -> None:
        _stop(self.process)
        self.process = None

    def __enter__(self) -> "TestBus":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def manifest_name(manifest: str) -> str:
    """The application id (the bus name) a manifest declares (its ``id``)."""
    with open(manifest, encoding="utf-8") as handle:
        document = json.load(handle)
    name = document.get("id") if isinstance(document, dict) else None
    if not isinstance(name, str) or not name:
        raise TestSetupError(f"{manifest}: no \"id\" (the application id, also the bus name)")
    return name


class TestDaemon:
    """``navsessiond --bus ADDRESS --ephemeral`` serving ``manifest`` (default: the built-in demo)."""

    __test__ = False

    def __init__(self, address: str, manifest: Optional[str] = None, *, name: Optional[str] = None,
                 binary: Optional[str] = None, args: Sequence[str] = (), log_level: str = "warning",
                 state_dir: Optional[Union[str, "os.PathLike[str]"]] = None) -> None:
        self.address = address
        #: Where the daemon keeps its session (``--state-dir``); ``None``: ``--ephemeral``, nothing kept. With a
        #: directory, :meth:`kill` and :meth:`start` again replay the journal, as after a crash.
        self.state_dir = state_dir
        self.manifest = manifest
        self._explicit_name = name
        self.name = name or (manifest_name(manifest) if manifest else DEMO_NAME)
        self.binary = binary or find_daemon()
        self.args = list(args)
        self.log_level = log_level
        self.process: Optional[Gio.Subprocess] = None
        self._log = tempfile.NamedTemporaryFile(prefix="navsessiond-", suffix=".log", delete=False)
        self._log.close()

    @property
    def argv(self) -> List[str]:
        argv = [self.binary, "--bus", self.address, "--log-level", self.log_level]
        argv += ["--state-dir", str(self.state_dir)] if self.state_dir is not None else ["--ephemeral"]
        if self.manifest:
            argv += ["--manifest", self.manifest]
        if self._explicit_name:
            argv += ["--name", self._explicit_name]
            if not self.manifest:
                # The demo under another name: --name alone serves the manifest installed for that id.
                argv += ["--demo"]
        return argv + self.args

    @property
    def output(self) -> str:
        """What the daemon wrote to stdout and stderr so far."""
        return Path(self._log.name).read_text(encoding="utf-8", errors="replace")

    def start(self, timeout: float = START_TIMEOUT) -> "TestDaemon":
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        context = GLib.MainContext()
        context.push_thread_default()
        try:
            bus = Gio.DBusConnection.new_for_address_sync(self.address, flags, None, None)
            owned = [False]
            exited = [False]
            expired = [False]
            bus.signal_subscribe("org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                                 "/org/freedesktop/DBus", self.name, Gio.DBusSignalFlags.NONE,
                                 lambda *a: owned.__setitem__(0, bool(a[5].unpack()[2])))
            launcher = Gio.SubprocessLauncher.new(Gio.SubprocessFlags.STDERR_MERGE)
            launcher.set_stdout_file_path(self._log.name)
            try:
                self.process = launcher.spawnv(self.argv)
            except GLib.Error as error:
                raise TestSetupError(f"cannot run {self.binary}: {error.message}") from None
            self.process.wait_async(None, lambda *_: exited.__setitem__(0, True))
            (has,) = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                   "NameHasOwner", GLib.Variant("(s)", (self.name,)), GLib.VariantType("(b)"),
                                   Gio.DBusCallFlags.NONE, -1, None).unpack()
            owned[0] = owned[0] or has
            source = GLib.timeout_source_new(int(timeout * 1000))
            source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
            source.attach(context)
            while not owned[0] and not exited[0] and not expired[0]:
                context.iteration(True)
            source.destroy()
            bus.close_sync(None)
        finally:
            context.pop_thread_default()
        if not owned[0]:
            why = "exited" if exited[0] else f"did not own {self.name} within {timeout} s"
            self.stop()
            raise TestSetupError(f"{' '.join(self.argv)} {why}:\n{self.output}")
        return self

    def kill(self) -> None:
        """SIGKILL: a crash (nothing is saved on the way out); :meth:`start` again restores what was journaled."""
        process = self.process
        if process is None:
            return
        process.force_exit()
        if not _wait(process, STOP_TIMEOUT):
            raise TestSetupError(f"navsessiond did not exit within {STOP_TIMEOUT} s of SIGKILL")
        self.process = None

    def stop(self) -> None:
        _stop(self.process)
        self.process = None

    def close(self) -> None:
        self.stop()
        try:
            os.unlink(self._log.name)
        except OSError:
            pass

    def __enter__(self) -> "TestDaemon":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["TestBus", "TestDaemon", "TestSetupError", "find_daemon", "find_bus_config", "manifest_name", "CHECKOUT"]
