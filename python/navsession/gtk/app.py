"""The GTK application: one NavWindowView per navigation window, kept in step with the daemon.

ObjectManager → windows open and close; Changed → steps (how) + GetState (what); Steps → the same change's steps
planned for this renderer's capabilities (it registers on each window, Window1 RegisterRenderer); Announcement → focus
and the window's status for assistive technologies, once the version is shown (announcer.py); VisibleModels → panes
side by side; user → reports, and the window's width class (ReportWidthClass). The D-Bus side is the navsession
package: Session.follow_windows, Window.connect_changed, Window.connect_properties, Window.connect_steps,
Window.connect_announcement and Window.call_async, all on the application's main loop — nothing here blocks on the
daemon.

:class:`NavigationApp` is the ``Gtk.Application`` an application runs (or subclasses: the reference renderer adds
its test hook so): it follows every window of one daemon, shows each with the pages its factories make
(pages.py), and reports what the user does. It never changes what is shown before the daemon says so: a report
(ReportPopped, ReportTabSelected…) or a two-phase back (BeginBack, CommitBack) goes out, and the daemon's
``Changed`` brings the new state; a rejected report resynchronises the window from ``GetState``.

**Roles** (Docs/renderers.md). On each window it registers as a renderer (``RegisterRenderer``): ``role="primary"``
(the default: the window's own front-end, whose reports change the window) with what it can animate
(:data:`CAPABILITIES`), or ``role="mirror"`` (a second screen: it shows the window and never changes it — no report,
no back, no command, no renderer state, no width class; the controls that would report are insensitive and the
pages take no input). A primary the daemon refuses (another client's primary is registered, or the window's policy)
follows that window as a mirror — and takes the primary's role once the other primary left. Each registration gets
the ``Steps`` signal, the change's steps planned for its capabilities, which the renderer animates in place of
``Changed``'s (those stay the fallback: a change too large to plan, or one whose ``Steps`` did not come).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
from typing import Any, Callable, Mapping, Sequence

from gi.repository import Gio, GLib, Gtk

import navsession
from navsession import NavSessionError
from navsession import commands as c
from navsession.commands import CommandLike

from .animator import STEP_MS
from .pages import BUILTIN_PAGES, Page, PageContext, PageFactory, Placeholder, make_page
from .probe import REPORT_ENV, TestProbe
from .renderer_state import only_renderer_state
from .steps import Plan, parse_steps
from .window_view import NavWindowView, width_class  # noqa: F401 (re-exported)

#: What the binding can animate in one update (Window1 RegisterRenderer's capabilities): several presentations
#: closed at once (each modal window closes on its own) and several screens pushed at once (a stack shows its new top,
#: the pages under it added with it). Its ``Steps`` are planned for them: a jump home over three sheets is one step.
CAPABILITIES: dict[str, bool] = {"multiDismiss": True, "pushesInOne": True}

#: The renderer roles an application can take (Window1 RegisterRenderer; ``assistive`` is for voice front-ends).
ROLES = ("primary", "mirror")

# A rendered version is reported settled (Window1.ReportSettled) once its animation has run:
# each later step starts STEP_MS after the one before, and a Gtk.Stack transition or a modal's fade lasts 200 ms.
SETTLE_MS = 250

log = logging.getLogger("navsession.gtk")


def _lists_primary(renderers: Any) -> bool:
    """Whether a ``Renderers`` value (its JSON text, or the GLib.Variant of the cache) lists a primary."""
    if renderers is not None and hasattr(renderers, "unpack"):
        renderers = renderers.unpack()
    try:
        entries = json.loads(str(renderers)) if renderers else []
    except ValueError:
        return False
    return isinstance(entries, list) and any(isinstance(e, dict) and e.get("role") == "primary" for e in entries)


class WindowReporter:
    """Sends one window's renderer reports; a rejected report resynchronises the window. For a mirror (the
    application's role on this window, :meth:`NavigationApp.role_of`) it sends nothing at all — no report, no back,
    no command, no mark, no renderer state: what the user does on a second screen changes nothing."""

    def __init__(self, app: "NavigationApp", path: str) -> None:
        self.app = app
        self.path = path

    @property
    def reporting(self) -> bool:
        """Whether this window's renderer changes the window (its primary, or not registered): a mirror does not."""
        return self.app.role_of(self.path) != "mirror"

    def _mirrored(self, what: str) -> bool:
        """True (and logged) when this renderer is the window's mirror: ``what`` is not sent."""
        if self.reporting:
            return False
        log.info("mirror of %s: not sending %s", self.path, what)
        return True

    def _failed(self, method: str) -> Callable[[NavSessionError], None]:
        def failed(error: NavSessionError) -> None:
            log.warning("%s on %s rejected (%s: %s); resynchronising from GetState",
                        method, self.path, error.name, error.message)
            self.app.resyncs["rejectedReport"] += 1
            self.app.resync(self.path)

        return failed

    def _call(self, method: str, signature: str | None = None, args: tuple = (),
              on_error: Callable[[NavSessionError], None] | None = None) -> None:
        if self._mirrored(method):
            return
        window = self.app.windows.get(self.path)
        if window is not None:
            window.call_async(method, signature, args, None, on_error or self._failed(method))

    def _send(self, method: str, signature: str | None = None, args: tuple = ()) -> None:
        """A renderer report (ReportPopped, ReportDismissed, …); its effect arrives as Changed."""
        log.info("report %s%s on %s", method, args, self.path)
        self._call(method, signature, args)

    def _apply_at(self, command: c.Command, version: int) -> None:
        """Window1.Apply of ``command`` only if the window is still at ``version`` (the state the user saw);
        otherwise org.navsession.Error.VersionMismatch and nothing changes. Its effect arrives as Changed."""
        log.info("apply %s at version %d on %s", command.to_json(), version, self.path)
        self._call("Apply", "(sa{ss})", (c.batch_json([command]), {"expected_version": str(version)}),
                   self._failed(command.name))

    def went_back(self, version: int) -> None:
        """The daemon's goBack (pop, dismiss, or the tabs' back behaviour) in one step, only while the window is at
        the version the user saw (else VersionMismatch: resynchronise). Back itself goes through begin_back and
        commit_back; this is for a back a mark refuses, so that the daemon presents the mark's dialog."""
        self._apply_at(c.go_back(), version)

    def begin_back(self, on_allowed: Callable[[int, list[int]], None],
                   on_refused: Callable[[NavSessionError], None]) -> None:
        """A back gesture begins (Window1.BeginBack, Docs/guards.md "Back gestures"): the dry run of GoBack with
        every rule it meets — marks, entry conditions, guard providers (the reply may wait for a provider).
        ``on_allowed(version, finished)``: the version to commit at and the models the back would finish;
        ``on_refused(error)``: Denied, Prevented, NothingToGoBack, EntryRefused… — the user's answer, not a state
        the application got wrong, so no resynchronisation: logged and counted (Describe's ``backRefused``)."""
        window = self.app.windows.get(self.path)
        if window is None or self._mirrored("BeginBack"):
            return
        log.info("BeginBack on %s", self.path)

        def allowed(reply: tuple) -> None:
            version, finished = reply
            log.info("BeginBack on %s allowed at version %d (finishes %s)", self.path, version, list(finished))
            on_allowed(int(version), [int(m) for m in finished])

        def refused(error: NavSessionError) -> None:
            log.info("BeginBack on %s refused (%s: %s)", self.path, error.name, error.message)
            self.app.back_refused += 1
            on_refused(error)
            self.app.screen_changed()

        window.call_async("BeginBack", None, (), allowed, refused)

    def commit_back(self, version: int) -> None:
        """The back gesture completes (Window1.CommitBack): GoBack only if the window is still at ``version``
        (BeginBack's); VersionMismatch (another client changed the window meanwhile) or any other error
        resynchronises, like a rejected report. Its effect arrives as Changed."""
        log.info("CommitBack at version %d on %s", version, self.path)
        self._call("CommitBack", "(t)", (version,))

    def went_forward(self, version: int) -> None:
        """Forward (button, Alt+Right, mouse button 9): the daemon's goForward at the version the user saw."""
        self._apply_at(c.go_forward(), version)

    def undo(self) -> None:
        """Ctrl+Z (Window1.Undo); a refusal is logged, nothing moves (no resync: nothing was shown ahead)."""
        self._call("Undo", None, (), lambda error: log.info("Undo on %s refused: %s", self.path, error.message))

    def redo(self) -> None:
        """Ctrl+Shift+Z (Window1.Redo)."""
        self._call("Redo", None, (), lambda error: log.info("Redo on %s refused: %s", self.path, error.message))

    def popped(self, stack: int, index: int) -> None:
        self._send("ReportPopped", "(tu)", (stack, index))

    def dismissed(self, model: int) -> None:
        self._send("ReportDismissed", "(t)", (model,))

    def tab_selected(self, tabs: int, tab: str) -> None:
        self._send("ReportTabSelected", "(ts)", (tabs, tab))

    def child_selected(self, container: int, child: int) -> None:
        self._send("ReportChildSelected", "(tt)", (container, child))

    def collapsed(self, split: int, collapsed: bool) -> None:
        self._send("ReportCollapsed", "(tb)", (split, collapsed))

    def protect(self, model: int, reason: str, dialog: str) -> None:
        """A page protects its model (Window1.Protect, the member ``navsession.Window.protect`` calls for a model
        id; here without blocking). The mark is this application's connection's: it goes when the application
        exits (Docs/guards.md). A dialog the manifest does not declare (UnknownDialog) is logged and the mark made
        without one; any other refusal resynchronises, like a rejected report."""
        log.info("Protect model %d (%r, dialog %r) on %s", model, reason, dialog, self.path)

        def failed(error: NavSessionError) -> None:
            if dialog and error.name == "org.navsession.Error.UnknownDialog":
                log.warning("Protect on %s: the manifest declares no dialog %r (%s); protecting without a dialog",
                            self.path, dialog, error.message)
                self._call("Protect", "(tss)", (model, reason, ""))
            else:
                self._failed("Protect")(error)

        self._call("Protect", "(tss)", (model, reason, dialog), failed)

    def unprotect(self, model: int) -> None:
        """A page removes its mark (Window1.Unprotect)."""
        log.info("Unprotect model %d on %s", model, self.path)
        self._call("Unprotect", "(t)", (model,))

    def navigate(self, batch: Sequence[CommandLike], expected_version: int | None,
                 on_done: Callable[[int], None] | None, on_error: Callable[[NavSessionError], None] | None) -> None:
        """A page's commands (Window1.Apply); a refusal is the page's to handle (logged without ``on_error``), not a
        reason to resynchronise: the screen shows the daemon's state either way."""
        window = self.app.windows.get(self.path)
        if window is None or self._mirrored("Apply"):
            return
        options = {"expected_version": str(expected_version)} if expected_version is not None else {}

        def failed(error: NavSessionError) -> None:
            if on_error is not None:
                on_error(error)
            else:
                log.warning("Apply %s on %s refused (%s: %s)", c.batch_json(list(batch)), self.path, error.name,
                            error.message)

        log.info("apply %s on %s", c.batch_json(list(batch)), self.path)
        window.call_async("Apply", "(sa{ss})", (c.batch_json(list(batch)), options),
                          (lambda reply: on_done(int(reply[0]))) if on_done is not None else None, failed)

    def renderer_state(self, model: int, state_json: str) -> None:
        """The window's (model 0) or a screen's renderer state. A model that went meanwhile is
        no reason to resynchronise: its state went with it."""
        self._call("SetRendererState", "(ts)", (model, state_json),
                   lambda error: log.info("SetRendererState %d on %s: %s", model, self.path, error.message))

    def action_chosen(self, model: int, action: str) -> None:
        self._send("ReportActionChosen", "(ts)", (model, action))

    def move_model(self, model: int, to_window: int, placement_json: str) -> None:
        """The user moves ``model`` (a tab) into window ``to_window``, or into a new window for 0 (Session1
        MoveModel, without blocking). Both windows' ``Changed`` bring the result; a new window comes like any
        window that opens. A refusal (the last tab, a mark, a guard…) is logged: nothing was shown ahead, so
        nothing to resynchronise."""
        session = self.app.session
        number = int(self.path.rsplit("/", 1)[-1])
        if session is None or self._mirrored("MoveModel"):
            return
        log.info("MoveModel model %d of %s to window %d (placement %r)", model, self.path, to_window, placement_json)
        session.call_async(
            "MoveModel", "(ttts)", (number, model, to_window, placement_json),
            lambda reply: log.info("MoveModel: model %d is in window %d at version %d", model, reply[0], reply[1]),
            lambda error: log.warning("MoveModel of model %d of %s refused (%s: %s)", model, self.path, error.name,
                                      error.message))

    def width_class(self, name: str) -> None:
        """The width the window has now, as a window size class (Window1 ReportWidthClass): with the scene's panes
        the daemon decides how many of the pane stack's pages are shown side by side (VisibleModels). Not sent by a
        mirror (the primary's window decides); a refusal (an older daemon, the window's policy) is logged."""
        self._call("ReportWidthClass", "(s)", (name,),
                   lambda error: log.info("ReportWidthClass %s on %s: %s", name, self.path, error.message))

    def closed(self) -> None:
        """The user closed the window (its close button): the daemon dismisses it (ReportClosed). A mirror's window
        closes here only: the window stays open in the daemon (and on the primary's screen)."""
        if not self.reporting:
            log.info("mirror of %s: its window closed here only", self.path)
            self.app.close_locally(self.path)
            return
        self.app.closed_by_user.add(self.path)
        self._send("ReportClosed")


