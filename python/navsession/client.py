"""The client: :func:`connect` → :class:`Session` (org.navsession.Session1) → :class:`Window` (Window1).

Everything runs on Gio (PyGObject). Calls are synchronous (``call_sync``) unless named ``*_async``; signals and
property updates are dispatched by the GLib main context the session was created on (the thread-default one,
normally the default context) — by a running ``GLib.MainLoop`` / ``Gtk.Application``, by the ``wait_for`` and
change-stream helpers (which iterate that context until they are satisfied), or, in asyncio code, by
:mod:`navsession.aio` (which iterates it in an executor thread while something awaits). A window's callbacks
come in the daemon's order, each change's once the cached properties show it (:class:`_WindowSignals`).

Replies, signals and properties are checked before they are decoded (:mod:`navsession.protocol`): what the
package cannot understand raises :class:`navsession.errors.ProtocolError`; a call whose reply does not come in
time raises :class:`navsession.errors.Timeout`.

:meth:`Session.provide_guards` makes the application a guard provider (``org.navsession.GuardProvider1``): the
daemon's questions are answered on the session's main context, by a callable returning :class:`Allow`,
:class:`Deny` or :class:`Redirect`.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections import deque
from dataclasses import dataclass, field
from typing import (Any, Callable, Deque, Dict, Iterator, List, Mapping, NamedTuple, Optional, Sequence, Tuple,
                    Union)

from gi.repository import Gio, GLib

from . import commands as _commands
from . import protocol
from .commands import CommandLike, batch_json
from ._window_generated import GeneratedWindowMethods
from .contract import INTERFACES
from .documents import (ChangeCause, ClosedWindow, HistoryEntry, PreparedModel, RegisteredRenderer, Stats, Step,
                        WindowSnapshot)
from .errors import NavSessionError, ProtocolError, Timeout, from_glib_error
from .specs import Reference, Route

DEMO_NAME = "org.navsession.Demo"
SESSION_PATH = "/org/navsession/Session1"
SESSION_IFACE = "org.navsession.Session1"
WINDOW_IFACE = "org.navsession.Window1"
PROPERTIES_IFACE = "org.freedesktop.DBus.Properties"
GUARD_PROVIDER_IFACE = "org.navsession.GuardProvider1"
#: Where a guard provider exports ``org.navsession.GuardProvider1`` on its connection.
GUARD_PROVIDER_PATH = "/org/navsession/GuardProvider1"
#: How long a call waits for the daemon's reply (milliseconds).
CALL_TIMEOUT_MS = 25_000
#: The default timeout of ``wait_for`` and friends (seconds).
WAIT_TIMEOUT = 10.0

BusLike = Union[None, str, Gio.DBusConnection, Gio.BusType]


def open_bus(bus: BusLike = None) -> Gio.DBusConnection:
    """A connection: ``None`` = the session bus, a ``Gio.BusType``, a D-Bus address, or a connection as is.

    For ``None``, a bus type or an address this is a connection of its own (not Gio's shared ``g_bus_get``
    singleton, whose exit-on-close would end the process when a test's private bus goes away); the session that
    opened it closes it."""
    if isinstance(bus, Gio.DBusConnection):
        return bus
    try:
        if bus is None or isinstance(bus, Gio.BusType):
            bus = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION if bus is None else bus, None)
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        return Gio.DBusConnection.new_for_address_sync(bus, flags, None, None)
    except GLib.Error as error:
        raise from_glib_error(error, "connect", str(bus)) from None


def connect(bus: BusLike = None, name: str = DEMO_NAME, *, start: bool = True) -> "Session":
    """The session of the daemon owning ``name`` on ``bus`` (``None``: the session bus; an address such as
    ``unix:path=/tmp/bus``; or a ``Gio.DBusConnection``). ``start``: let the bus activate the daemon (D-Bus
    activation, the systemd user unit) when nothing owns the name yet."""
    return Session(open_bus(bus), name, start=start, owns_connection=not isinstance(bus, Gio.DBusConnection))


# -- events ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """One ``Window1.Changed`` signal: the window went from ``previous_version`` to ``version``.
    ``cause``, ``steps``: the parsed ``cause_json`` and ``steps_json`` (Docs/state-schema.md, Docs/dbus-api.md)."""

    window: str
    version: int
    previous_version: int
    cause: ChangeCause
    animated: bool
    started: Tuple[int, ...]
    finished: Tuple[int, ...]
    steps: List[Step]
    cause_json: str = field(repr=False, default="")
    steps_json: str = field(repr=False, default="")

    @classmethod
    def from_signal(cls, path: str, params: GLib.Variant) -> "Change":
        """The change a ``Changed`` signal's arguments describe; :class:`navsession.errors.ProtocolError` when
        they are not ``(ttsbatats)`` or ``cause_json``/``steps_json`` do not parse or validate."""
        version, previous, cause_json, animated, started, finished, steps_json = protocol.check_signal(
            params, "Changed", path, WINDOW_IFACE)
        where = protocol.detail("Changed", path, WINDOW_IFACE)
        cause = protocol.decode("Changed.cause_json", cause_json, where, "cause_json") if cause_json else {}
        steps = protocol.decode("Changed.steps_json", steps_json, where, "steps_json") if steps_json else []
        return cls(path, version, previous, cause, animated, tuple(started), tuple(finished), steps,
                   cause_json, steps_json)


@dataclass(frozen=True)
class Resync:
    """A change stream found a gap (a missed ``Changed``: its ``previous_version`` was not the last version seen)
    and re-read the window: ``snapshot`` is ``GetState`` at ``version``; ``previous_version`` the last version
    the stream had seen before the gap."""

    window: str
    version: int
    previous_version: int
    snapshot: WindowSnapshot


Event = Union[Change, Resync]


class Announcement(NamedTuple):
    """One ``Window1.Announcement`` signal, or ``Window1.GetAnnouncement``'s reply (Docs/announcements.md): what a
    screen reader says about the change to ``version`` — ``text``, in the manifest's locale for the signal, in the
    best locale asked for with ``GetAnnouncement`` — and ``focus_model``, the model that should take keyboard focus.
    ``Announcement(0, "", 0)``: none yet. A named tuple: ``version, text, focus = window.get_announcement("fr")``."""

    version: int
    text: str
    focus_model: int

    @classmethod
    def from_signal(cls, path: str, params: GLib.Variant) -> "Announcement":
        """The announcement an ``Announcement`` signal's arguments carry; :class:`navsession.errors.ProtocolError`
        when they are not ``(tst)``."""
        version, text, focus_model = protocol.check_signal(params, "Announcement", path, WINDOW_IFACE)
        return cls(int(version), str(text), int(focus_model))


@dataclass(frozen=True)
class RendererSteps:
    """One ``Window1.Steps`` signal (Docs/renderers.md): the steps of the change to ``version`` planned for the
    capabilities of the renderer ``renderer_id`` registered (:meth:`Window.register_renderer`) — one that cannot
    dismiss several layers at once gets them one by one — sent to that renderer's connection alone, after the
    change's ``Changed``. ``steps``: the parsed ``steps_json``, in ``Changed``'s form."""

    window: str
    version: int
    steps: List[Step]
    renderer_id: str
    steps_json: str = field(repr=False, default="")

    @classmethod
    def from_signal(cls, path: str, params: GLib.Variant) -> "RendererSteps":
        """The steps a ``Steps`` signal's arguments carry; :class:`navsession.errors.ProtocolError` when they are
        not ``(tss)`` or ``steps_json`` does not parse or validate (as ``Changed``'s)."""
        version, steps_json, renderer_id = protocol.check_signal(params, "Steps", path, WINDOW_IFACE)
        where = protocol.detail("Steps", path, WINDOW_IFACE)
        steps = protocol.decode("Changed.steps_json", steps_json, where, "steps_json") if steps_json else []
        return cls(path, int(version), steps, str(renderer_id), steps_json)


# -- main-context helpers --------------------------------------------------------------------------

def _iterate_until(context: GLib.MainContext, condition: Callable[[], bool], timeout: Optional[float],
                   what: str) -> None:
    """Dispatches ``context``'s events until ``condition()`` holds; :class:`Timeout` after ``timeout`` s."""
    if condition():
        return
    expired = [False]
    source = None
    if timeout is not None:
        source = GLib.timeout_source_new(max(int(timeout * 1000), 0))

        def on_timeout(*_: Any) -> bool:
            expired[0] = True
            return GLib.SOURCE_REMOVE

        source.set_callback(on_timeout)
        source.attach(context)
    try:
        while not condition():
            if expired[0]:
                raise Timeout(f"timed out after {timeout} s waiting for {what}", {"waiting_for": what})
            context.iteration(True)
    finally:
        if source is not None:
            source.destroy()


def _drain(context: GLib.MainContext) -> None:
    """Dispatches what is pending on ``context`` without blocking (when this thread can own it)."""
    if not context.acquire():
        return
    try:
        while context.pending():
            context.iteration(False)
    finally:
        context.release()


# -- session ---------------------------------------------------------------------------------------

class Session:
    """``org.navsession.Session1`` of one daemon (``connect()`` makes it)."""

    def __init__(self, connection: Gio.DBusConnection, name: str = DEMO_NAME, *, start: bool = True,
                 owns_connection: bool = False) -> None:
        self.connection = connection
        self.name = name
        self.context = GLib.MainContext.ref_thread_default()
        self._owns_connection = owns_connection
        self._proxy_flags = Gio.DBusProxyFlags.NONE if start else Gio.DBusProxyFlags.DO_NOT_AUTO_START
        self._call_flags = Gio.DBusCallFlags.NONE if start else Gio.DBusCallFlags.NO_AUTO_START
        try:
            self.proxy = Gio.DBusProxy.new_sync(connection, self._proxy_flags, None, name, SESSION_PATH,
                                                SESSION_IFACE, None)
            manager_flags = (Gio.DBusObjectManagerClientFlags.NONE if start
                             else Gio.DBusObjectManagerClientFlags.DO_NOT_AUTO_START)
            self.manager = Gio.DBusObjectManagerClient.new_sync(connection, manager_flags, name, SESSION_PATH,
                                                                None, None)
        except GLib.Error as error:
            raise from_glib_error(error, "connect", SESSION_PATH, SESSION_IFACE) from None
        self._windows: Dict[str, Window] = {}
        self._guard_providers: List[GuardProvider] = []
        self._handlers = [self.manager.connect("object-removed", self._on_object_removed)]

    # -- lifetime

    def close(self) -> None:
        """Stops following the daemon, ends its guard providers (:meth:`provide_guards`) and closes the connection
        when ``connect`` opened it."""
        for provider in list(self._guard_providers):
            provider.close(quiet=True)
        for handler in self._handlers:
            self.manager.disconnect(handler)
        self._handlers = []
        for window in list(self._windows.values()):
            window._closed = True
            window._stop_signals()
        if self._owns_connection and not self.connection.is_closed():
            self.connection.close_sync(None)

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def name_owner(self) -> Optional[str]:
        """The daemon's unique bus name, or ``None`` while nothing owns ``name``."""
        return self.manager.get_name_owner()

    # -- properties (cached, kept current by PropertiesChanged)

    def _prop(self, name: str) -> Any:
        return _property(self.proxy, SESSION_IFACE, name, self._call_flags)

    @property
    def version(self) -> int:
        return int(self._prop("Version"))

    @property
    def scenes(self) -> List[str]:
        return list(self._prop("Scenes"))

    @property
    def screens(self) -> List[str]:
        """The screens the manifest declares, in its order (``Screens``)."""
        return list(self._prop("Screens"))

    @property
    def screen_titles(self) -> Dict[str, str]:
        """Screen name → the title the manifest declares for it (``ScreenTitles``; screens without one are absent)."""
        return dict(self._prop("ScreenTitles"))

    @property
    def application_id(self) -> str:
        return str(self._prop("ApplicationId"))

    @property
    def restore_reason(self) -> str:
        return str(self._prop("RestoreReason"))

    @property
    def restore_set_aside(self) -> str:
        return str(self._prop("RestoreSetAside"))

    @property
    def instance(self) -> str:
        return str(self._prop("Instance"))

    # -- calls

    def call(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = (),
             timeout_ms: int = CALL_TIMEOUT_MS) -> Tuple[Any, ...]:
        """Calls a Session1 method (or ``interface.Method``) and returns its unpacked reply. A D-Bus error is
        raised once the signals the daemon sent before it are dispatched (see :meth:`Window.call`). A reply is
        returned as it comes: nothing else is dispatched (a guard provider's ``Decide`` waiting on this context is
        not run inside the call)."""
        return _call(self.proxy, method, signature, args, timeout_ms, self._call_flags, self.context)

    def call_async(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = (),
                   on_reply: Optional[Callable[[Tuple[Any, ...]], None]] = None,
                   on_error: Optional[Callable[[NavSessionError], None]] = None,
                   timeout_ms: int = CALL_TIMEOUT_MS) -> None:
        """Calls a Session1 method without blocking (see :meth:`Window.call_async`)."""
        _call_async(self.proxy, method, signature, args, on_reply, on_error, timeout_ms, self._call_flags)

    async def call_awaitable(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = (),
                             timeout_ms: int = CALL_TIMEOUT_MS) -> Tuple[Any, ...]:
        """:meth:`call` for asyncio (see :meth:`Window.call_awaitable`)."""
        from . import aio
        return await aio.call(self.proxy, method, signature, args, timeout_ms, self._call_flags, self.context)

    def window(self, path: str) -> "Window":
        """The :class:`Window` of an object path (one object per path while the session lives)."""
        window = self._windows.get(path)
        if window is None or window._closed:
            # Its own Gio.DBusProxy (one GetAll), not the ObjectManager's: with GLib 2.74 (Debian 12) the
            # manager's proxies never see a signal or a property change when the manager was made before the
            # daemon owned its name (a renderer started first); a proxy of its own follows the name's owner.
            window = Window(self, path)
            self._windows[path] = window
        return window

    def windows(self) -> List["Window"]:
        """The open windows, in opening order (``ListWindows``)."""
        (paths,) = self.call("ListWindows")
        return [self.window(p) for p in paths]

    def open_window(self, scene: str, params: Optional[Mapping[str, str]] = None) -> "Window":
        """Opens a window of ``scene`` (a singleton scene's open window comes back)."""
        (path,) = self.call("OpenWindow", "(sa{ss})", (scene, dict(params or {})))
        self._sync()
        return self.window(path)

    def open_url(self, url: str) -> "Window":
        """Follows a deep link (or announces a foreign URL); returns the window that handled it."""
        (path,) = self.call("OpenURL", "(s)", (url,))
        self._sync()
        return self.window(path)

    def dismiss_window(self, window: Union["Window", str]) -> None:
        self.call("DismissWindow", "(o)", (_path(window),))
        self._sync()

    def apply(self, window: Union["Window", str], batch: Union[CommandLike, Sequence[CommandLike]]) -> int:
        """``Session1.Apply`` (superseded by :meth:`Window.apply`, which adds compare-and-set and the created ids)."""
        (version,) = self.call("Apply", "(os)", (_path(window), batch_json(batch)))
        self._sync()
        return int(version)

    def set_close_on_exit(self, window: Union["Window", str], enabled: bool = True) -> None:
        """Closes ``window`` when this connection leaves the bus."""
        self.call("SetCloseOnExit", "(ob)", (_path(window), enabled))

    def plan(self, from_routes: Sequence[Union[Route, Mapping[str, Any]]],
             to_routes: Sequence[Union[Route, Mapping[str, Any]]], *, multi_dismiss: bool = False,
             pushes_in_one: bool = False) -> List[List[Route]]:
        """The step planner: the route states S0…Sn from ``from_routes`` to ``to_routes`` (Docs/routing.md)."""
        document = _json_reply(self, "Plan", "states", "(ssbb)", (_routes_json(from_routes), _routes_json(to_routes),
                                                                 multi_dismiss, pushes_in_one))
        return protocol.convert(protocol.detail("Plan", SESSION_PATH, SESSION_IFACE), "states",
                                lambda: [[Route.from_json(r) for r in state] for state in document])

    def register_guard(self, name: str) -> None:
        self.call("RegisterGuard", "(s)", (name,))

    def refresh_guard(self, name: str) -> None:
        """``RefreshGuard``: this provider's answers for ``name`` may have changed; the daemon asks again."""
        self.call("RefreshGuard", "(s)", (name,))

    def unregister_guard(self, name: str) -> None:
        self.call("UnregisterGuard", "(s)", (name,))

    def guards(self) -> Dict[str, str]:
        """Every declared guard and the unique name of its provider (``""``: none)."""
        return dict(self.call("ListGuards")[0])

    def provide_guards(self, names: Union[str, Sequence[str]], decide: Callable[["GuardQuestion"], "Verdict"], *,
                       on_error: Optional[Callable[["GuardQuestion", Exception], None]] = None) -> "GuardProvider":
        """Provides the guards ``names`` (Docs/guards.md, "Guard providers"): exports
        ``org.navsession.GuardProvider1`` at ``/org/navsession/GuardProvider1`` on this session's connection, then
        registers for each name (``RegisterGuard``). Each ``Decide`` the daemon calls is answered on the session's
        main context (a running ``GLib.MainLoop``, or the package's waits, must dispatch it) with
        ``decide(question)``: a :class:`GuardQuestion` in, :class:`Allow`, :class:`Deny` or :class:`Redirect` out,
        within the guard's ``timeoutMs``.

        ``decide`` raising, or returning anything else, answers the D-Bus error
        ``org.freedesktop.DBus.Error.Failed`` (the exception's type and text), which the daemon counts as no answer:
        the guard's ``onTimeout`` decides (the demo's: deny). The exception goes to ``on_error(question,
        exception)``, else to the ``navsession`` logger. A question the package cannot understand is answered
        ``org.freedesktop.DBus.Error.InvalidArgs`` without calling ``decide``; a ``Decide`` from any other client
        than the daemon, ``AccessDenied``.

        Returns a :class:`GuardProvider`: ``close()`` (or leaving its ``with`` block) unregisters and unexports,
        ``refresh()`` calls ``RefreshGuard``. One provider per connection (a second one raises
        :class:`navsession.NavSessionError`, ``g-io-error-quark.exists``). A blocking call of this connection
        that needs one of its own answers (``window.go_back()`` from profile while this process provides
        ``account``) cannot be answered while it blocks: the guard's ``onTimeout`` decides it; provide from another
        connection (another :func:`connect`, its own thread and main context) or make such calls with
        ``call_async``/``apply_async``. Raises :class:`navsession.errors.UnknownGuard`,
        :class:`navsession.errors.GuardTaken`, :class:`navsession.errors.AccessDenied` (a guard whose manifest
        entry names another ``provider``): nothing stays registered or exported then."""
        return GuardProvider(self, [names] if isinstance(names, str) else list(names), decide, on_error)

    def closed_windows(self) -> List[ClosedWindow]:
        """The recently closed windows, most recent first (``ListClosedWindows``; ``group``: the window group an
        entry closed with, absent when none)."""
        return list(_json_reply(self, "ListClosedWindows", "closed_json"))

    def reopen_window(self, id: str = "") -> "Window":
        """Reopens a recently closed window (``""``: the most recent). An entry that closed with its window group
        (its ``group``) brings back the group's other entries closed at the same moment too, under new numbers and
        grouped again under that name; the named entry's window is returned."""
        (path,) = self.call("ReopenWindow", "(s)", (id,))
        self._sync()
        return self.window(path)

    def undo_close_window(self, id: str = "") -> "Window":
        """``UndoCloseWindow``: :meth:`reopen_window` under the name of the window-level undo."""
        (path,) = self.call("UndoCloseWindow", "(s)", (id,))
        return self.window(path)

    # -- named sessions (Docs/desktop.md)

    def save_session(self, name: str, windows: Sequence[Union["Window", str]] = ()) -> None:
        """``SaveSession``: the windows' navigation (every open window when none is named) saved under ``name``,
        replacing what was saved under it; survives a restart."""
        self.call("SaveSession", "(sao)", (name, [_path(window) for window in windows]))

    def sessions(self) -> List[Dict[str, Any]]:
        """``ListSessions``: ``[{"name", "savedAt", "windows": [{"activeScreen", "scene", "title"}]}]`` by name."""
        return list(_json_reply(self, "ListSessions", "sessions_json"))

    def open_session(self, name: str) -> List["Window"]:
        """``OpenSession``: every window saved under ``name`` opened again (new numbers, the same navigation)."""
        (paths,) = self.call("OpenSession", "(s)", (name,))
        return [self.window(path) for path in paths]

    def delete_session(self, name: str) -> None:
        """``DeleteSession``."""
        self.call("DeleteSession", "(s)", (name,))

    # -- window groups (Docs/desktop.md)

    def group_windows(self, name: str, windows: Sequence[Union["Window", str, int]]) -> None:
        """``GroupWindows``: ``windows`` (each a :class:`Window`, its object path or its number) become the window
        group ``name`` — each leaves the group it was in, and windows of the group not listed leave it; ``[]``
        dissolves the group. The windows of a group close together (``dismiss_window``, ``report_closed`` or a
        ``dismissWindow`` command of any of them), reopen together (``reopen_window``/``undo_close_window`` of one
        of them) and are saved and opened together (``save_session``, ``open_session``). When it returns, each
        window's cached ``group`` is the new one (``""``: none). Raises :class:`navsession.errors.InvalidArgs` (a
        name that is not 1-64 letters, digits, ``-``, ``_``, ``.`` and spaces; a window listed twice),
        :class:`navsession.errors.UnknownObject` (no such window), :class:`ValueError` (a string that is not a
        window's object path)."""
        self.call("GroupWindows", "(sao)", (name, [_window_path(_number(window)) for window in windows]))
        self._sync()

    # -- move and merge (Docs/desktop.md)

    def move_model(self, window: Union["Window", int, str], model: int,
                   to_window: Union["Window", int, str, None] = None,
                   placement: Optional[Mapping[str, Any]] = None) -> Tuple["Window", int]:
        """``MoveModel``: ``model`` of ``window`` (0: its active model) moved with everything under it — a tab, a
        pushed screen with the screens pushed above it, or a presented model with its own presentations — into
        ``to_window``, or into a new window when ``to_window`` is ``None`` or 0 (a tear-off). ``window`` and
        ``to_window``: a :class:`Window`, its number or its object path. ``placement``: where it goes (``None``:
        where its form goes), sent as JSON: ``{"stack": id, "position": n}`` (pushed screens),
        ``{"tabs": id, "position": n, "tab": "newid", "select": False}`` (a tab), ``{"presentOn": id}`` (a
        presentation), ``{"scene": "name"}`` (a new window's scene).

        One change in each window, their ``Changed`` signals paired by the cause ``{"moved": {"transaction", "from",
        "to", "model", "ids", "tab"}}``; ids are kept in a new window and fresh in an existing one (``ids`` maps
        them). Returns the target :class:`Window` (the new one for a tear-off) and its version. Raises
        :class:`navsession.errors.InvalidSpec` (the window's root, a stack's root, the last tab, a container of the
        wrong kind…), :class:`navsession.errors.UnknownModel`, :class:`navsession.errors.DetachedModel`,
        :class:`navsession.errors.UnknownObject` (no such window), :class:`navsession.errors.InvalidArgs` (the
        same window)."""
        placement_json = "" if placement is None else json.dumps(dict(placement), separators=(",", ":"))
        target = 0 if to_window is None else _number(to_window)
        number, version = self.call("MoveModel", "(ttts)", (_number(window), model, target, placement_json))
        self._sync()
        return self.window(_window_path(int(number))), int(version)

    # -- window policies (Docs/window-policy.md)

    def set_window_policy(self, window: Union["Window", int, str],
                          policy: Union[Mapping[str, Any], str, None]) -> None:
        """``SetWindowPolicy``: who may change ``window`` (a :class:`Window`, its number or its object path).
        ``policy``: a dict (sent as JSON), the JSON text as it is, or ``None`` (sent as ``""``: removes the policy,
        any client may change the window again) — ``{"change": [principals], "manage": [principals]}``, each
        principal ``"*"`` (any client), ``"host"`` (a client outside a sandbox), ``"app:ID"`` (a Flatpak
        application), a unique name ``":1.42"`` (that connection's process while it is on the bus) or ``"self"``
        (this connection, stored as its unique name); ``"change": []`` lets no client change the window (a kiosk);
        ``"manage"`` (default ``["host"]``, never empty) names who may replace or remove the policy.

        From then on every change of the window by a client ``change`` does not name — a method, a batch, a
        report, a deep link, an undo, a move from or into it, its close, ``set_close_on_exit``, ``group_windows``
        — raises :class:`navsession.errors.AccessDenied`; reads answer anyone, and ``state()`` shows the policy as
        ``"policy"``. Raises :class:`navsession.errors.UnknownObject` (no such window),
        :class:`navsession.errors.InvalidArgs` (a malformed policy: the message names the key or principal),
        :class:`navsession.errors.AccessDenied` (this client is not one the current policy's ``manage`` names),
        :class:`ValueError` (a string that is not a window's object path), :class:`TypeError` (a policy of another
        type)."""
        if policy is None:
            policy_json = ""
        elif isinstance(policy, str):
            policy_json = policy
        elif isinstance(policy, Mapping):
            policy_json = json.dumps(dict(policy), separators=(",", ":"))
        else:
            raise TypeError(f"a window policy is a dict, its JSON text or None, not {type(policy).__name__}")
        self.call("SetWindowPolicy", "(ts)", (_number(window), policy_json))
        self._sync()

    # -- built-in analytics (Docs/analytics.md)

    def get_stats(self, query: Union[Mapping[str, Any], str, None] = None) -> Union[Stats, str]:
        """``GetStats``: the daemon's built-in analytics, counted from its journal (so they survive restarts).
        ``query``: ``None`` (sent as ``""``: everything, as JSON), a dict (sent as JSON) or the JSON text as it is —
        ``{"format": "json" | "openmetrics", "screens": ["detail", …]}`` (``screens``: only those screens).

        The JSON form is returned parsed (:class:`navsession.documents.Stats`): ``{"screens": {screen: {"visits",
        "milliseconds", "showing"}}, "guards": {guard: {verdict: count}}, "funnels": {name: {"steps": […],
        "reached": […]}}, "now": ms, "since": ms}`` (times in ms since the Unix epoch; running visits count up to
        ``now``; ``since`` absent before anything was counted). With ``"format": "openmetrics"`` the OpenMetrics
        text exposition is returned as it is (a ``str`` ending ``"# EOF\\n"``). Raises
        :class:`navsession.errors.InvalidArgs` (a malformed query: the message names the key), :class:`TypeError`
        (a query of another type)."""
        if query is None:
            query_json, form = "", "json"
        elif isinstance(query, str):
            query_json = query
            try:
                parsed = json.loads(query) if query.strip() else {}
            except ValueError:
                parsed = {}  # the daemon refuses it (InvalidArgs)
            form = parsed.get("format", "json") if isinstance(parsed, dict) else "json"
        elif isinstance(query, Mapping):
            query_json = json.dumps(dict(query), separators=(",", ":"))
            form = query.get("format", "json")
        else:
            raise TypeError(f"a stats query is a dict, its JSON text or None, not {type(query).__name__}")
        if form == "openmetrics":
            (text,) = self.call("GetStats", "(s)", (query_json,))
            return str(text)
        stats = _json_reply(self, "GetStats", "json", "(s)", (query_json,))
        if not isinstance(stats, dict):
            where = protocol.detail("GetStats", SESSION_PATH, SESSION_IFACE)
            raise protocol.fail(where, f"json is {type(stats).__name__}, not a JSON object")
        return stats  # type: ignore[return-value]

    # -- changing the manifest (Docs/manifest.md, "Changing the manifest")

    def check_manifest(self, manifest: Union[str, Mapping[str, Any]]) -> Dict[str, Any]:
        """``CheckManifest``: what serving ``manifest`` (its JSON text, or a dict sent as JSON) would do, changing
        nothing — the parsed report, ``{"applicationID", "windows": [plan…], "closedWindows": [plan…], "sessions":
        [{"name", "windows": [plan…]}]}``, each plan ``{"window", "scene", "action"}`` (``keep``, ``migrate``,
        ``reset``, ``close``) with ``renamed``/``replaced`` (``{"model", "from", "to"}``), ``removed`` (``{"model",
        "screen", "reason", "marked"}``), ``params`` (``{"model", "screen", "dropped"}``) and ``reason`` when they
        apply. Raises :class:`navsession.errors.InvalidManifest` (it does not validate, or declares another
        application)."""
        report = _json_reply(self, "CheckManifest", "report_json", "(s)", (_manifest_json(manifest),))
        if not isinstance(report, dict):
            where = protocol.detail("CheckManifest", SESSION_PATH, SESSION_IFACE)
            raise protocol.fail(where, f"report_json is {type(report).__name__}, not a JSON object")
        return report

    def reload_manifest(self, manifest: Union[str, Mapping[str, Any]]) -> None:
        """``ReloadManifest``: serves ``manifest`` (its JSON text, or a dict sent as JSON) from now on. Each window
        is migrated as :meth:`check_manifest` says, as one change (``Changed`` with the cause ``{"reloaded": True}``
        and one ``replaceRoot`` step); a window whose scene is gone closes. When it returns, the session's cached
        ``scenes``, ``screens`` and ``screen_titles`` are the new manifest's. Raises
        :class:`navsession.errors.InvalidManifest` (nothing changes), :class:`navsession.errors.StorageFailed` (the
        windows are migrated, the state is written with the next change)."""
        self.call("ReloadManifest", "(s)", (_manifest_json(manifest),))
        self._sync()

    # -- following the windows (GLib main loop)

    def follow_windows(self, added: Callable[["Window"], None], removed: Callable[[str], None],
                       vanished: Optional[Callable[[], None]] = None) -> Callable[[], None]:
        """Calls ``added(window)`` for every window open now and every window that opens, ``removed(path)`` when
        one closes, ``vanished()`` when the daemon leaves the bus (its windows are removed first; when it comes
        back its windows are added again). Uses the session's ObjectManager. Returns a function that stops."""

        def on_added(_manager: Any, obj: Gio.DBusObject) -> None:
            if obj.get_interface(WINDOW_IFACE) is not None:
                added(self.window(obj.get_object_path()))

        def on_removed(_manager: Any, obj: Gio.DBusObject) -> None:
            if obj.get_interface(WINDOW_IFACE) is not None:
                removed(obj.get_object_path())

        def on_owner(_manager: Any, _pspec: Any) -> None:
            if self.manager.get_name_owner() is None and vanished is not None:
                vanished()

        handlers = [self.manager.connect("object-added", on_added), self.manager.connect("object-removed", on_removed),
                    self.manager.connect("notify::name-owner", on_owner)]
        for obj in sorted(self.manager.get_objects(), key=lambda o: _window_number(o.get_object_path())):
            on_added(self.manager, obj)

        def stop() -> None:
            for handler in handlers:
                self.manager.disconnect(handler)
            handlers.clear()

        return stop

    # -- internals

    def _sync(self) -> None:
        """Dispatches the signals that arrived with a reply, so cached properties describe the reply's state."""
        _drain(self.context)

    def _on_object_removed(self, _manager: Any, obj: Gio.DBusObject) -> None:
        window = self._windows.pop(obj.get_object_path(), None)
        if window is not None:
            window._closed = True
            window._release_signals()  # a closed window's last Changed has no PropertiesChanged after it


def _path(window: Union["Window", str]) -> str:
    return window.path if isinstance(window, Window) else window


def _manifest_json(manifest: Union[str, Mapping[str, Any]]) -> str:
    """A manifest's JSON text: a string as it is (the daemon keeps the text it was given), a mapping encoded."""
    if isinstance(manifest, str):
        return manifest
    if isinstance(manifest, Mapping):
        return json.dumps(dict(manifest), separators=(",", ":"))
    raise TypeError(f"a manifest is its JSON text or a dict, not {type(manifest).__name__}")


def _number(window: Union["Window", int, str]) -> int:
    """A window's number, from a :class:`Window`, a number or an object path."""
    if isinstance(window, Window):
        return window.number
    if isinstance(window, str):
        tail = window.rsplit("/", 1)[-1]
        if not window.startswith(SESSION_PATH + "/window/") or not tail.isdigit():
            raise ValueError(f"{window!r} is not a window's object path ({SESSION_PATH}/window/<n>)")
        return int(tail)
    return int(window)


def _window_path(number: int) -> str:
    return f"{SESSION_PATH}/window/{number}"


def _routes_json(routes: Sequence[Union[Route, Mapping[str, Any]]]) -> str:
    return json.dumps([r.to_json() if isinstance(r, Route) else dict(r) for r in routes], separators=(",", ":"))


def _window_number(path: str) -> int:
    tail = path.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _call_async(proxy: Gio.DBusProxy, method: str, signature: Optional[str], args: Sequence[Any],
                on_reply: Optional[Callable[[Tuple[Any, ...]], None]],
                on_error: Optional[Callable[[NavSessionError], None]], timeout_ms: int,
                flags: Gio.DBusCallFlags) -> None:
    parameters = GLib.Variant(signature, tuple(args)) if signature else None
    path, interface = proxy.get_object_path(), proxy.get_interface_name()

    def done(source: Gio.DBusProxy, result: Gio.AsyncResult) -> None:
        try:
            reply = source.call_finish(result)
            values = protocol.check_reply(reply, method, path, interface)
        except GLib.Error as error:
            if on_error is not None:
                on_error(from_glib_error(error, method, path, interface))
            return
        except ProtocolError as error:
            if on_error is not None:
                on_error(error)
            return
        if on_reply is not None:
            on_reply(values)

    proxy.call(method, parameters, flags, timeout_ms, None, done)


def _call(proxy: Gio.DBusProxy, method: str, signature: Optional[str], args: Sequence[Any], timeout_ms: int,
          flags: Gio.DBusCallFlags, context: Optional[GLib.MainContext] = None) -> Tuple[Any, ...]:
    """``call_sync``; on a D-Bus error, first dispatches what is pending on ``context``: the signals the daemon
    sent before its error reply (a refused change's side change — the protection mark's dialog presented in its
    place — and its ``PropertiesChanged``) were queued there before the reply reached us, so the cached
    properties describe them when the error is raised."""
    parameters = GLib.Variant(signature, tuple(args)) if signature else None
    try:
        reply = proxy.call_sync(method, parameters, flags, timeout_ms, None)
    except GLib.Error as error:
        if context is not None:
            _drain(context)
        raise from_glib_error(error, method, proxy.get_object_path(), proxy.get_interface_name()) from None
    return protocol.check_reply(reply, method, proxy.get_object_path(), proxy.get_interface_name())


def _property(proxy: Gio.DBusProxy, interface: str, name: str, flags: Gio.DBusCallFlags) -> Any:
    """A property's value from ``proxy``'s cache, else read with ``Properties.Get`` (not cached: the daemon was
    not running when the proxy was made, or the property only invalidates); its D-Bus type checked."""
    path = proxy.get_object_path()
    value = proxy.get_cached_property(name)
    if value is None:
        method = PROPERTIES_IFACE + ".Get"
        try:
            reply = proxy.call_sync(method, GLib.Variant("(ss)", (interface, name)), flags, CALL_TIMEOUT_MS, None)
        except GLib.Error as error:
            raise from_glib_error(error, method, path, interface) from None
        if reply is None or reply.get_type_string() != "(v)":
            got = reply.get_type_string() if reply is not None else "()"
            raise protocol.fail(protocol.detail(name, path, interface),
                                f"Properties.Get answered {got}, expected (v)")
        value = reply.get_child_value(0).get_variant()
    return protocol.check_property(value, name, path, interface)


def _json_reply(target: Union["Session", "Window"], method: str, argument: str, signature: Optional[str] = None,
                args: Sequence[Any] = ()) -> Any:
    """Calls ``method`` (reply ``(s)``), parses its JSON and validates it as the document ``method.argument``."""
    (text,) = target.call(method, signature, args)
    where = protocol.detail(method, target.proxy.get_object_path(), target.proxy.get_interface_name())
    return protocol.decode(f"{method}.{argument}", text, where, argument)


# -- windows ---------------------------------------------------------------------------------------

def _as_is(value: Any, _where: Dict[str, Any]) -> Any:
    return value  # its D-Bus type was checked (protocol.PROPERTY_TYPES)


def _json_or_none(kind: str) -> Callable[[Any, Dict[str, Any]], Any]:
    """The conversion of a JSON property: ``""`` → ``None``, else the document, validated."""

    def convert(text: Any, where: Dict[str, Any]) -> Any:
        return protocol.decode(kind, text, where, "its value") if text else None

    return convert


def _routes(text: Any, where: Dict[str, Any]) -> List[Route]:
    document = protocol.decode("Routes", text or "[]", where, "its value")
    return protocol.convert(where, "its value", lambda: [Route.from_json(r) for r in document])


#: What the package reads of each ``Prepared`` entry (``title`` is optional; other keys are passed on).
_PREPARED_SHAPE = [{"model": int, "screen": str, "params": {str: str}}]


def _models(value: Any, _where: Dict[str, Any]) -> List[int]:
    """An ``at`` property (``VisibleModels``): a list of model ids."""
    return [int(model) for model in value]


def _renderers(text: Any, where: Dict[str, Any]) -> List[RegisteredRenderer]:
    """The ``Renderers`` property: the registered renderers, in registration order (``[]``: none, as is ``""``)."""
    document = protocol.decode("Renderers", text or "[]", where, "its value")
    if not isinstance(document, list):
        raise protocol.fail(where, f"its value is {type(document).__name__}, not a JSON array")
    return list(document)


def _prepared(text: Any, where: Dict[str, Any]) -> List[PreparedModel]:
    """The ``Prepared`` property: its entries, oldest first (``[]``: none, as is ``""``)."""
    document = protocol.decode("Prepared", text or "[]", where, "its value")
    problem = protocol.shape_problem(document, _PREPARED_SHAPE)
    if problem is not None:
        raise protocol.fail(where, f"its value is not the expected shape: {problem}")
    return list(document)


# Python property → (Window1 property, conversion of the unpacked value and the ProtocolError detail).
_WINDOW_PROPERTIES: Dict[str, Tuple[str, Callable[[Any, Dict[str, Any]], Any]]] = {
    "scene": ("Scene", _as_is),
    "title": ("Title", _as_is),
    "version": ("Version", _as_is),
    "active_screen": ("ActiveScreen", _as_is),
    "active_model": ("ActiveModel", _as_is),
    "current_routes": ("Routes", _routes),
    "selected_tab": ("SelectedTab", _as_is),
    "can_go_back": ("CanGoBack", _as_is),
    "can_pop": ("CanPop", _as_is),
    "can_dismiss": ("CanDismiss", _as_is),
    "pending_deep_link": ("PendingDeepLink", _as_is),
    "active_tag": ("ActiveTag", _as_is),
    "pending_navigation": ("PendingNavigation", _json_or_none("PendingNavigation")),
    "protected": ("Protected", _json_or_none("Protected")),
    "prepared": ("Prepared", _prepared),
    "visible_models": ("VisibleModels", _models),
    "renderers": ("Renderers", _renderers),
    "settled_version": ("SettledVersion", _as_is),
    "settled_by": ("SettledBy", _as_is),
    "can_go_forward": ("CanGoForward", _as_is),
    "can_undo": ("CanUndo", _as_is),
    "can_redo": ("CanRedo", _as_is),
    "undo_label": ("UndoLabel", _as_is),
    "group": ("Group", _as_is),
}


class _WindowProperties:
    """Makes each ``_WINDOW_PROPERTIES`` entry a read-only Python property of :class:`Window`."""

    @staticmethod
    def install(cls: type) -> type:
        for attribute, (dbus_name, convert) in _WINDOW_PROPERTIES.items():
            def getter(self: "Window", _name: str = dbus_name,
                       _convert: Callable[[Any, Dict[str, Any]], Any] = convert) -> Any:
                return _convert(self.prop(_name), protocol.detail(_name, self.path, WINDOW_IFACE))
            getter.__doc__ = f"The cached ``{dbus_name}`` property (kept current by PropertiesChanged)."
            setattr(cls, attribute, property(getter))
        return cls


class Window(GeneratedWindowMethods):
    """``org.navsession.Window1``: cached properties (``version``, ``active_screen``, ``active_model``,
    ``can_go_back``, ``can_go_forward``, ``current_routes``…), typed methods, the change stream and waits.
    A version-returning method this class does not write by hand comes from the contract
    (:class:`navsession._window_generated.GeneratedWindowMethods`).

    A method that changes the window returns the window's new version; the cached properties already describe
    it when the method returns (the signals that came with the reply are dispatched first), and a call the daemon
    refuses raises once the signals sent before its error are dispatched (a protection mark's dialog presented
    in place of the refused change is in the properties) — except in asyncio code while :mod:`navsession.aio`
    iterates the context in its thread: there ``await window.wait_for_async(version=v)``.

    In a change callback (:meth:`follow`, :meth:`connect_changed`) the cached properties describe the change
    being announced: ``window.version == change.version`` (see :class:`_WindowSignals`).
    """

    # Declared for type checkers; installed from _WINDOW_PROPERTIES below.
    scene: str
    title: str
    version: int
    active_screen: str
    active_model: int
    current_routes: List[Route]
    selected_tab: str
    can_go_back: bool
    can_pop: bool
    can_dismiss: bool
    pending_deep_link: str
    active_tag: str
    pending_navigation: Optional[Dict[str, Any]]
    protected: Any
    prepared: List[PreparedModel]
    visible_models: List[int]
    renderers: List[RegisteredRenderer]
    settled_version: int
    settled_by: str
    can_go_forward: bool
    can_undo: bool
    can_redo: bool
    undo_label: str
    group: str

    def __init__(self, session: Session, path: str, proxy: Optional[Gio.DBusProxy] = None) -> None:
        self.session = session
        self.path = path
        self._closed = False
        self._signals: Optional[_WindowSignals] = None  # made by the first connect_* (follow, changes…)
        if proxy is None:
            try:
                proxy = Gio.DBusProxy.new_sync(session.connection, session._proxy_flags, None, session.name, path,
                                               WINDOW_IFACE, None)
            except GLib.Error as error:
                raise from_glib_error(error, "GetAll", path, WINDOW_IFACE) from None
        self.proxy: Gio.DBusProxy = proxy

    def __repr__(self) -> str:
        return f"<navsession.Window {self.path}>"

    @property
    def number(self) -> int:
        """The window's number (the last element of its path)."""
        return _window_number(self.path)

    @property
    def closed(self) -> bool:
        """The window is gone (closed, or its daemon left the bus)."""
        return self._closed or self.proxy.get_name_owner() is None

    def prop(self, name: str) -> Any:
        """A Window1 property by its D-Bus name, from the cache (read from the daemon when not cached); a value
        of another D-Bus type than the interface's raises :class:`navsession.errors.ProtocolError`."""
        return _property(self.proxy, WINDOW_IFACE, name, self.session._call_flags)

    @property
    def properties(self) -> Dict[str, Any]:
        """Every cached Window1 property by its D-Bus name."""
        return {name: self.proxy.get_cached_property(name).unpack() for name in self.proxy.get_cached_property_names()}

    # -- calls

    def call(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = (),
             timeout_ms: int = CALL_TIMEOUT_MS) -> Tuple[Any, ...]:
        """Calls any Window1 method (or ``interface.Method``); returns the unpacked reply; raises the
        :mod:`navsession.errors` class of the D-Bus error — once the signals the daemon sent before the error are
        dispatched, so a refused change's side change (a protection mark's dialog, presented in its place) is in
        the cached properties when the error is raised. A reply likewise: the signals that came before it are
        dispatched first, so after any change made through ``call`` the cached properties describe it, as after
        the named methods."""
        reply = _call(self.proxy, method, signature, args, timeout_ms, self.session._call_flags, self.session.context)
        self.session._sync()
        return reply

    def call_async(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = (),
                   on_reply: Optional[Callable[[Tuple[Any, ...]], None]] = None,
                   on_error: Optional[Callable[[NavSessionError], None]] = None,
                   timeout_ms: int = CALL_TIMEOUT_MS) -> None:
        """Calls a method without blocking; ``on_reply(reply tuple)`` or ``on_error(typed error)`` runs on the
        main context when the answer arrives (a failure without ``on_error`` is dropped)."""
        _call_async(self.proxy, method, signature, args, on_reply, on_error, timeout_ms, self.session._call_flags)

    async def call_awaitable(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = (),
                             timeout_ms: int = CALL_TIMEOUT_MS) -> Tuple[Any, ...]:
        """:meth:`call` for asyncio: ``await window.call_awaitable("StackAppend", "(sa{ss})", ("about", {}))``; the
        loop keeps running while the call is in flight (:mod:`navsession.aio`)."""
        from . import aio
        return await aio.call(self.proxy, method, signature, args, timeout_ms, self.session._call_flags,
                              self.session.context)

    async def apply_async(self, batch: Union[CommandLike, Sequence[CommandLike]], *,
                          expected_version: Optional[int] = None,
                          transaction: Optional[Mapping[str, Any]] = None) -> Tuple[int, List[int]]:
        """:meth:`apply` for asyncio: every command (:mod:`navsession.commands`) without blocking the loop.
        Cached properties show the new version once :meth:`wait_for_async` (``version=``) returns."""
        version, started = await self.call_awaitable(
            "Apply", "(sa{ss})", (batch_json(batch), _options(expected_version, transaction)))
        return int(version), list(started)

    def _change(self, method: str, signature: Optional[str] = None, args: Sequence[Any] = ()) -> int:
        (version, *_rest) = self.call(method, signature, args)
        return int(version)

    # -- the daily methods (each returns the new version)

    def push(self, screen: str, params: Optional[Mapping[str, str]] = None) -> int:
        """``StackAppend``: pushes ``screen`` on the active stack."""
        return self._change("StackAppend", "(sa{ss})", (screen, dict(params or {})))

    def prepare(self, screen: str, params: Optional[Mapping[str, str]] = None) -> int:
        """``Prepare`` (React Navigation's ``preload``): makes ``screen`` (a plain screen) ahead of being shown, off
        the visible branch, and returns the id it will have — a later :meth:`push` (or ``show``, ``present``…) of
        the same screen with the same params shows it under that id. It is listed by :attr:`prepared` until then
        and reached by nothing else (``can_go_back`` and the routes do not see it). Returns the model id, not a
        version: the window's version moved on (``window.version``) unless the same screen and params were
        prepared already (their id, no change). :func:`navsession.commands.prepare` is the batch form."""
        (model,) = self.call("Prepare", "(sa{ss})", (screen, dict(params or {})))
        return int(model)

    def pop(self, count: int = 1) -> int:
        """``StackDropLast``."""
        return self._change("StackDropLast", "(u)", (count,))

    def pop_to_root(self) -> int:
        return self._change("StackDropToRoot")

    def set_root(self, screen: str, params: Optional[Mapping[str, str]] = None, clear: bool = False) -> int:
        return self._change("StackSetRoot", "(sa{ss}b)", (screen, dict(params or {}), clear))

    def set_path(self, screens: Sequence[str]) -> int:
        return self._change("StackSetPath", "(as)", (list(screens),))

    def present(self, kind: str, screen: str, params: Optional[Mapping[str, str]] = None) -> int:
        """``Present``: ``kind`` ``sheet``, ``fullScreenCover``, a custom kind, or a declared dialog's kind."""
        return self._change("Present", "(ssa{ss})", (kind, screen, dict(params or {})))

    def show(self, screen: str, params: Optional[Mapping[str, str]] = None) -> int:
        """``Show``: the screen the way the manifest declares it."""
        return self._change("Show", "(sa{ss})", (screen, dict(params or {})))

    def pop_to(self, screen: str, params: Optional[Mapping[str, str]] = None, *, merge: bool = False) -> int:
        """``PopTo``: React Navigation's ``popTo`` — back to the nearest element showing ``screen`` (the top
        included), its params set from ``params`` (merged with ``merge``; none keeps them); not in the stack, it
        takes the top element's place."""
        return self._change("PopTo", "(sa{ss}b)", (screen, dict(params or {}), merge))

    def pop_at(self, model: int, count: int = 1) -> int:
        """``PopAt``: React Navigation's ``pop(count)`` with a source — ``model``'s stack element and the
        ``count - 1`` below it go, the elements above stay."""
        return self._change("PopAt", "(tu)", (model, count))

    def dismiss(self) -> int:
        return self._change("Dismiss")

    def dismiss_all(self) -> int:
        return self._change("DismissAll")

    def hide(self) -> int:
        return self._change("Hide")

    def go_back(self) -> int:
        return self._change("GoBack")

    def go_back_to(self, screen: str) -> int:
        return self._change("GoBackTo", "(s)", (screen,))

    def go_back_to_root(self) -> int:
        return self._change("GoBackToRoot")

    def go_forward(self) -> int:
        return self._change("GoForward")

    def undo(self) -> int:
        """``Undo``: the newest change not yet undone taken back — the window back in the state before it, the
        same models with the same ids, params and renderer state (``can_undo``, ``undo_label``)."""
        return self._change("Undo")

    def redo(self) -> int:
        """``Redo``: the most recently undone change made again (``can_redo``); any other change clears it."""
        return self._change("Redo")

    def begin_back(self) -> Tuple[int, List[int]]:
        """``BeginBack``: whether ``go_back`` would be admitted now (guards asked), changing nothing. Returns the
        version the gesture begins on (for ``commit_back``) and the models ``go_back`` would finish."""
        version, finished = self.call("BeginBack")
        return int(version), list(finished)

    def commit_back(self, expected_version: int) -> int:
        """``CommitBack``: ``go_back`` only if the window is still at ``expected_version`` (else VersionMismatch)."""
        return self._change("CommitBack", "(t)", (expected_version,))

    def select_tab(self, tab: str) -> int:
        return self._change("TabsSelectItem", "(s)", (tab,))

    def switch_model(self, screen: str, params: Optional[Mapping[str, str]] = None) -> int:
        return self._change("SwitchModel", "(sa{ss})", (screen, dict(params or {})))

    def set_params(self, model: int, params: Mapping[str, str], replace: bool = False) -> int:
        """``SetParams`` of ``model`` (0: the active model); ``replace``: the params become exactly ``params``."""
        return self._change("SetParams", "(ta{ss}b)", (model, dict(params), replace))

    def push_params(self, model: int, params: Mapping[str, str]) -> int:
        """``PushParams`` (React Navigation's ``pushParams``): ``model``'s params (0: the active model) become
        ``params``; ``go_back`` restores the ones it had first."""
        return self._change("PushParams", "(ta{ss})", (model, dict(params)))

    def set_title(self, model: int, title: str) -> int:
        return self._change("SetTitle", "(ts)", (model, title))

    def bring_to_front(self, screen: str = "", tag: str = "") -> int:
        return self._change("BringToFront", "(ss)", (screen, tag))

    def protect(self, reason: str, *legacy: Any, model: Optional[Reference] = None, tag: Optional[str] = None,
                dialog: Optional[str] = None) -> int:
        """Marks a model protected (Docs/guards.md): changes that would finish or suspend it are refused with
        :class:`navsession.errors.Prevented`; the mark is this connection's. The arguments of
        :func:`navsession.commands.protect`: ``reason``, then by keyword ``model`` (an id, or ``"tag:…"``; ``None``
        or 0: the active model), ``tag``, ``dialog`` (a dialog the manifest declares, presented in place of a
        refused change; ``None``/``""``: none). A numeric model is ``Window1.Protect``; a tag is ``ExecuteAt`` of
        the ``protect`` command.

        The former order ``protect(model, reason, dialog="")`` (an ``int`` first) still works, with a
        :class:`DeprecationWarning`."""
        if legacy or (isinstance(reason, int) and not isinstance(reason, bool)):
            reason, model, dialog = _legacy_protect(reason, legacy, model, tag, dialog)
        if not isinstance(reason, str):
            raise TypeError(f"protect: reason must be a str, not {type(reason).__name__}")
        if tag is None and (model is None or (isinstance(model, int) and not isinstance(model, bool))):
            return self._change("Protect", "(tss)", (model or 0, reason, dialog or ""))
        return self.execute(_commands.protect(reason, model=model, tag=tag, dialog=dialog))

    def unprotect(self, model: Optional[Reference] = None, *, tag: Optional[str] = None) -> int:
        """Removes this connection's mark (:func:`navsession.commands.unprotect`'s arguments: ``model`` an id or
        ``"tag:…"``, ``None`` or 0 the active model; or ``tag``). ``unprotect(model_id)`` as before."""
        if tag is None and (model is None or (isinstance(model, int) and not isinstance(model, bool))):
            return self._change("Unprotect", "(t)", (model or 0,))
        return self.execute(_commands.unprotect(model=model, tag=tag))

    def execute(self, command: CommandLike, model: int = 0) -> int:
        """``ExecuteAt``: one command from ``model`` (0: the active model)."""
        return self._change("ExecuteAt", "(ts)", (model, json.dumps(_commands.to_json(command))))

    def apply(self, batch: Union[CommandLike, Sequence[CommandLike]], *, expected_version: Optional[int] = None,
              transaction: Optional[Mapping[str, Any]] = None) -> Tuple[int, List[int]]:
        """``Apply``: the batch atomically (one version); ``expected_version``: only if the window is at that
        version (else :class:`navsession.errors.VersionMismatch`). Returns ``(version, started model ids)``."""
        version, started = self.call("Apply", "(sa{ss})", (batch_json(batch), _options(expected_version, transaction)))
        self.session._sync()
        return int(version), list(started)

    def check(self, batch: Union[CommandLike, Sequence[CommandLike]], *, expected_version: Optional[int] = None,
              transaction: Optional[Mapping[str, Any]] = None) -> Tuple[int, List[int]]:
        """``Check``: what ``apply`` would answer, changing nothing (or its error)."""
        version, started = self.call("Check", "(sa{ss})", (batch_json(batch), _options(expected_version, transaction)))
        return int(version), list(started)

    def schedule(self, batch: Union[CommandLike, Sequence[CommandLike]], after_ms: int) -> str:
        """``Schedule``: runs the batch ``after_ms`` from now; returns its id."""
        (id,) = self.call("Schedule", "(st)", (batch_json(batch), after_ms))
        return str(id)

    def cancel_scheduled(self, id: str) -> int:
        return self._change("CancelScheduled", "(s)", (id,))

    def run_scheduled(self, id: str) -> int:
        """``RunScheduled``: the batch now, as at its deadline (its author's authority); a batch that fails is
        dropped and its error raised."""
        return self._change("RunScheduled", "(s)", (id,))

    def send_message(self, model: int, name: str, payload: Optional[Mapping[str, str]] = None) -> None:
        self.call("SendMessage", "(tsa{ss})", (model, name, dict(payload or {})))

    def report_settled(self, version: int) -> None:
        """``ReportSettled``: a renderer finished showing ``version``."""
        self.call("ReportSettled", "(t)", (version,))

    # -- what the user did (renderer reports; each returns the new version)

    def report_popped(self, stack: int, index: int) -> int:
        """``ReportPopped``: the user went back in ``stack`` to element ``index`` (a back gesture the renderer let
        happen)."""
        return self._change("ReportPopped", "(tu)", (stack, index))

    def report_dismissed(self, model: int) -> int:
        """``ReportDismissed``: the user dismissed the presented ``model`` (a sheet swiped down)."""
        return self._change("ReportDismissed", "(t)", (model,))

    def report_tab_selected(self, tabs: int, tab: str) -> int:
        """``ReportTabSelected``: the user selected ``tab`` of the tabs ``tabs``."""
        return self._change("ReportTabSelected", "(ts)", (tabs, tab))

    def report_action_chosen(self, dialog: int, action: str) -> int:
        """``ReportActionChosen``: the user chose ``action`` of the alert or dialog ``dialog`` (a mark's
        re-applying action re-applies the change it refused)."""
        return self._change("ReportActionChosen", "(ts)", (dialog, action))

    def report_child_selected(self, container: int, child: int) -> int:
        """``ReportChildSelected``: the user selected ``child`` of a custom container (a split's column)."""
        return self._change("ReportChildSelected", "(tt)", (container, child))

    def report_collapsed(self, split: int, collapsed: bool) -> int:
        """``ReportCollapsed``: the split ``split`` collapsed to one column (or expanded again)."""
        return self._change("ReportCollapsed", "(tb)", (split, collapsed))

    def report_closed(self) -> None:
        """``ReportClosed``: the user closed the window."""
        self.call("ReportClosed")

    # -- renderers (Docs/renderers.md, Docs/panes.md)

    def report_width_class(self, width_class: str) -> None:
        """``ReportWidthClass``: the width the renderer has for the window, as Material's window size classes —
        ``"compact"`` (under 600 dp), ``"medium"`` (under 840 dp) or ``"expanded"``. With a scene's ``panes`` in the
        manifest (``{"strategy": "list-detail" | "supporting-pane" | "three-column", "stack": tag}``) it decides how
        many of the pane stack's top elements are on screen side by side (:attr:`visible_models`). Not navigation:
        no version, not journaled (compact again after a daemon restart until reported again). When it returns, the
        cached ``visible_models`` follows. Raises :class:`navsession.errors.InvalidArgs` (not a width class),
        :class:`navsession.errors.AccessDenied` (the window's policy), :class:`TypeError` (not a ``str``)."""
        if not isinstance(width_class, str):
            raise TypeError(f"report_width_class: width_class must be a str, not {type(width_class).__name__}")
        self.call("ReportWidthClass", "(s)", (width_class,))

    def register_renderer(self, role: str = "primary",
                          capabilities: Union[Mapping[str, Any], str, None] = None) -> str:
        """``RegisterRenderer``: this connection becomes a renderer of the window in ``role`` — ``"primary"`` (the
        window's own front-end: its reports change the window; one per window), ``"mirror"`` (a view that follows:
        a second screen, a remote; its reports are refused) or ``"assistive"`` (a voice or screen-reader front-end:
        it navigates with methods, not reports). ``capabilities``: what it can animate, a dict (sent as JSON) or its
        JSON text, ``{"multiDismiss": bool, "pushesInOne": bool}``; ``None`` (sent as ``""``): the window's.

        Returns its id (``"r1"``, ``"r2"``…). After each change the connection receives, addressed to it alone, the
        ``Steps`` signal planned for those capabilities (:meth:`connect_steps`); a mirror's or an assistive
        renderer's report (``report_popped``, ``report_dismissed``, ``report_tab_selected``,
        ``report_action_chosen``, ``report_child_selected``, ``report_collapsed``, ``report_closed``) raises
        :class:`navsession.errors.AccessDenied`; ``report_settled`` records each renderer's settled version
        (:attr:`renderers`). Registering again in the same role replaces this connection's registration; it ends
        with :meth:`unregister_renderer` or the connection. When it returns, the cached ``renderers`` lists it.
        Raises :class:`navsession.errors.InvalidArgs` (an unknown role, malformed capabilities),
        :class:`navsession.errors.AccessDenied` (another client's primary is registered; the window's policy, for a
        primary), :class:`navsession.errors.LimitsExceeded` (16 renderers), :class:`TypeError`."""
        if not isinstance(role, str):
            raise TypeError(f"register_renderer: role must be a str, not {type(role).__name__}")
        if capabilities is None:
            capabilities_json = ""
        elif isinstance(capabilities, str):
            capabilities_json = capabilities
        elif isinstance(capabilities, Mapping):
            capabilities_json = json.dumps(dict(capabilities), separators=(",", ":"))
        else:
            raise TypeError(f"renderer capabilities are a dict, their JSON text or None, not "
                            f"{type(capabilities).__name__}")
        (renderer_id,) = self.call("RegisterRenderer", "(ss)", (role, capabilities_json))
        return str(renderer_id)

    def unregister_renderer(self, renderer_id: str) -> None:
        """``UnregisterRenderer``: ends a registration :meth:`register_renderer` returned to this connection. When
        it returns, the cached ``renderers`` no longer lists it. Raises :class:`navsession.errors.InvalidArgs` (no
        such renderer), :class:`navsession.errors.AccessDenied` (another connection's)."""
        self.call("UnregisterRenderer", "(s)", (renderer_id,))

    def close(self) -> None:
        """Closes the window (``Session1.DismissWindow``)."""
        self.session.dismiss_window(self)

    # -- reading

    def state(self) -> WindowSnapshot:
        """``GetState``: the window snapshot (Docs/state-schema.md)."""
        snapshot: WindowSnapshot = _json_reply(self, "GetState", "state_json")
        return snapshot

    def state_at(self, version: int) -> WindowSnapshot:
        snapshot: WindowSnapshot = _json_reply(self, "GetStateAt", "state_json", "(t)", (version,))
        return snapshot

    def set_state(self, state: Mapping[str, Any]) -> int:
        return self._change("SetState", "(s)", (json.dumps(state),))

    def routes(self) -> List[Route]:
        """``GetRoutes``: the active branch's routes, asked (``current_routes`` is the cached ``Routes``)."""
        document = _json_reply(self, "GetRoutes", "routes_json")
        return protocol.convert(protocol.detail("GetRoutes", self.path, WINDOW_IFACE), "routes_json",
                                lambda: [Route.from_json(r) for r in document])

    def set_routes(self, routes: Sequence[Union[Route, Mapping[str, Any]]]) -> int:
        return self._change("SetRoutes", "(s)", (_routes_json(routes),))

    def tree(self) -> str:
        """``GetTree``: the debug tree as text."""
        return str(self.call("GetTree")[0])

    def get_announcement(self, accept_language: str = "") -> Announcement:
        """``GetAnnouncement``: the window's newest announcement for assistive technologies again, as
        :class:`Announcement` ``(version, text, focus_model)`` — its text in the locale of ``accept_language`` (HTTP
        ``Accept-Language``: ``"fr-CA,fr;q=0.9,en;q=0.5"``) the manifest speaks best, ``""`` for the manifest's own;
        ``Announcement(0, "", 0)`` before any (kept in memory only: also after a daemon restart). A window that
        closed raises :class:`navsession.errors.UnknownObject`. Docs/announcements.md."""
        if not isinstance(accept_language, str):
            raise TypeError(f"get_announcement: accept_language must be a str, not {type(accept_language).__name__}")
        version, text, focus_model = self.call("GetAnnouncement", "(s)", (accept_language,))
        return Announcement(int(version), str(text), int(focus_model))

    def history(self) -> List[HistoryEntry]:
        return list(_json_reply(self, "GetHistory", "history_json"))

    def trace(self) -> Dict[str, Any]:
        return dict(_json_reply(self, "ExportTrace", "trace_json"))

    # -- signals (GLib main loop)

    # Every connect_* callback (and follow, changes) is called by the window's _WindowSignals: in the order the
    # daemon sent the signals, each Changed once the cached properties show its version.

    def connect_changed(self, callback: Callable[[Change], None],
                        on_error: Optional[Callable[[ProtocolError], None]] = None) -> Callable[[], None]:
        """Calls ``callback(change)`` for every ``Changed`` signal (no gap handling: see :meth:`follow`), once the
        cached properties describe the change: the daemon sends ``Changed`` before the ``PropertiesChanged``
        that goes with it, so the callback waits for that one (no extra call; when it does not come within
        :data:`PROPERTIES_WAIT`, the properties are read with ``GetAll``). Inside the callback ``window.version ==
        change.version`` and ``active_screen``, ``can_go_back``… are the state after the change (when one
        operation made several changes of the window — a waiting deep link resumed by the change — the daemon
        announces the properties once, after its last ``Changed``: the earlier changes' callbacks see that
        state). A signal the package cannot understand is ``on_error(ProtocolError)`` (without ``on_error`` the
        error is raised from the signal handler, which GLib prints). Returns a function that disconnects."""
        return self._dispatcher().subscribe(_WindowSignals.CHANGED, callback, on_error)

    def connect_signal(self, signal: str, callback: Callable[..., None]) -> Callable[[], None]:
        """Calls ``callback(*args)`` for every ``signal`` (``Message``, ``Effect``, ``Prevented``…), in order with
        the ``Changed`` callbacks (a ``Message`` sent after a ``Changed`` comes after that change's callbacks)."""
        return self._dispatcher().subscribe(_WindowSignals.SIGNAL, callback, None, signal)

    def connect_properties(self, callback: Callable[[Dict[str, Any]], None]) -> Callable[[], None]:
        """Calls ``callback(changed)`` (D-Bus name → value) after the cache took a PropertiesChanged — after the
        callbacks of the changes it completes."""
        return self._dispatcher().subscribe(_WindowSignals.PROPERTIES, callback)

    def connect_announcement(self, callback: Callable[[Announcement], None],
                             on_error: Optional[Callable[[ProtocolError], None]] = None) -> Callable[[], None]:
        """Calls ``callback(announcement)`` (:class:`Announcement`) for every ``Announcement`` signal: after each
        change that moved focus, or presented an alert or confirmation dialog (Docs/announcements.md), in the
        daemon's order — after the callbacks of the change it is about, and once the cached properties describe
        that change: inside the callback ``window.version >= announcement.version`` and ``window.active_model`` is
        the model focus goes to (unless a later change moved on). A signal of another D-Bus type is
        ``on_error(ProtocolError)`` (without ``on_error`` it is raised from the signal handler, which GLib prints).
        Returns a function that disconnects. ``connect_signal("Announcement", callback)`` gives the raw arguments."""
        path = self.path

        def deliver(params: GLib.Variant) -> None:
            try:
                announcement = Announcement.from_signal(path, params)
            except ProtocolError as error:
                if on_error is None:
                    raise
                on_error(error)
                return
            callback(announcement)

        return self._dispatcher().subscribe(_WindowSignals.SIGNAL, deliver, on_error, "Announcement", raw=True)

    def connect_steps(self, callback: Callable[[RendererSteps], None],
                      on_error: Optional[Callable[[ProtocolError], None]] = None, *,
                      renderer_id: Optional[str] = None) -> Callable[[], None]:
        """Calls ``callback(steps)`` (:class:`RendererSteps`) for every ``Steps`` signal this connection receives:
        once it registered as a renderer (:meth:`register_renderer`), the daemon sends it, addressed to it alone and
        after each change's ``Changed``, the change's steps planned for its capabilities (``renderer_id``: only
        those of that registration). In the daemon's order, like an announcement: after the callbacks of the change
        it is about, once the cached properties describe it (``window.version >= steps.version``). The daemon sends
        none for a change too large to plan (``Changed``'s ``steps_json`` is ``"[]"`` then) or while this connection
        lags far behind: a renderer keeps ``Changed``'s steps to fall back on. A signal of another D-Bus type, or
        steps that do not validate, is ``on_error(ProtocolError)`` (without ``on_error`` it is raised from the
        signal handler, which GLib prints). Returns a function that disconnects."""
        path = self.path

        def deliver(params: GLib.Variant) -> None:
            try:
                steps = RendererSteps.from_signal(path, params)
            except ProtocolError as error:
                if on_error is None:
                    raise
                on_error(error)
                return
            if renderer_id is None or steps.renderer_id == renderer_id:
                callback(steps)

        return self._dispatcher().subscribe(_WindowSignals.SIGNAL, deliver, on_error, "Steps", raw=True)

    def _dispatcher(self) -> "_WindowSignals":
        if self._signals is None:
            self._signals = _WindowSignals(self)
        return self._signals

    def _release_signals(self) -> None:
        """The window closed: what waits for a PropertiesChanged is delivered now (none will come)."""
        if self._signals is not None:
            self._signals.release()

    def _stop_signals(self) -> None:
        """The session closed: drop what waits, disconnect."""
        if self._signals is not None:
            self._signals.stop()

    # -- change stream

    def changes(self, timeout: Optional[float] = None) -> "ChangeStream":
        """The window's changes from now on, in order: :class:`Change`, or :class:`Resync` after a gap.
        Iterate it (``for change in window.changes()``: dispatches the main context while waiting; ``timeout``
        per change raises :class:`navsession.errors.Timeout`) or ``async for`` it; it ends when the window
        closes. Subscribed when this returns, so nothing after this call is missed."""
        return ChangeStream(self, timeout)

    def changes_async(self, timeout: Optional[float] = None) -> "ChangeStream":
        """The same stream, for ``async for change in window.changes_async()``."""
        return ChangeStream(self, timeout)

    def follow(self, callback: Callable[[Event], None],
               on_error: Optional[Callable[[NavSessionError], None]] = None) -> "ChangeStream":
        """Calls ``callback(event)`` with each :class:`Change` or :class:`Resync` from the main loop (no thread,
        no iteration of ours); ``stream.close()`` stops. ``on_error(error)``: a ``Changed`` signal the package
        could not understand (:class:`navsession.errors.ProtocolError`) or a failed resynchronisation (without
        it, the error is raised from the signal handler, which GLib prints)."""
        return ChangeStream(self, None, callback, on_error)

    # -- waits

    def _condition(self, predicate: Optional[Callable[["Window"], bool]], version: Optional[int],
                   screen: Optional[str]) -> Tuple[Callable[[], bool], str]:
        parts = []
        if version is not None:
            parts.append(f"version {version}")
        if screen is not None:
            parts.append(f"screen {screen!r}")
        if predicate is not None:
            parts.append(getattr(predicate, "__name__", "a predicate"))
        if not parts:
            raise ValueError("wait_for needs a predicate, version= or screen=")

        def condition() -> bool:
            if self.closed:
                raise NavSessionError("org.freedesktop.DBus.Error.UnknownObject",
                                      f"window {self.path} closed while waiting for {' and '.join(parts)}",
                                      {"path": self.path})
            return ((version is None or self.version >= version)
                    and (screen is None or self.active_screen == screen)
                    and (predicate is None or bool(predicate(self))))

        return condition, f"{self.path}: " + " and ".join(parts)

    def wait_for(self, predicate: Optional[Callable[["Window"], bool]] = None, *, version: Optional[int] = None,
                 screen: Optional[str] = None, timeout: Optional[float] = WAIT_TIMEOUT) -> "Window":
        """Dispatches the main context until the window is at ``version`` or later, shows ``screen`` and
        ``predicate(window)`` holds (all that are given); :class:`navsession.errors.Timeout` after ``timeout``
        seconds. Blocks: for code running a main loop, see :meth:`when`."""
        condition, what = self._condition(predicate, version, screen)
        _iterate_until(self.session.context, condition, timeout, what)
        return self

    def wait_settled(self, version: Optional[int] = None, timeout: Optional[float] = WAIT_TIMEOUT) -> "Window":
        """Waits until a renderer reported ``version`` (default: the current one) settled (``SettledVersion``)."""
        target = self.version if version is None else version
        return self.wait_for(lambda w: w.settled_version >= target, timeout=timeout)

    async def wait_for_async(self, predicate: Optional[Callable[["Window"], bool]] = None, *,
                             version: Optional[int] = None, screen: Optional[str] = None,
                             timeout: Optional[float] = WAIT_TIMEOUT) -> "Window":
        """:meth:`wait_for` for asyncio (:mod:`navsession.aio` dispatches the main context meanwhile)."""
        from . import aio
        condition, what = self._condition(predicate, version, screen)
        await aio.pump(self.session.context).until(condition, timeout, what)
        return self

    async def wait_settled_async(self, version: Optional[int] = None,
                                 timeout: Optional[float] = WAIT_TIMEOUT) -> "Window":
        target = self.version if version is None else version
        return await self.wait_for_async(lambda w: w.settled_version >= target, timeout=timeout)

    def when(self, callback: Callable[["Window"], None], predicate: Optional[Callable[["Window"], bool]] = None, *,
             version: Optional[int] = None, screen: Optional[str] = None) -> Callable[[], None]:
        """Calls ``callback(window)`` once, from the main loop, when the condition of :meth:`wait_for` holds
        (at once if it holds now). Returns a function that cancels."""
        condition, _what = self._condition(predicate, version, screen)
        if condition():
            callback(self)
            return lambda: None
        stop: List[Callable[[], None]] = []

        def check(_changed: Dict[str, Any]) -> None:
            if stop and condition():
                stop.pop()()
                callback(self)

        stop.append(self.connect_properties(check))
        return lambda: stop.pop()() if stop else None


_WindowProperties.install(Window)


#: How long (seconds) a window's ``Changed`` callbacks wait for the ``PropertiesChanged`` that shows the change
#: before the package reads the properties with ``GetAll`` instead. The daemon sends that signal right after
#: ``Changed``, in the same pass, so the wait normally ends with the next signal; the bound only matters if it
#: never comes (a stand-in, a daemon that announces no properties).
PROPERTIES_WAIT = 1.0


class _Subscriber:
    __slots__ = ("kind", "callback", "on_error", "name", "active", "raw")

    def __init__(self, kind: str, callback: Callable[..., None], on_error: Optional[Callable[..., None]],
                 name: str, raw: bool = False) -> None:
        self.kind = kind
        self.callback = callback
        self.on_error = on_error
        self.name = name
        self.active = True
        self.raw = raw  # a signal's arguments as the GLib.Variant, to be checked by the callback


class _Pending:
    """One delivery :class:`_WindowSignals` holds: a signal (``name``, ``params``; ``version`` > 0 for a
    ``Changed``), a ``PropertiesChanged`` (``params``: the changed values) or a deferred ``call``."""

    __slots__ = ("kind", "version", "name", "params", "call")

    def __init__(self, kind: str, version: int = 0, name: str = "", params: Any = None,
                 call: Optional[Callable[[], None]] = None) -> None:
        self.kind = kind
        self.version = version
        self.name = name
        self.params = params
        self.call = call


class _WindowSignals:
    """A window's signals, handed to its subscribers (``connect_changed``, ``connect_signal``,
    ``connect_properties``; ``follow`` and the change streams through ``connect_changed``) in the order the
    daemon sent them — except that a ``Changed`` of version N (or an ``Announcement`` or ``Steps`` about version
    N), and everything after it, waits until the proxy's cached ``Version`` is N or more. The daemon sends a change's
    ``Changed`` first (its ``Announcement`` next) and its ``PropertiesChanged`` right after them (one pass on its bus
    thread), so the wait normally ends with the very next signal and costs no call: inside a change callback the
    cached properties describe the state after the change.

    Bounded: when the cache has not caught up after :data:`PROPERTIES_WAIT` seconds, an asynchronous ``GetAll``
    (whose reply comes after every signal the daemon sent before answering it, so it never goes back in time)
    updates the cache and what waited is delivered; a failed ``GetAll``, the window closing or its daemon leaving
    the bus deliver at once. Not re-entrant: a callback that dispatches the main context (a method's reply)
    queues what arrives meanwhile behind itself instead of running it nested."""

    CHANGED, SIGNAL, PROPERTIES, CALL = "changed", "signal", "properties", "call"

    def __init__(self, window: Window) -> None:
        self.window = window
        self.proxy = window.proxy
        self.context = window.session.context
        self._subscribers: List[_Subscriber] = []
        self._queue: Deque[_Pending] = deque()
        self._released = 0  # waiting entries at or below this version are delivered without waiting
        self._flushing = False
        self._failures: List[BaseException] = []
        self._timer: Optional[GLib.Source] = None
        self._timer_for: Optional[_Pending] = None
        self._reading = False  # a GetAll is on its way
        self._generation = 0  # bumped by stop(): a GetAll reply of an earlier generation is ignored
        self._handlers: List[int] = []

    # -- subscribers

    def subscribe(self, kind: str, callback: Callable[..., None], on_error: Optional[Callable[..., None]] = None,
                  name: str = "", raw: bool = False) -> Callable[[], None]:
        if not self._handlers:
            self._handlers = [self.proxy.connect("g-signal", self._on_signal),
                              self.proxy.connect("g-properties-changed", self._on_properties),
                              self.proxy.connect("notify::g-name-owner", self._on_owner)]
        subscriber = _Subscriber(kind, callback, on_error, name, raw)
        self._subscribers.append(subscriber)

        def disconnect() -> None:
            if subscriber.active:
                subscriber.active = False
                self._subscribers.remove(subscriber)
                if not self._subscribers:
                    self.stop()

        return disconnect

    def _wants(self, kind: str, name: str = "") -> bool:
        return any(s.kind == kind and (not name or s.name == name) for s in self._subscribers)

    def defer(self, version: int, call: Callable[[], None]) -> None:
        """Runs ``call()`` once the cached ``Version`` is ``version`` or more (bounded as a change), before what is
        queued: for use from a delivery (a change stream's resynchronisation)."""
        self._queue.appendleft(_Pending(self.CALL, version, call=call))
        self._flush()

    def release(self) -> None:
        """Delivers what waits now (the window closed or its daemon left: no PropertiesChanged will come)."""
        self._released = max([self._released] + [entry.version for entry in self._queue])
        self._flush()

    def stop(self) -> None:
        """Drops what waits and disconnects (the last subscriber left, or the session closed)."""
        self._generation += 1
        for handler in self._handlers:
            self.proxy.disconnect(handler)
        self._handlers = []
        for subscriber in self._subscribers:
            subscriber.active = False
        self._subscribers = []
        self._queue.clear()
        self._cancel_timer()
        self._reading = False

    # -- the proxy's signals

    def _on_signal(self, _proxy: Any, _sender: str, name: str, params: GLib.Variant) -> None:
        version = 0
        if name == "Changed":
            if not (self._wants(self.CHANGED) or self._wants(self.SIGNAL, name)):
                return
            if params is not None and params.get_type_string() == protocol.SIGNAL_SIGNATURES[WINDOW_IFACE]["Changed"]:
                version = params.get_child_value(0).get_uint64()
        elif not self._wants(self.SIGNAL, name):
            return
        elif name in ("Announcement", "Steps"):
            # About the change to its version: held, like that change's Changed, until the cache shows it.
            if params is not None and params.get_type_string() == protocol.SIGNAL_SIGNATURES[WINDOW_IFACE][name]:
                version = params.get_child_value(0).get_uint64()
        self._queue.append(_Pending(self.SIGNAL, version, name, params))
        self._flush()

    def _on_properties(self, _proxy: Any, changed: GLib.Variant, _invalidated: Any) -> None:
        if self._wants(self.PROPERTIES):
            self._queue.append(_Pending(self.PROPERTIES, params=changed.unpack()))
        self._flush()  # the cache moved: what waited for it may go

    def _on_owner(self, _proxy: Any, _pspec: Any) -> None:
        if self.proxy.get_name_owner() is None:
            self.release()
        else:
            self._released = 0  # a daemon (re)started: its versions are its own

    # -- delivering

    def _cached_version(self) -> Optional[int]:
        value = self.proxy.get_cached_property("Version")
        if value is None or value.get_type_string() != "t":
            return None  # not cached (reading it asks the daemon: the present) or malformed (reading it raises)
        return int(value.get_uint64())

    def _ready(self, entry: _Pending) -> bool:
        if entry.version == 0 or entry.version <= self._released:
            return True
        cached = self._cached_version()
        return cached is None or entry.version <= cached

    def _flush(self) -> None:
        if self._flushing:
            return  # a callback dispatched the context: the outer loop goes on after it returns
        self._flushing = True
        try:
            while self._queue:
                entry = self._queue[0]
                if not self._ready(entry):
                    break
                self._queue.popleft()
                self._deliver(entry)
        finally:
            self._flushing = False
            failures, self._failures = self._failures, []
        self._arm()
        for failure in failures[1:]:
            _log.error("window %s: a signal callback raised", self.window.path, exc_info=failure)
        if failures:
            raise failures[0]  # from the signal handler, as a callback's own exception would be

    def _run(self, callback: Callable[..., None], *args: Any) -> None:
        try:
            callback(*args)
        except Exception as error:  # noqa: BLE001 - raised once the queue is delivered (_flush)
            self._failures.append(error)

    def _current(self, kind: str, name: str = "") -> List[_Subscriber]:
        return [s for s in self._subscribers if s.kind == kind and (not name or s.name == name)]

    def _deliver(self, entry: _Pending) -> None:
        if entry.kind == self.CALL:
            assert entry.call is not None
            self._run(entry.call)
            return
        if entry.kind == self.PROPERTIES:
            for subscriber in self._current(self.PROPERTIES):
                if subscriber.active:
                    self._run(subscriber.callback, entry.params)
            return
        if entry.name == "Changed":
            subscribers = self._current(self.CHANGED)
            if subscribers:
                change: Union[Change, ProtocolError]
                try:
                    change = Change.from_signal(self.window.path, entry.params)
                except ProtocolError as error:
                    change = error
                for subscriber in subscribers:
                    if not subscriber.active:
                        continue
                    if isinstance(change, Change):
                        self._run(subscriber.callback, change)
                    elif subscriber.on_error is not None:
                        self._run(subscriber.on_error, change)
                    else:
                        self._failures.append(change)
        for subscriber in self._current(self.SIGNAL, entry.name):
            if subscriber.active and subscriber.raw:
                self._run(subscriber.callback, entry.params)
            elif subscriber.active:
                self._run(subscriber.callback, *(entry.params.unpack() if entry.params is not None else ()))

    # -- the bound

    def _arm(self) -> None:
        head = self._queue[0] if self._queue else None
        if head is None or self._reading or self._ready(head):
            self._cancel_timer()
            return
        if self._timer is not None and self._timer_for is head:
            return
        self._cancel_timer()
        source = GLib.timeout_source_new(max(int(PROPERTIES_WAIT * 1000), 0))
        source.set_callback(self._on_timeout)
        source.attach(self.context)
        self._timer, self._timer_for = source, head

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.destroy()
        self._timer = self._timer_for = None

    def _on_timeout(self, *_: Any) -> bool:
        self._timer = self._timer_for = None
        if self._queue and not self._reading and not self._ready(self._queue[0]):
            self._read_all()
        return GLib.SOURCE_REMOVE

    def _read_all(self) -> None:
        """``GetAll``, asynchronously: its reply is dispatched on this context (pushed as the thread default while
        the call is made, as this may run in an asyncio pump's thread)."""
        self._reading = True
        self.context.push_thread_default()
        try:
            self.proxy.call(PROPERTIES_IFACE + ".GetAll", GLib.Variant("(s)", (WINDOW_IFACE,)),
                            self.window.session._call_flags, CALL_TIMEOUT_MS, None, self._on_all, self._generation)
        finally:
            self.context.pop_thread_default()

    def _on_all(self, source: Gio.DBusProxy, result: Gio.AsyncResult, generation: int) -> None:
        if generation != self._generation:
            return
        self._reading = False
        changed: Dict[str, Any] = {}
        try:
            reply: Optional[GLib.Variant] = source.call_finish(result)
        except GLib.Error:
            reply = None  # the window went, the daemon left…: deliver what waited anyway
        if reply is not None and reply.get_type_string() == "(a{sv})":
            values = reply.get_child_value(0)
            for index in range(values.n_children()):
                item = values.get_child_value(index)
                name, value = item.get_child_value(0).get_string(), item.get_child_value(1).get_variant()
                cached = self.proxy.get_cached_property(name)
                # Not cached (Routes, announced as invalidated): reading it asks the daemon, so it stays so.
                if cached is not None and not cached.equal(value):
                    self.proxy.set_cached_property(name, value)
                    changed[name] = value.unpack()
        # Whatever still waits had its PropertiesChanged, if any, sent before this reply: none is coming.
        self._released = max([self._released] + [entry.version for entry in self._queue])
        if changed and self._wants(self.PROPERTIES):
            self._queue.append(_Pending(self.PROPERTIES, params=changed))
        self._flush()


def _legacy_protect(first: Any, legacy: Tuple[Any, ...], model: Optional[Reference], tag: Optional[str],
                    dialog: Optional[str]) -> Tuple[str, int, Optional[str]]:
    """``(reason, model, dialog)`` of a call in the former order ``Window.protect(model, reason, dialog="")``,
    accepted only when it cannot be read otherwise: an ``int`` model first, then the reason (and dialog) as
    strings, no ``model=``/``tag=`` keyword. Anything else raises ``TypeError``."""
    if (isinstance(first, int) and not isinstance(first, bool) and 1 <= len(legacy) <= 2
            and all(isinstance(argument, str) for argument in legacy) and model is None and tag is None
            and (dialog is None or len(legacy) == 1)):
        warnings.warn("Window.protect(model, reason, dialog) is deprecated: use protect(reason, model=…, dialog=…), "
                      "the order of navsession.commands.protect", DeprecationWarning, stacklevel=3)
        return legacy[0], first, legacy[1] if len(legacy) == 2 else dialog
    raise TypeError("protect(reason, *, model=None, tag=None, dialog=None) takes the reason first and the rest by "
                    "keyword (the former protect(model_id, reason, dialog) is read only with an int model first)")


def _options(expected_version: Optional[int], transaction: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    options: Dict[str, str] = {}
    if expected_version is not None:
        options["expected_version"] = str(expected_version)
    if transaction is not None:
        options["transaction"] = json.dumps(transaction, separators=(",", ":"))
    return options


class ChangeStream:
    """A window's :class:`Change` events in order; a gap (a ``Changed`` whose ``previous_version`` is not the
    last version seen: a lost signal, a version jump) re-reads the window and yields a :class:`Resync` instead.
    Versions at or below the last one seen (already covered by a resync) are skipped. A ``Changed`` signal the
    package cannot understand raises :class:`navsession.errors.ProtocolError` in its place (iterating goes on
    after it: the next change then shows the gap and resynchronises).

    The window's cached properties show each event when it comes: a :class:`Change` is queued once its
    ``PropertiesChanged`` was applied (see :meth:`Window.connect_changed`), a :class:`Resync` once the
    properties reached the snapshot's version. ``follow``'s callback sees exactly that state; an iterating loop
    sees it or a later one (the main context may have dispatched later changes while it waited)."""

    def __init__(self, window: Window, timeout: Optional[float] = None,
                 callback: Optional[Callable[[Event], None]] = None,
                 on_error: Optional[Callable[[NavSessionError], None]] = None) -> None:
        self.window = window
        self.timeout = timeout
        self.last_version = window.version
        self._queue: Deque[Union[Change, ProtocolError]] = deque()
        self._drop = 0
        self._callback = callback
        self._on_error = on_error
        self._closed = False
        self._disconnect = window.connect_changed(self._on_change, self._on_change)

    def drop_next(self, count: int = 1) -> None:
        """For tests: ignore the next ``count`` ``Changed`` signals as if the bus had lost them."""
        self._drop += count

    def close(self) -> None:
        self._closed = True
        self._disconnect()

    def __enter__(self) -> "ChangeStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _on_change(self, change: Union[Change, ProtocolError]) -> None:
        if self._drop:
            self._drop -= 1
            return
        self._queue.append(change)
        if self._callback is not None:
            while True:
                try:
                    event = self._take()
                except NavSessionError as error:
                    if self._on_error is None:
                        raise
                    self._on_error(error)
                    continue
                if event is None:
                    break
                if isinstance(event, Resync):
                    # The snapshot may be ahead of the cached properties (their PropertiesChanged are queued
                    # on the context, after this delivery): the callback comes once they show its version.
                    self.window._dispatcher().defer(event.version, lambda e=event: self._follow_resync(e))
                else:
                    self._callback(event)

    def _follow_resync(self, event: Resync) -> None:
        if not self._closed and self._callback is not None:
            self._callback(event)

    def _caught_up(self, version: int) -> bool:
        """The cached properties show ``version`` (or cannot: the window closed, ``Version`` not cached)."""
        if self.window.closed:
            return True
        cached = self.window._dispatcher()._cached_version()
        return cached is None or cached >= version

    def _take(self) -> Optional[Event]:
        while self._queue:
            change = self._queue.popleft()
            if isinstance(change, ProtocolError):
                raise change
            if change.version <= self.last_version:
                continue
            if change.previous_version == self.last_version:
                self.last_version = change.version
                return change
            previous = self.last_version
            self._queue.clear()  # the snapshot covers them; later ones are checked against its version
            try:
                snapshot = self.window.state()
            except NavSessionError:
                if self.window.closed:
                    return None
                raise
            self.last_version = max(int(snapshot.get("version", change.version)), change.version)
            return Resync(self.window.path, self.last_version, previous, snapshot)
        return None

    # sync iteration

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        while True:
            event = self._take()
            if event is not None:
                if isinstance(event, Resync) and not self._caught_up(event.version):
                    # GetState's reply came after the PropertiesChanged up to the snapshot: they are queued.
                    _drain(self.window.session.context)
                return event
            if self.window.closed:
                self.close()
                raise StopIteration
            _iterate_until(self.window.session.context, lambda: bool(self._queue) or self.window.closed,
                           self.timeout, f"a change of {self.window.path}")

    # async iteration

    def __aiter__(self) -> "ChangeStream":
        return self

    async def __anext__(self) -> Event:
        from . import aio
        while True:
            event = self._take()
            if event is not None:
                if isinstance(event, Resync) and not self._caught_up(event.version):
                    try:  # the pump dispatches the PropertiesChanged that came before GetState's reply
                        await aio.pump(self.window.session.context).until(
                            lambda: self._caught_up(event.version), PROPERTIES_WAIT, "the resync's properties")
                    except Timeout:
                        pass
                return event
            if self.window.closed:
                self.close()
                raise StopAsyncIteration
            await aio.pump(self.window.session.context).until(
                lambda: bool(self._queue) or self.window.closed, self.timeout, f"a change of {self.window.path}")


# -- guard providers -------------------------------------------------------------------------------

_log = logging.getLogger("navsession")

#: The shape of ``Decide``'s ``entered_json``/``left_json`` items, checked when no schema validator checked it.
_COVERED_MODELS = [{"model": int, "screen": str}]


@dataclass(frozen=True)
class GuardQuestion:
    """One ``GuardProvider1.Decide`` call: may the change ``cause`` to ``window`` (at ``version``, the version
    before the change) happen? ``entered``/``left``: the models of the screens the guard covers that the change
    starts, and finishes or suspends (``[{"model": 12, "screen": "profile"}]``). A question may be about a change
    that is only checked (``Check``, ``BeginBack``, the ``Can*`` properties): answer it as for the change, without
    side effects."""

    guard: str
    window: str
    version: int
    cause: ChangeCause
    entered: List[Dict[str, Any]]
    left: List[Dict[str, Any]]
    cause_json: str = field(repr=False, default="")
    entered_json: str = field(repr=False, default="")
    left_json: str = field(repr=False, default="")

    @property
    def window_number(self) -> int:
        """The window's number (the last element of its path)."""
        return _window_number(self.window)

    def enters(self, screen: str) -> bool:
        """The change starts a model of ``screen`` (one the guard covers)."""
        return any(model.get("screen") == screen for model in self.entered)

    def leaves(self, screen: str) -> bool:
        """The change finishes or suspends a model of ``screen`` (one the guard covers)."""
        return any(model.get("screen") == screen for model in self.left)

    @classmethod
    def from_call(cls, params: GLib.Variant) -> "GuardQuestion":
        """The question ``Decide``'s arguments ``(sotsss)`` ask; :class:`navsession.errors.ProtocolError` when
        they are of another type or their JSON does not parse or validate."""
        where = protocol.detail("Decide", GUARD_PROVIDER_PATH, GUARD_PROVIDER_IFACE)
        if params is None or params.get_type_string() != "(sotsss)":
            got = params.get_type_string() if params is not None else "()"
            raise protocol.fail(where, f"Decide's arguments are {got}, expected (sotsss)")
        guard, window, version, cause_json, entered_json, left_json = params.unpack()
        cause = protocol.decode("Decide.cause_json", cause_json, where, "cause_json") if cause_json else {}
        covered = []
        for argument, text in (("entered_json", entered_json), ("left_json", left_json)):
            models = protocol.decode(f"Decide.{argument}", text, where, argument) if text else []
            problem = protocol.shape_problem(models, _COVERED_MODELS)
            if problem is not None:
                raise protocol.fail(where, f"{argument} is not the expected shape: {problem}")
            covered.append(models)
        if not isinstance(cause, dict):
            raise protocol.fail(where, "cause_json is not a JSON object")
        return cls(guard, window, int(version), cause, covered[0], covered[1], cause_json, entered_json, left_json)


class Verdict:
    """A guard provider's answer: :class:`Allow`, :class:`Deny` or :class:`Redirect`."""

    def reply(self) -> Tuple[str, str, str]:
        """``Decide``'s reply ``(verdict, reason, redirect_json)``."""
        raise NotImplementedError


@dataclass(frozen=True)
class Allow(Verdict):
    """The change may happen (``("allow", "", "")``)."""

    def reply(self) -> Tuple[str, str, str]:
        return ("allow", "", "")


@dataclass(frozen=True)
class Deny(Verdict):
    """The change is refused: its caller gets ``org.navsession.Error.Denied`` naming the guard and ``reason``
    (the daemon keeps 512 characters of it; ``""`` reads "denied")."""

    reason: str = ""

    def reply(self) -> Tuple[str, str, str]:
        return ("deny", self.reason, "")


@dataclass(frozen=True)
class Redirect(Verdict):
    """This batch is applied to the window instead of the change, as one change (the caller's reply is its).
    ``batch``: a command, a list of them (:mod:`navsession.commands` or JSON objects), or the batch's JSON text.
    A dry run (``Check``, ``BeginBack``) answers ``Denied`` for it."""

    batch: Any
    batch_json: str = field(init=False, repr=False, compare=True)

    def __post_init__(self) -> None:
        text = self.batch if isinstance(self.batch, str) else batch_json(self.batch)
        object.__setattr__(self, "batch_json", text)

    def reply(self) -> Tuple[str, str, str]:
        return ("redirect", "", self.batch_json)


_guard_provider_info: Optional[Gio.DBusInterfaceInfo] = None


def guard_provider_interface() -> Gio.DBusInterfaceInfo:
    """``org.navsession.GuardProvider1``'s introspection data, from the package's contract (the interface XML)."""
    global _guard_provider_info
    if _guard_provider_info is None:
        members = INTERFACES[GUARD_PROVIDER_IFACE]
        parts = [f'<node><interface name="{GUARD_PROVIDER_IFACE}">']
        for method, spec in members["methods"].items():
            args = [f'<arg name="{n}" type="{t}" direction="in"/>' for n, t in spec["in"]]
            args += [f'<arg name="{n}" type="{t}" direction="out"/>' for n, t in spec["out"]]
            parts.append(f'<method name="{method}">{"".join(args)}</method>')
        parts.append("</interface></node>")
        _guard_provider_info = Gio.DBusNodeInfo.new_for_xml("".join(parts)).interfaces[0]
    return _guard_provider_info


#: Errors of ``UnregisterGuard`` that mean the registration is over already (``close`` ignores them).
_ENDED = frozenset({"org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.ServiceUnknown",
                    "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.Disconnected",
                    "org.freedesktop.DBus.Error.NoReply", "g-io-error-quark.closed"})


class GuardProvider:
    """The guards a :class:`Session` provides (:meth:`Session.provide_guards` makes it). ``close()`` — or the
    end of its ``with`` block, or the session's ``close()`` — unregisters them and unexports the object;
    ``refresh()`` tells the daemon the answers may have changed."""

    def __init__(self, session: Session, names: Sequence[str], decide: Callable[[GuardQuestion], Verdict],
                 on_error: Optional[Callable[[GuardQuestion, Exception], None]] = None) -> None:
        if not names:
            raise ValueError("provide_guards needs at least one guard name")
        self.session = session
        self.names: Tuple[str, ...] = tuple(names)
        self.decide = decide
        self.on_error = on_error
        self.closed = False
        self._registered: List[str] = []
        self._object_id = self._export()
        session._guard_providers.append(self)
        try:
            for name in self.names:
                session.register_guard(name)
                self._registered.append(name)
        except BaseException:
            self.close(quiet=True)
            raise

    def __repr__(self) -> str:
        return f"<navsession.GuardProvider {', '.join(self.names)}{' closed' if self.closed else ''}>"

    def __enter__(self) -> "GuardProvider":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def refresh(self, names: Optional[Sequence[str]] = None) -> None:
        """``RefreshGuard`` for each of ``names`` (default: all of this provider's): the answers may have changed
        without the window changing (the form became dirty, or was saved), so the daemon drops the verdicts it
        kept and asks again for ``CanGoBack`` & co. (``PropertiesChanged`` when they change)."""
        if self.closed:
            raise NavSessionError("navsession.Closed", "the guard provider is closed", {"method": "RefreshGuard"})
        for name in (self.names if names is None else names):
            self.session.refresh_guard(name)

    def close(self, *, quiet: bool = False) -> None:
        """Unregisters the guards (``UnregisterGuard``) and unexports the object. A registration that ended
        already (the daemon left, another process took the guard, the connection closed) is not an error;
        another failure is raised once everything is undone (``quiet``: never)."""
        if self.closed:
            return
        self.closed = True
        failure: Optional[NavSessionError] = None
        connection = self.session.connection
        for name in reversed(self._registered):
            if connection.is_closed():
                break
            try:
                self.session.unregister_guard(name)
            except NavSessionError as error:
                if error.name not in _ENDED and failure is None:
                    failure = error
        self._registered.clear()
        if self._object_id:
            connection.unregister_object(self._object_id)
            self._object_id = 0
        if self in self.session._guard_providers:
            self.session._guard_providers.remove(self)
        if failure is not None and not quiet:
            raise failure

    # -- internals

    def _export(self) -> int:
        """Registers the object with the session's context (GDBus dispatches a registered object's calls to the
        thread-default context of the registering thread)."""
        connection, context = self.session.connection, self.session.context
        own = context == GLib.MainContext.ref_thread_default()
        try:
            if own:
                return connection.register_object(GUARD_PROVIDER_PATH, guard_provider_interface(), self._on_call,
                                                  None, None)
            if not context.acquire():
                raise NavSessionError("navsession.ContextBusy",
                                      "provide_guards: another thread is iterating the session's main context",
                                      {"method": "provide_guards"})
            context.push_thread_default()
            try:
                return connection.register_object(GUARD_PROVIDER_PATH, guard_provider_interface(), self._on_call,
                                                  None, None)
            finally:
                context.pop_thread_default()
                context.release()
        except GLib.Error as error:
            raise from_glib_error(error, "provide_guards", GUARD_PROVIDER_PATH, GUARD_PROVIDER_IFACE) from None

    def _from_daemon(self, sender: Optional[str]) -> bool:
        if not sender:
            return True  # a peer-to-peer connection: only the daemon is there
        if sender == self.session.name_owner:
            return True
        try:  # the cached owner may lag behind (a restarted daemon): ask the bus
            reply = self.session.connection.call_sync(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                GLib.Variant("(s)", (self.session.name,)), GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE,
                CALL_TIMEOUT_MS, None)
        except GLib.Error:
            return False
        return bool(sender == reply.unpack()[0])

    def _on_call(self, _connection: Gio.DBusConnection, sender: Optional[str], _path: str, _interface: str,
                 method: str, params: GLib.Variant, invocation: Gio.DBusMethodInvocation) -> None:
        if method != "Decide":  # GDBus checks the member and its signature against the interface first
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", f"no method {method}")
            return
        if self.closed:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownObject", "the guard provider is closed")
            return
        if not self._from_daemon(sender):
            invocation.return_dbus_error("org.freedesktop.DBus.Error.AccessDenied",
                                         f"only {self.session.name} asks this provider")
            return
        try:
            question = GuardQuestion.from_call(params)
        except ProtocolError as error:
            _log.warning("guard provider: %s", error.message)
            invocation.return_dbus_error("org.freedesktop.DBus.Error.InvalidArgs", error.message)
            return
        try:
            verdict = self.decide(question)
            if not isinstance(verdict, Verdict):
                raise TypeError(f"decide returned {verdict!r}, not navsession.Allow(), Deny(reason) or "
                                "Redirect(batch)")
            reply = verdict.reply()
        except Exception as error:  # noqa: BLE001 - answered as an error, reported below
            invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", f"{type(error).__name__}: {error}")
            if self.on_error is not None:
                self.on_error(question, error)
            else:
                _log.error("guard provider: deciding %s raised", question, exc_info=error)
            return
        invocation.return_value(GLib.Variant("(sss)", reply))
