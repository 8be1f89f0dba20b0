"""The GTK application: one NavWindowView per navigation window, kept in step with the daemon.

ObjectManager → windows open and close; Changed → steps (how) + GetState (what); user → reports.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from gi.repository import Gio, GLib, Gtk

from . import content
from .animator import STEP_MS
from .bus import SESSION_IFACE, SESSION_PATH, WINDOW_IFACE, NavBus, error_name
from .renderer_state import only_renderer_state
from .steps import Plan, parse_steps
from .testhook import TestHook
from .window_view import NavWindowView

APPLICATION_ID = "org.navsession.GtkRenderer"
# Issue 33, part O: a rendered version is reported settled (Window1.ReportSettled) once its animation has run:
# each later step starts STEP_MS after the one before, and a Gtk.Stack transition or a modal's fade lasts 200 ms.
SETTLE_MS = 250

log = logging.getLogger("gtk-renderer")


class WindowReporter:
    """Sends one window's renderer reports; a rejected report resynchronises the window."""

    def __init__(self, app: "RendererApp", path: str) -> None:
        self.app = app
        self.path = path
        self.protected: set[int] = set()

    def _failed(self, method: str) -> Callable[[GLib.Error], None]:
        def failed(error: GLib.Error) -> None:
            log.warning("%s on %s rejected (%s: %s); resynchronising from GetState",
                        method, self.path, error_name(error), error.message)
            self.app.resyncs["rejectedReport"] += 1
            self.app.resync(self.path)

        return failed

    def _send(self, method: str, args: GLib.Variant | None) -> None:
        self.app.bus.report(self.path, method, args, self._failed(method))

    def went_back(self, version: int) -> None:
        """The user pressed back or Escape: the daemon's goBack (pop, dismiss, or the tabs' back behaviour),
        only while the window is at the version the user saw (else VersionMismatch: resynchronise)."""
        self.app.bus.apply_at(self.path, '[{"command":"goBack"}]', version, self._failed("goBack"))

    def went_forward(self, version: int) -> None:
        """Forward (button, Alt+Right, mouse button 9): the daemon's goForward at the version the user saw."""
        self.app.bus.apply_at(self.path, '[{"command":"goForward"}]', version, self._failed("goForward"))

    def popped(self, stack: int, index: int) -> None:
        self._send("ReportPopped", GLib.Variant("(tu)", (stack, index)))

    def dismissed(self, model: int) -> None:
        self._send("ReportDismissed", GLib.Variant("(t)", (model,)))

    def tab_selected(self, tabs: int, tab: str) -> None:
        self._send("ReportTabSelected", GLib.Variant("(ts)", (tabs, tab)))

    def child_selected(self, container: int, child: int) -> None:
        self._send("ReportChildSelected", GLib.Variant("(tt)", (container, child)))

    def collapsed(self, split: int, collapsed: bool) -> None:
        self._send("ReportCollapsed", GLib.Variant("(tb)", (split, collapsed)))

    def editor_text(self, model: int, text: str) -> None:
        """The demo's editor: unsaved text protects it with the discardChanges dialog; cleared text unprotects.
        The mark is this renderer's (its bus name): it goes when the renderer exits (Docs/guards.md)."""
        if text and model not in self.protected:
            self.protected.add(model)
            self.app.bus.call(self.path, WINDOW_IFACE, "Protect",
                              GLib.Variant("(tss)", (model, "unsaved text", "discardChanges")), None, self._failed("Protect"))
        elif not text and model in self.protected:
            self.protected.discard(model)
            self.app.bus.call(self.path, WINDOW_IFACE, "Unprotect", GLib.Variant("(t)", (model,)), None,
                              self._failed("Unprotect"))

    def renderer_state(self, model: int, state_json: str) -> None:
        """Issue 34, part R: the window's (model 0) or a screen's renderer state. A model that went meanwhile is
        no reason to resynchronise: its state went with it."""
        self.app.bus.call(self.path, WINDOW_IFACE, "SetRendererState", GLib.Variant("(ts)", (model, state_json)), None,
                          lambda error: log.info("SetRendererState %d on %s: %s", model, self.path, error.message))

    def action_chosen(self, model: int, action: str) -> None:
        self._send("ReportActionChosen", GLib.Variant("(ts)", (model, action)))

    def closed(self) -> None:
        self._send("ReportClosed", None)


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
        # Per window, the timer that reports the version rendered last as settled (ReportSettled).
        self.settle_timers: dict[str, int] = {}
        # Per window, the GetState calls on their way (a renderer-state-only change is skipped only without one).
        self.fetching: dict[str, int] = {}
        self.bus: NavBus = None  # type: ignore[assignment]  # set in do_startup

    # -- Gtk.Application ------------------------------------------------------------------------

    def do_startup(self) -> None:
        Gtk.Application.do_startup(self)
        self.hold()  # keep running with no navigation window open
        connection = self.get_dbus_connection()
        if connection is None:
            raise SystemExit("gtk-renderer: no session bus (DBUS_SESSION_BUS_ADDRESS)")
        self.hook = TestHook(self, connection)
        content.on_transition_end = self.screen_changed
        self.bus = NavBus(connection, self.daemon_name, self)
        self.bus.start()
        # Issue 34, part W: Ctrl+Shift+N / Ctrl+Shift+T reopen the most recently closed window (Session1.ReopenWindow);
        # it comes back through InterfacesAdded like any window.
        reopen = Gio.SimpleAction.new("reopen-window", None)
        reopen.connect("activate", lambda *_: self.reopen_window())
        self.add_action(reopen)
        self.set_accels_for_action("app.reopen-window", ["<Control><Shift>n", "<Control><Shift>t"])

    def reopen_window(self) -> None:
        """Reopens the most recently closed window with its navigation (a new window number)."""
        self.bus.call(SESSION_PATH, SESSION_IFACE, "ReopenWindow", GLib.Variant("(s)", ("",)), None,
                      lambda error: log.info("ReopenWindow: %s: %s", error_name(error), error.message))

    def do_activate(self) -> None:
        pass

    def do_shutdown(self) -> None:
        if self.bus:
            self.bus.stop()
        if self.hook:
            self.hook.stop()
        Gtk.Application.do_shutdown(self)

    # -- NavBus listener ------------------------------------------------------------------------

    def window_added(self, path: str) -> None:
        number = int(path.rsplit("/", 1)[-1])
        log.info("window %s opened", path)
        self.views[path] = NavWindowView(self, path, number, WindowReporter(self, path))
        self.resync(path)

    def window_removed(self, path: str) -> None:
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
            # Issue 34, part R: renderer state only (ours or another renderer's): nothing to redraw. Only when no
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

        def failed(error: GLib.Error) -> None:
            landed()
            log.info("GetState on %s failed: %s", path, error.message)

        self.bus.fetch(path, done, failed)

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
            if path in self.views:
                self.bus.report(path, "ReportSettled", GLib.Variant("(t)", (version,)),
                                lambda error: log.info("ReportSettled %d on %s: %s", version, path, error.message))
            return GLib.SOURCE_REMOVE

        self.settle_timers[path] = GLib.timeout_add(delay, settled)