class NavigationApp(Gtk.Application):
    """A GTK application whose windows follow navsessiond: one top-level window per navigation window of the
    daemon owning ``bus_name``, each screen drawn by the page factory registered for it.

    ``pages`` maps screen names to factories (:data:`~navsession.gtk.PageFactory`): a :class:`Page` subclass, or
    any callable taking a :class:`PageContext` and returning a ``Gtk.Widget``. A screen without one shows
    ``fallback`` (default: :class:`Placeholder`; the built-in ``browser`` screen has a page of its own).

    - ``application_id``: the ``Gtk.Application`` id — not the daemon's name (``bus_name``, the manifest's
      ``id``): a unique application owns its id on the bus.
    - ``discard_dialog``: the manifest dialog a page's :meth:`Page.protect` names by default (``None``: none);
      the daemon presents it in place of a change the mark refuses.
    - ``open_window``: when activated with no navigation window open, open one of ``scene`` (default: the
      manifest's first scene); ``False`` only follows (the reference renderer).
    - ``quit_when_closed``: quit once the user closed the last window (default: as ``open_window``; a window the
      daemon closes, or a daemon restart, never quits the application).
    - ``start_daemon``: let the bus activate the daemon when nothing owns ``bus_name``.
    - ``flags``: the ``Gio.ApplicationFlags`` (default: a unique application; a mirror run beside the primary on
      one machine needs another ``application_id`` or ``Gio.ApplicationFlags.NON_UNIQUE``).
    - ``role``: ``"primary"`` (the window's front-end) or ``"mirror"`` (a second screen that shows the windows and
      never changes them; it opens no window either) — registered on each window (Window1 RegisterRenderer).
    - ``capabilities``: what it tells the daemon it can animate (default :data:`CAPABILITIES`; ``None`` in the
      mapping's place: the window's, as the manifest says), which its ``Steps`` are planned for.

    Everything runs on the GTK main loop; :meth:`run` also quits cleanly on SIGINT and SIGTERM (the bus name and
    the windows are released, the page's marks go). :meth:`screen_changed` is called whenever something shown may
    have changed — override it to observe the screen (the reference renderer's test hook does)."""

    def __init__(self, application_id: str, bus_name: str = navsession.DEMO_NAME,
                 pages: Mapping[str, PageFactory] | None = None, *, fallback: PageFactory = Placeholder,
                 discard_dialog: str | None = "discardChanges", open_window: bool = True, scene: str | None = None,
                 quit_when_closed: bool | None = None, start_daemon: bool = True,
                 flags: Gio.ApplicationFlags = Gio.ApplicationFlags.FLAGS_NONE, role: str = "primary",
                 capabilities: Mapping[str, bool] | None = CAPABILITIES) -> None:
        super().__init__(application_id=application_id, flags=flags)
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        self.role = role
        self.capabilities = dict(capabilities) if capabilities is not None else None
        #: Per window, the renderer id the daemon gave this application (RegisterRenderer) and the role it has there
        #: (a refused primary falls back to a mirror).
        self.renderer_ids: dict[str, str] = {}
        self.roles: dict[str, str] = {}
        self.registering: set[str] = set()  # windows whose RegisterRenderer is on its way
        self.primary_seen: dict[str, bool] = {}  # whether Renderers listed a primary (another client's) last
        #: Per window, the newest change's version and ``animated`` flag (Changed), and the plan its ``Steps`` gave
        #: (version, plan): a render of that version animates those steps.
        self.changed_animated: dict[str, tuple[int, bool]] = {}
        self.renderer_plans: dict[str, tuple[int, Plan]] = {}
        self.daemon_name = bus_name
        self.pages: dict[str, PageFactory] = dict(pages or {})
        self.fallback = fallback
        self.discard_dialog = discard_dialog
        self.open_window = open_window
        self.scene = scene
        self.quit_when_closed = open_window if quit_when_closed is None else quit_when_closed
        # The windows the user closed (ReportClosed sent): their removal may end the application.
        self.closed_by_user: set[str] = set()
        self.start_daemon = start_daemon
        self.views: dict[str, NavWindowView] = {}
        self.last_version: dict[str, int] = {}
        # For tests (a test hook's DropChanges): ignore Changed as if lost; and how often we resynchronised.
        self.drop_changes = False
        self.resyncs = {"missedChange": 0, "rejectedReport": 0}
        # How often BeginBack refused a back (button, Escape, swipe): nothing moved (Describe's backRefused).
        self.back_refused = 0
        # Per window, the timer that reports the version rendered last as settled (ReportSettled).
        self.settle_timers: dict[str, int] = {}
        # Per window, the GetState calls on their way (a renderer-state-only change is skipped only without one).
        self.fetching: dict[str, int] = {}
        self.session: navsession.Session | None = None  # set in do_startup
        #: The manifest's screen titles (Session1 ``ScreenTitles``), read once the daemon serves.
        self.screen_titles: dict[str, str] = {}
        # The daemon's windows (navsession.Window proxies) and, per window, what disconnects its signals.
        self.windows: dict[str, navsession.Window] = {}
        self.window_signals: dict[str, list[Callable[[], None]]] = {}
        self.stop_following: Callable[[], None] | None = None
        # NAVSESSION_GTK_TEST_REPORT: what each settled version shows, for tests (probe.py).
        self.probe: TestProbe | None = None

    # -- roles (Window1 RegisterRenderer) ---------------------------------------------------------

    def role_of(self, path: str) -> str:
        """This application's role on window ``path``: the one it registered (a refused primary is a mirror), else
        the one it was made with."""
        return self.roles.get(path, self.role)

    def _register(self, path: str, role: str) -> None:
        """Registers as a renderer of the window in ``role`` (without blocking). A primary refused with AccessDenied
        (another client's primary, the window's policy) registers as a mirror instead, and tries again as the primary
        once the window's ``Renderers`` lists none (:meth:`window_properties`); any other failure (an older daemon
        without roles) is logged and the window is rendered as before roles existed."""
        window = self.windows.get(path)
        if window is None or path in self.registering:
            return
        self.registering.add(path)
        capabilities = json.dumps(self.capabilities, separators=(",", ":")) if self.capabilities is not None else ""

        def registered(reply: tuple) -> None:
            self.registering.discard(path)
            if self.windows.get(path) is not window:
                return
            previous, self.renderer_ids[path] = self.renderer_ids.get(path), str(reply[0])
            log.info("registered as the %s renderer %s of %s", role, reply[0], path)
            if previous is not None and previous != reply[0] and self.roles.get(path) != role:
                # A mirror that became the primary: one registration per window is enough.
                window.call_async("UnregisterRenderer", "(s)", (previous,), None,
                                  lambda error: log.info("UnregisterRenderer %s on %s: %s", previous, path,
                                                         error.message))
            self._set_role(path, role)

        def refused(error: NavSessionError) -> None:
            self.registering.discard(path)
            if self.windows.get(path) is not window:
                return
            if role == "primary" and error.name == "org.freedesktop.DBus.Error.AccessDenied":
                self.primary_seen[path] = _lists_primary(window.proxy.get_cached_property("Renderers"))
                if self.roles.get(path) == "mirror" and path in self.renderer_ids:
                    return  # following as a mirror already; another try when the primary leaves
                log.warning("%s: the daemon refused a primary renderer (%s); following it as a mirror", path,
                            error.message)
                self._set_role(path, "mirror")
                self._register(path, "mirror")
            else:
                log.warning("%s: RegisterRenderer(%s) failed (%s: %s); rendering without a role", path, role,
                            error.name, error.message)

        window.call_async("RegisterRenderer", "(ss)", (role, capabilities), registered, refused)

    def _set_role(self, path: str, role: str) -> None:
        changed = self.role_of(path) != role
        self.roles[path] = role
        view = self.views.get(path)
        if view is not None and changed:
            view.set_interactive(role != "mirror")
            self.screen_changed()

    def close_locally(self, path: str) -> None:
        """A mirror's window closed by its user: this application stops showing it (and unregisters from it); the
        window stays open in the daemon."""
        window = self.windows.get(path)
        renderer = self.renderer_ids.pop(path, None)
        if window is not None and renderer is not None:
            window.call_async("UnregisterRenderer", "(s)", (renderer,), None,
                              lambda error: log.info("UnregisterRenderer on %s: %s", path, error.message))
        self.window_removed(path)

    # -- pages ----------------------------------------------------------------------------------

    def factory_for(self, screen: str) -> PageFactory:
        """The factory of ``screen``: the application's, else a built-in page's, else ``fallback``."""
        return self.pages.get(screen) or BUILTIN_PAGES.get(screen) or self.fallback

    def make_page(self, context: PageContext) -> Page:
        """Makes and starts the page of a screen model that appears (a failing factory shows a
        :class:`~navsession.gtk.pages.FailedPage`, logged)."""
        return make_page(self.factory_for(context.screen), context)

    def window_proxy(self, path: str) -> navsession.Window:
        """The :class:`navsession.Window` of a window path."""
        window = self.windows.get(path)
        if window is None:
            if self.session is None:
                raise RuntimeError("the application has not started")
            window = self.session.window(path)
        return window

    # -- Gtk.Application ------------------------------------------------------------------------

    def run(self, argv: Sequence[str] | None = None) -> int:  # type: ignore[override]
        """Runs the application (``argv`` default: the program's name only, so GTK parses no options); SIGINT and
        SIGTERM quit it cleanly."""
        if argv is None:
            argv = [sys.argv[0] if sys.argv and sys.argv[0] else "navsession-app"]
        sources = [GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, self._quit_on_signal)
                   for number in (signal.SIGINT, signal.SIGTERM)]
        try:
            return int(Gtk.Application.run(self, list(argv)))
        finally:
            for source in sources:
                GLib.source_remove(source)

    def _quit_on_signal(self, *_: object) -> bool:
        self.quit()
        return GLib.SOURCE_CONTINUE

    def do_startup(self) -> None:
        Gtk.Application.do_startup(self)
        self.hold()  # keep running with no navigation window open
        connection = self.get_dbus_connection()
        if connection is None:
            raise SystemExit(f"{self.get_application_id()}: no session bus (DBUS_SESSION_BUS_ADDRESS)")
        report = os.environ.get(REPORT_ENV)
        if report:
            self.probe = TestProbe(self, connection, report)
        # start_daemon=False: only follow the daemon, never activate it (the reference renderer).
        self.session = navsession.Session(connection, self.daemon_name, start=self.start_daemon)
        self.stop_following = self.session.follow_windows(self._window_opened, self.window_removed, self.daemon_gone)
        self._read_screen_titles()
        # Ctrl+Shift+N / Ctrl+Shift+T reopen the most recently closed window (Session1.ReopenWindow);
        # it comes back through InterfacesAdded like any window.
        reopen = Gio.SimpleAction.new("reopen-window", None)
        reopen.connect("activate", lambda *_: self.reopen_window())
        self.add_action(reopen)
        self.set_accels_for_action("app.reopen-window", ["<Control><Shift>n", "<Control><Shift>t"])

    def reopen_window(self) -> None:
        """Reopens the most recently closed window with its navigation (a new window number)."""
        if self.session is not None:
            self.session.call_async("ReopenWindow", "(s)", ("",), None,
                                    lambda error: log.info("ReopenWindow: %s: %s", error.name, error.message))

    def do_activate(self) -> None:
        """Launched (again): with ``open_window``, opens a window of ``scene`` when the daemon has none, else
        brings the application's windows to the front (without ``open_window`` it does nothing: the windows
        come and go with the daemon's)."""
        if not self.open_window or self.session is None or self.role == "mirror":
            return
        if self.windows:
            for view in self.views.values():
                view.topmost().present()
            return
        try:
            scene = self.scene or self.session.scenes[0]
        except (NavSessionError, IndexError) as error:
            log.warning("no scene to open a window of: %s", error)
            return
        log.info("opening a window of %s", scene)
        self.session.call_async("OpenWindow", "(sa{ss})", (scene, {}), None,
                                lambda error: log.warning("OpenWindow(%s): %s: %s", scene, error.name, error.message))

    def do_shutdown(self) -> None:
        if self.stop_following is not None:
            self.stop_following()
            self.stop_following = None
        for path in list(self.window_signals):
            self._disconnect(path)
        for view in list(self.views.values()):
            view.destroy()
        self.views.clear()
        if self.probe is not None:
            self.probe.stop()
        Gtk.Application.do_shutdown(self)

    # -- the session's windows (Session.follow_windows) -----------------------------------------

    def _read_screen_titles(self) -> None:
        """The manifest's screen titles (Session1 ``ScreenTitles``, const): read once the daemon serves."""
        if self.screen_titles or self.session is None:
            return
        try:
            self.screen_titles = self.session.screen_titles
        except (NavSessionError, TypeError, ValueError) as error:  # not serving yet, or an older daemon
            log.info("no screen titles from %s yet: %s", self.daemon_name, error)

    def _window_opened(self, window: navsession.Window) -> None:
        path = window.path
        if path in self.windows:
            return
        self._read_screen_titles()
        self.windows[path] = window
        self.window_signals[path] = [
            window.connect_changed(lambda change: self.window_changed(
                path, change.version, change.previous_version, change.animated, change.steps_json),
                lambda error: self.unreadable_change(path, error)),
            window.connect_properties(lambda changed: self.window_properties(path, changed)),
            window.connect_announcement(lambda announcement: self.window_announced(path, announcement),
                                        lambda error: log.warning("%s: an Announcement could not be read (%s)", path,
                                                                  error.message)),
            window.connect_steps(lambda steps: self.window_steps(path, steps),
                                 lambda error: log.warning("%s: a Steps signal could not be read (%s)", path,
                                                           error.message)),
        ]
        self.window_added(path)
        self._register(path, self.role)

    def _disconnect(self, path: str) -> None:
        for disconnect in self.window_signals.pop(path, []):
            disconnect()
        self.windows.pop(path, None)
        # A registration is the connection's on that window: gone with the window (or the daemon).
        self.renderer_ids.pop(path, None)
        self.roles.pop(path, None)
        self.registering.discard(path)
        self.primary_seen.pop(path, None)
        self.changed_animated.pop(path, None)
        self.renderer_plans.pop(path, None)

    def window_added(self, path: str) -> None:
        number = int(path.rsplit("/", 1)[-1])
        log.info("window %s opened", path)
        self.views[path] = NavWindowView(self, path, number, WindowReporter(self, path))
        self.resync(path)

    def window_removed(self, path: str) -> None:
        self._disconnect(path)
        view = self.views.pop(path, None)
        self.last_version.pop(path, None)
        timer = self.settle_timers.pop(path, None)
        if timer is not None:
            GLib.source_remove(timer)
        if view is not None:
            log.info("window %s closed", path)
            view.destroy()
        self.screen_changed()
        if path in self.closed_by_user:
            self.closed_by_user.discard(path)
            if self.quit_when_closed and not self.views:
                log.info("the last window was closed: quitting")
                self.quit()

    def window_changed(self, path: str, version: int, previous: int, animated: bool, steps_json: str) -> None:
        if self.drop_changes:
            log.info("%s: dropping Changed %d (DropChanges)", path, version)
            return
        last = self.last_version.get(path)
        if last is not None and previous != last:
            log.warning("%s: Changed %d follows %d but the last version seen is %d; resynchronising from GetState",
                        path, version, previous, last)
            self.resyncs["missedChange"] += 1
            self.last_version[path] = version
            self.resync(path)
            return
        self.last_version[path] = version
        self.changed_animated[path] = (version, animated)
        view = self.views.get(path)
        if (view is not None and view.graph is not None and not self.fetching.get(path)
                and only_renderer_state(steps_json)):
            # Renderer state only (ours or another renderer's): nothing to redraw. Only when no
            # GetState is on its way: that answer would then look older than the version shown, and be dropped.
            view.rendered_state_only(version)
            self._settle_later(path, version, Plan(animate=False))
            self.screen_changed()
            return
        self._fetch_and_render(path, parse_steps(steps_json, animated))

    def window_steps(self, path: str, steps: navsession.RendererSteps) -> None:
        """The window's ``Steps`` for this application's registration: the change's steps planned for what it can
        animate (CAPABILITIES). They come right after the change's ``Changed`` and before the GetState it asked for
        answers, so the render of that version animates them instead of ``Changed``'s (with ``Changed``'s
        ``animated``). Another registration's, or one whose ``Changed`` this view did not take, is ignored."""
        mine = self.renderer_ids.get(path)
        if mine is not None and steps.renderer_id != mine:
            return
        version, animated = self.changed_animated.get(path, (0, False))
        if version != steps.version:
            return
        plan = parse_steps(steps.steps_json, animated)
        log.info("%s: Steps of version %d for %s: %d step(s)", path, steps.version, steps.renderer_id, len(plan.steps))
        self.renderer_plans[path] = (steps.version, plan)

    def unreadable_change(self, path: str, error: NavSessionError) -> None:
        """A ``Changed`` the package could not read (a ProtocolError: a cause or steps it does not know): the
        window changed all the same, so it is shown from GetState, as after a missed change."""
        log.warning("%s: a Changed could not be read (%s); resynchronising from GetState", path, error.message)
        self.resyncs["missedChange"] += 1
        self.resync(path)

    def window_properties(self, path: str, changed: dict[str, Any]) -> None:
        view = self.views.get(path)
        if view is not None:
            view.set_properties(changed)
            self.screen_changed()
        if "Renderers" in changed and self.role == "primary" and self.roles.get(path) == "mirror":
            # A primary that follows as a mirror because another client's primary was there takes the role once that
            # one left (not for a refusal by the window's policy: no primary was there to leave).
            primary = _lists_primary(changed["Renderers"])
            if not primary and self.primary_seen.get(path):
                self._register(path, "primary")
            self.primary_seen[path] = primary

    def window_announced(self, path: str, announcement: navsession.Announcement) -> None:
        """The window's ``Announcement`` (Docs/announcements.md): focus moves to the page or dialog of its focus model
        and its text becomes the window's status — at once when the window shows its version with nothing on its way,
        else when that version settles (the announcement comes right after its ``Changed``, before the GetState
        that draws it)."""
        view = self.views.get(path)
        if view is None:
            return
        shown = (view.graph is not None and view.graph.version >= announcement.version
                 and path not in self.settle_timers and not self.fetching.get(path))
        view.announce(announcement, shown)
        self.screen_changed()

    def screen_changed(self) -> None:
        """Something on screen may have changed (a render, a property, an animation step, the end of a
        transition, a restored scroll offset). Does nothing; override it to observe the screen."""

    def daemon_gone(self) -> None:
        self.last_version.clear()

    # -- state ----------------------------------------------------------------------------------

    def resync(self, path: str) -> None:
        self._fetch_and_render(path, Plan(animate=False), resync=True)

    def _fetch_and_render(self, path: str, plan: Plan, resync: bool = False) -> None:
        self.fetching[path] = self.fetching.get(path, 0) + 1

        once = [False]

        def landed() -> None:
            if once[0]:
                return
            once[0] = True
            left = self.fetching.get(path, 1) - 1
            if left > 0:
                self.fetching[path] = left
            else:
                self.fetching.pop(path, None)

        def done(state: dict[str, Any], props: dict[str, Any]) -> None:
            landed()
            view = self.views.get(path)
            if view is None:
                return
            version = int(state.get("version", 0))
            if view.graph is not None and version < view.graph.version:
                return  # an older answer overtaken by a newer render
            if resync:
                self.last_version[path] = max(version, self.last_version.get(path, 0))
            shown_plan = plan
            planned = self.renderer_plans.get(path)
            if planned is not None and planned[0] == version and not resync:
                shown_plan = planned[1]  # this renderer's Steps for the version drawn
            view.render(state, props, shown_plan)
            self.screen_changed()
            self._settle_later(path, version, shown_plan)

        def failed(error: NavSessionError) -> None:
            landed()
            log.info("GetState on %s failed: %s", path, error.message)

        window = self.windows.get(path)
        if window is None:
            landed()
            return
        # GetState then the Window1 properties, asked back to back, so they describe one moment unless another
        # client changes the window in between — its Changed then fetches again.
        results: dict[str, Any] = {}

        def finish(key: str, value: Any) -> None:
            results[key] = value
            if "state" in results and "props" in results:
                done(results["state"], results["props"])

        window.call_async("GetState", None, (), lambda reply: finish("state", json.loads(reply[0])), failed)
        window.call_async("org.freedesktop.DBus.Properties.GetAll", "(s)", (navsession.WINDOW_IFACE,),
                          lambda reply: finish("props", reply[0]), failed)

    def _settle_later(self, path: str, version: int, plan: Plan) -> None:
        """Reports ``version`` settled once its animation is over (at once for a render without animation, so
        the first render of a window tells the daemon a renderer follows it). A newer render replaces the timer:
        its version settles the older ones (the daemon announces each version once, newest only)."""
        timer = self.settle_timers.pop(path, None)
        if timer is not None:
            GLib.source_remove(timer)
        delay = (max(len(plan.steps) - 1, 0) * STEP_MS + SETTLE_MS) if plan.animate else 0

        def settled() -> bool:
            self.settle_timers.pop(path, None)
            window = self.windows.get(path)
            view = self.views.get(path)
            if view is not None:
                view.carry_out_announcement()  # the version is drawn and its transitions are over: focus may move
            if view is not None and self.probe is not None:
                self.probe.settled(view, version)  # written before ReportSettled goes: a test seeing it finds it
            if view is not None and window is not None:
                window.call_async("ReportSettled", "(t)", (version,), None,
                                  lambda error: log.info("ReportSettled %d on %s: %s", version, path, error.message))
            return GLib.SOURCE_REMOVE

        self.settle_timers[path] = GLib.timeout_add(delay, settled)
