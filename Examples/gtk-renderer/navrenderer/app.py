"""The GTK application: one NavWindowView per navigation window, kept in step with the daemon.

ObjectManager → windows open and close; Changed → steps (how) + GetState (what); user → reports. The D-Bus side
is the navsession package (python/ in this repository): Session.follow_windows, Window.connect_changed,
Window.connect_properties and Window.call_async, all on the application's main loop.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable

from gi.repository import Gio, GLib, Gtk

import navsession
from navsession import NavSessionError
from navsession import commands as c

from . import content
from .animator import STEP_MS
from .renderer_state import only_renderer_state
from .steps import Plan, parse_steps
from .testhook import TestHook
from .window_view import NavWindowView

APPLICATION_ID = "org.navsession.GtkRenderer"
# A rendered version is reported settled (Window1.ReportSettled) once its animation has run:
# each later step starts STEP_MS after the one before, and a Gtk.Stack transition or a modal's fade lasts 200 ms.
SETTLE_MS = 250

log = logging.getLogger("gtk-renderer")


class WindowReporter:
    """Sends one window's renderer reports; a rejected report resynchronises the window."""

    def __init__(self, app: "RendererApp", path: str) -> None:
        self.app = app
        self.path = path
        self.protected: set[int] = set()

    def _failed(self, method: str) -> Callable[[NavSessionError], None]:
        def failed(error: NavSessionError) -> None:
            log.warning("%s on %s rejected (%s: %s); resynchronising from GetState",
                        method, self.path, error.name, error.message)
            self.app.resyncs["rejectedReport"] += 1
            self.app.resync(self.path)

        return failed

    def _call(self, method: str, signature: str | None = None, args: tuple = (),
              on_error: Callable[[NavSessionError], None] | None = None) -> None:
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
        this renderer got wrong, so no resynchronisation: logged and counted (Describe's ``backRefused``)."""
        window = self.app.windows.get(self.path)
        if window is None:
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

    def editor_text(self, model: int, text: str) -> None:
        """The demo's editor: unsaved text protects it with the discardChanges dialog; cleared text unprotects.
        The mark is this renderer's (its bus name): it goes when the renderer exits (Docs/guards.md)."""
        if text and model not in self.protected:
            self.protected.add(model)
            self._call("Protect", "(tss)", (model, "unsaved text", "discardChanges"))
        elif not text and model in self.protected:
            self.protected.discard(model)
            self._call("Unprotect", "(t)", (model,))

    def renderer_state(self, model: int, state_json: str) -> None:
        """The window's (model 0) or a screen's renderer state. A model that went meanwhile is
        no reason to resynchronise: its state went with it."""
        self._call("SetRendererState", "(ts)", (model, state_json),
                   lambda error: log.info("SetRendererState %d on %s: %s", model, self.path, error.message))

    def action_chosen(self, model: int, action: str) -> None:
        self._send("ReportActionChosen", "(ts)", (model, action))

    def closed(self) -> None:
        self._send("ReportClosed")


class RendererApp(Gtk.Application):
    def __init__(self, daemon_name: str) -> None:
        super().__init__(application_id=APPLICATION_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.daemon_name = daemon_name
        self.views: dict[str, NavWindowView] = {}
        self.last_version: dict[str, int] = {}
        self.hook: TestHook | None = None
        # For tests (the hook's DropChanges): ignore Changed as if lost; and how often we resynchronised.
        self.drop_changes = False
        self.resyncs = {"missedChange": 0, "rejectedReport": 0}
        # How often BeginBack refused a back (button, Escape, swipe): nothing moved (Describe's backRefused).
        self.back_refused = 0
        # Per window, the timer that reports the version rendered last as settled (ReportSettled).
        self.settle_timers: dict[str, int] = {}
        # Per window, the GetState calls on their way (a renderer-state-only change is skipped only without one).
        self.fetching: dict[str, int] = {}
        self.session: navsession.Session | None = None  # set in do_startup
        # The daemon's windows (navsession.Window proxies) and, per window, what disconnects its signals.
        self.windows: dict[str, navsession.Window] = {}
        self.window_signals: dict[str, list[Callable[[], None]]] = {}
        self.stop_following: Callable[[], None] | None = None

    # -- Gtk.Application ------------------------------------------------------------------------

    def do_startup(self) -> None:
        Gtk.Application.do_startup(self)
        self.hold()  # keep running with no navigation window open
        connection = self.get_dbus_connection()
        if connection is None:
            raise SystemExit("gtk-renderer: no session bus (DBUS_SESSION_BUS_ADDRESS)")
        self.hook = TestHook(self, connection)
        content.on_transition_end = self.screen_changed
        # start=False: the renderer follows the daemon, it never activates it.
        self.session = navsession.Session(connection, self.daemon_name, start=False)
        self.stop_following = self.session.follow_windows(self._window_opened, self.window_removed, self.daemon_gone)
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
        pass

    def do_shutdown(self) -> None:
        if self.stop_following is not None:
            self.stop_following()
            self.stop_following = None
        for path in list(self.window_signals):
            self._disconnect(path)
        if self.hook:
            self.hook.stop()
        Gtk.Application.do_shutdown(self)

    # -- the session's windows (Session.follow_windows) -----------------------------------------

    def _window_opened(self, window: navsession.Window) -> None:
        path = window.path
        if path in self.windows:
            return
        self.windows[path] = window
        self.window_signals[path] = [
            window.connect_changed(lambda change: self.window_changed(
                path, change.version, change.previous_version, change.animated, change.steps_json)),
            window.connect_properties(lambda changed: self.window_properties(path, changed)),
        ]
        self.window_added(path)

    def _disconnect(self, path: str) -> None:
        for disconnect in self.window_signals.pop(path, []):
            disconnect()
        self.windows.pop(path, None)

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

    def window_properties(self, path: str, changed: dict[str, Any]) -> None:
        view = self.views.get(path)
        if view is not None:
            view.set_properties(changed)
            self.screen_changed()

    def screen_changed(self) -> None:
        """Something on screen may have changed: tell the test hook (ScreenChanged)."""
        if self.hook is not None:
            self.hook.screen_changed()

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
            view.render(state, props, plan)
            self.screen_changed()
            self._settle_later(path, version, plan)

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
            if path in self.views and window is not None:
                window.call_async("ReportSettled", "(t)", (version,), None,
                                  lambda error: log.info("ReportSettled %d on %s: %s", version, path, error.message))
            return GLib.SOURCE_REMOVE

        self.settle_timers[path] = GLib.timeout_add(delay, settled)
