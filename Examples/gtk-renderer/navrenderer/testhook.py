"""The automation hook: org.navsession.GtkRenderer1 on /org/navsession/GtkRenderer.

``Describe() → s`` is JSON of what is on screen, read from the widgets; ``Click(s id)`` does what
the user would (ids are listed in Describe); ``Screenshot(s id, s file)`` saves a window as PNG with
GTK's own renderer (Gtk.WidgetPaintable → Gsk → PNG) once it is still (no transition running, its version reported
settled); ``Summary() → s``, answered once every window is still, is what the screen shows without what varies
from run to run (model ids, versions, clickable ids) — the structure ``scripts/pictures`` keeps beside each
picture; ``DropChanges(b)`` makes the renderer ignore Changed signals as if they were lost, to test its
resynchronisation (Describe counts ``resyncs``).
``Swipe(s window_id, s phase, d x) → s`` and ``SwipeBack(s window_id, d distance) → s`` drive the left-edge back
swipe through the same code as its Gtk.GestureDrag (GTK cannot synthesise a pointer drag); Describe shows each
window's ``swipe`` (offset, state) and counts the refused backs (``backRefused``).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from gi.repository import Gio, GLib, Gtk

from navsession.gtk.content import CustomView, StackView, SwitchedView, TabsView
from navsession.gtk.dialogs import DialogWindow, ModalWindow
from navsession.gtk.pages import PageHost, Placeholder

from .placeholder import ScreenPage
from .screenshot import save_png, still, when_still

if TYPE_CHECKING:
    from navsession.gtk import NavigationApp, NavWindowView

BUS_NAME = "org.navsession.GtkRenderer"
OBJECT_PATH = "/org/navsession/GtkRenderer"
INTERFACE = "org.navsession.GtkRenderer1"
ERROR = "org.navsession.GtkRenderer.Error"

INTROSPECTION = f"""
<node>
  <interface name="{INTERFACE}">
    <method name="Describe"><arg name="screen_json" type="s" direction="out"/></method>
    <method name="Summary"><arg name="summary_json" type="s" direction="out"/></method>
    <method name="Click"><arg name="widget_id" type="s" direction="in"/></method>
    <method name="DropChanges"><arg name="drop" type="b" direction="in"/></method>
    <method name="ActivateAction"><arg name="action" type="s" direction="in"/></method>
    <method name="Swipe">
      <arg name="window_id" type="s" direction="in"/>
      <arg name="phase" type="s" direction="in"/>
      <arg name="x" type="d" direction="in"/>
      <arg name="state" type="s" direction="out"/>
    </method>
    <method name="SwipeBack">
      <arg name="window_id" type="s" direction="in"/>
      <arg name="distance" type="d" direction="in"/>
      <arg name="outcome" type="s" direction="out"/>
    </method>
    <method name="Screenshot">
      <arg name="window_id" type="s" direction="in"/>
      <arg name="png_file" type="s" direction="in"/>
    </method>
    <signal name="ScreenChanged"/>
  </interface>
</node>
"""

log = logging.getLogger("gtk-renderer.hook")


class HookError(Exception):
    pass


class TestHook:
    def __init__(self, app: "NavigationApp", connection: Gio.DBusConnection) -> None:
        self.app = app
        self.connection = connection
        self._pending_notify = False
        info = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION).interfaces[0]
        self._registration = connection.register_object(OBJECT_PATH, info, self._on_call, None, None)
        self._owner = Gio.bus_own_name_on_connection(
            connection, BUS_NAME, Gio.BusNameOwnerFlags.DO_NOT_QUEUE,
            lambda *_: log.info("owns %s", BUS_NAME),
            lambda *_: log.error("could not own %s (another renderer?)", BUS_NAME))

    def screen_changed(self) -> None:
        """Emits ScreenChanged once the main loop is idle (one signal for a burst of widget changes), so a test
        re-reads Describe when something may have changed instead of polling it."""
        if self._pending_notify:
            return
        self._pending_notify = True

        def emit() -> bool:
            self._pending_notify = False
            if self._registration:
                self.connection.emit_signal(None, OBJECT_PATH, INTERFACE, "ScreenChanged", None)
            return GLib.SOURCE_REMOVE

        GLib.idle_add(emit)

    def stop(self) -> None:
        if self._owner:
            Gio.bus_unown_name(self._owner)
            self._owner = 0
        if self._registration:
            self.connection.unregister_object(self._registration)
            self._registration = 0

    def _on_call(self, _c: Gio.DBusConnection, _sender: str, _path: str, _iface: str, method: str,
                 params: GLib.Variant, invocation: Gio.DBusMethodInvocation) -> None:
        try:
            if method == "Describe":
                invocation.return_value(GLib.Variant("(s)", (json.dumps(self.describe(), sort_keys=True),)))
            elif method == "Summary":
                self.still_summary(invocation)
            elif method == "Click":
                self.click(params.unpack()[0])
                invocation.return_value(None)
                self.screen_changed()
            elif method == "ActivateAction":
                # The application's actions, as their keyboard shortcuts would (app.reopen-window: Ctrl+Shift+N).
                name = params.unpack()[0]
                if not self.app.has_action(name):
                    raise HookError(f"no application action {name!r}")
                self.app.activate_action(name, None)
                invocation.return_value(None)
            elif method == "Swipe":
                window_id, phase, x = params.unpack()
                state = self.swipe(window_id, phase, x)
                invocation.return_value(GLib.Variant("(s)", (state,)))
            elif method == "SwipeBack":
                # Answered once the swipe is over (BeginBack's answer decides it): its outcome.
                window_id, distance = params.unpack()
                self.swipe_back(window_id, distance,
                                lambda outcome: invocation.return_value(GLib.Variant("(s)", (outcome,))))
            elif method == "DropChanges":
                self.app.drop_changes = bool(params.unpack()[0])
                invocation.return_value(None)
            elif method == "Screenshot":
                # Answered once saved (the window still first, see screenshot()).
                window_id, path = params.unpack()

                def saved(error: str | None) -> None:
                    if error is None:
                        invocation.return_value(None)
                    else:
                        invocation.return_dbus_error(ERROR, error)

                self.screenshot(window_id, path, saved)
            else:
                invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
        except HookError as error:
            invocation.return_dbus_error(ERROR, str(error))
        except Exception as error:  # report, never crash the renderer from a test call
            log.exception("%s failed", method)
            invocation.return_dbus_error(ERROR, f"{type(error).__name__}: {error}")

    # -- Describe -------------------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        views = sorted(self.app.views.values(), key=lambda v: v.number)
        return {"windows": [self._window(v) for v in views], "resyncs": dict(self.app.resyncs),
                "backRefused": self.app.back_refused}

    def _window(self, view: "NavWindowView") -> dict[str, Any]:
        prefix = f"window/{view.number}"
        stacks: list[dict[str, Any]] = []
        tabs: list[dict[str, Any]] = []
        switched: list[dict[str, Any]] = []
        customs = _custom_views(view)
        clickable = [f"{prefix}/close", f"{prefix}/escape"]
        if view.back_button.get_sensitive() and view.back_button.get_visible():
            clickable.append(f"{prefix}/back")
        # The forward button, and the history keys and mouse buttons.
        if view.forward_button.get_visible():
            clickable.append(f"{prefix}/forward")
        clickable += [f"{prefix}/key/alt-left", f"{prefix}/key/alt-right", f"{prefix}/mouse/8", f"{prefix}/mouse/9"]
        _walk(view.window.get_child(), stacks, tabs, switched)
        modals: list[dict[str, Any]] = []
        dialogs: list[dict[str, Any]] = []
        for model_id, modal in view.modals.items():
            if not modal.get_visible():
                continue
            parent = modal.get_transient_for()
            parent_id = next((f"{prefix}/modal/{m}" for m, w in view.modals.items() if w is parent), prefix)
            if isinstance(modal, DialogWindow):
                buttons = []
                for action_id, button in modal.buttons.items():
                    button_id = f"{prefix}/dialog/{model_id}/action/{action_id}"
                    classes = [c for c in ("destructive-action", "suggested-action") if button.has_css_class(c)]
                    buttons.append({"id": button_id, "action": action_id, "label": button.get_label(),
                                    "role": modal.role(action_id), "styles": classes,
                                    "sensitive": button.get_sensitive()})
                    clickable.append(button_id)
                dialogs.append({"id": f"{prefix}/dialog/{model_id}", "model": model_id, "kind": modal.kind,
                                "title": modal.headline.get_label(), "message": modal.message.get_label(),
                                "buttons": buttons, "transientFor": parent_id})
                clickable.append(f"{prefix}/dialog/{model_id}/close")
            elif isinstance(modal, ModalWindow):
                modal_id = f"{prefix}/modal/{model_id}"
                _walk(modal.content(), stacks, tabs, switched)
                modals.append({"id": modal_id, "model": model_id, "style": modal.style, "transition": modal.transition,
                               "page": _page(modal.content()), "revealed": modal.revealer.get_reveal_child(),
                               "title": modal.title_label.get_label(), "transientFor": parent_id,
                               "modal": modal.get_modal(), "back": {"id": f"{modal_id}/back",
                                                                      "sensitive": modal.back_button.get_sensitive()}})
                clickable += [f"{modal_id}/close"] + ([f"{modal_id}/back"] if modal.back_button.get_sensitive() else [])
        for tab_view in tabs:
            clickable += [f"{prefix}/tab/{t['id']}" for t in tab_view["tabs"]]
        custom = [{"model": c.model_id, "kind": c.kind, "selected": c.selected, "children": c.children_ids,
                   "collapsed": c.collapsed,
                   "visibleColumns": [i for i, f in c.frames.items() if f.get_visible()]}
                  for c in customs]
        for c in custom:
            clickable += [f"{prefix}/child/{c['model']}/{i}" for i in c["children"]]
        return {
            "id": prefix, "path": view.path, "version": view.graph.version if view.graph else None,
            "title": view.title_label.get_label(), "visible": view.window.get_visible(),
            "back": {"id": f"{prefix}/back", "sensitive": view.back_button.get_sensitive()},
            "forward": {"id": f"{prefix}/forward", "visible": view.forward_button.get_visible()},
            "chrome": {"navigationBar": view.header.get_visible(), "backButton": view.back_button.get_visible(),
                       "titleDisplayMode": view.title_mode},
            "stacks": stacks, "tabs": tabs, "switched": switched, "custom": custom, "modals": modals, "dialogs": dialogs,
            "size": list(view.window.get_default_size()),  # the window's size, kept in its renderer state
            # The back swipe: how far the content is shifted (read from the widget) and the swipe's state.
            "swipe": {"offset": float(view.frame.offset), "active": view.swipe.active, "state": view.swipe.state},
            "pages": {str(m): _page_state(p) for m, p in view.pages().items() if isinstance(p, Placeholder)},
            "top": _top_id(view, prefix), "clickable": clickable,
        }

    def still_summary(self, invocation: Gio.DBusMethodInvocation) -> None:
        """Answers Summary once every window on screen is still (no transition or reveal running, its size the same
        from frame to frame, no version waiting to be reported settled): the summary of what stays on screen, not
        of a moment in a crossfade."""
        windows = [w for v in sorted(self.app.views.values(), key=lambda v: v.number)
                   for w in [v.window, *v.modals.values()] if w.get_visible()]
        result: list[str] = []

        def done(error: str | None) -> None:
            if error is None:
                invocation.return_value(GLib.Variant("(s)", (result[0],)))
            else:
                invocation.return_dbus_error(ERROR, error)

        if not windows:
            result.append(json.dumps(summary(self.describe()), sort_keys=True))
            done(None)
            return
        when_still(windows[0], lambda: result.append(json.dumps(summary(self.describe()), sort_keys=True)), done,
                   busy=lambda: bool(self.app.settle_timers) or not all(still(w) for w in windows[1:]))

    # -- Click ----------------------------------------------------------------------------------

    def click(self, widget_id: str) -> None:
        parts = widget_id.split("/")
        if len(parts) < 3 or parts[0] != "window" or not parts[1].isdigit():
            raise HookError(f"unknown widget id {widget_id!r}: expected window/<n>/…")
        view = next((v for v in self.app.views.values() if v.number == int(parts[1])), None)
        if view is None:
            raise HookError(f"no window {parts[1]} on screen")
        rest = parts[2:]
        log.info("click %s", widget_id)
        if rest == ["back"]:
            _press(view.back_button, widget_id)
        elif rest == ["escape"]:
            _escape(view.topmost())
        elif rest == ["forward"]:
            if not view.forward_button.get_visible():
                raise HookError(f"{widget_id} is not shown")
            view.forward_button.emit("clicked")
        elif len(rest) == 2 and rest[0] == "key" and rest[1] in KEYS:
            # window/<n>/key/alt-left|alt-right|ctrl-z|ctrl-shift-z: the shortcut of the top window, as the keys
            # would run it.
            _shortcut(view.topmost(), KEYS[rest[1]])
        elif len(rest) == 2 and rest[0] == "mouse" and rest[1] in ("8", "9"):
            # window/<n>/mouse/8|9: the mouse's back or forward button pressed on the top window.
            _mouse_button(view.topmost(), int(rest[1]))
        elif rest == ["close"]:
            view.window.close()
        elif len(rest) == 3 and rest[0] == "resize" and rest[1].isdigit() and rest[2].isdigit():
            # window/<n>/resize/<width>/<height>: the user resizes the window (a split collapses when narrow).
            view.resize(int(rest[1]), int(rest[2]))
        elif len(rest) == 3 and rest[0] == "scroll" and rest[1].isdigit() and rest[2].isdigit():
            # window/<n>/scroll/<model>/<y>: the user scrolls the screen of <model>.
            page = view.pages().get(int(rest[1]))
            if not isinstance(page, Placeholder):
                raise HookError(f"no screen {rest[1]} in window {parts[1]}")
            page.scroll_to(float(rest[2]))
        elif len(rest) == 2 and rest[0] == "tab":
            button = next((b for t in _tab_views(view) if (b := t.page_button(rest[1])) is not None), None)
            if button is None:
                raise HookError(f"no tab {rest[1]!r} in window {parts[1]}")
            if button.get_active():
                button.emit("clicked")  # a click on the selected tab: the button stays active
            else:
                button.set_active(True)  # what a click on the switcher does
        elif len(rest) == 3 and rest[0] == "child" and rest[1].isdigit() and rest[2].isdigit():
            # window/<n>/child/<container>/<child>: a click on a custom container's segment.
            custom = next((c for c in _custom_views(view) if c.model_id == int(rest[1])), None)
            button = custom.buttons.get(int(rest[2])) if custom is not None else None
            if button is None:
                raise HookError(f"no segment {rest[2]} of container {rest[1]} in window {parts[1]}")
            button.set_active(True)
        elif len(rest) >= 3 and rest[0] in ("modal", "dialog") and rest[1].isdigit():
            modal = view.modals.get(int(rest[1]))
            if modal is None or not modal.get_visible():
                raise HookError(f"no {rest[0]} {rest[1]} open in window {parts[1]}")
            if rest[2:] == ["close"]:
                modal.close()
            elif rest[2:] == ["escape"]:
                _escape(modal)
            elif len(rest) >= 4 and rest[2] == "type":
                # window/<n>/modal/<m>/type/<text>: the text typed into the modal's text field (the editor's).
                entry = _entry(modal)
                if entry is None:
                    raise HookError(f"no text field in {widget_id!r}")
                entry.set_text("/".join(rest[3:]))
            elif rest[2:] == ["back"] and isinstance(modal, ModalWindow):
                _press(modal.back_button, widget_id)
            elif len(rest) == 4 and rest[2] == "action" and isinstance(modal, DialogWindow) and rest[3] in modal.buttons:
                _press(modal.buttons[rest[3]], widget_id)
            else:
                raise HookError(f"unknown widget id {widget_id!r}")
        else:
            raise HookError(f"unknown widget id {widget_id!r}")

    # -- the back swipe -------------------------------------------------------------------------

    def _view(self, window_id: str) -> "NavWindowView":
        parts = window_id.split("/")
        if len(parts) != 2 or parts[0] != "window" or not parts[1].isdigit():
            raise HookError(f"unknown window id {window_id!r}: expected window/<n>")
        view = next((v for v in self.app.views.values() if v.number == int(parts[1])), None)
        if view is None:
            raise HookError(f"no window {parts[1]} on screen")
        return view

    def swipe(self, window_id: str, phase: str, x: float) -> str:
        """One phase of a drag on ``window/<n>``'s content, as its Gtk.GestureDrag reports it: ``begin`` (a press
        ``x`` px from the content's left edge), ``update`` (moved ``x`` px right since the press; negative: left),
        ``end`` (let go after ``x`` px), ``cancel``. Returns the swipe's state after it (``idle``, ``tracking``,
        ``asking``, ``following``, ``refused``)."""
        view = self._view(window_id)
        log.info("swipe %s %s %.1f", window_id, phase, x)
        if phase == "begin":
            view.swipe.begin(x, 0.0)
        elif phase == "update":
            view.swipe.update(x, 0.0)
        elif phase == "end":
            view.swipe.end(x, 0.0)
        elif phase == "cancel":
            view.swipe.cancel()
        else:
            raise HookError(f"unknown swipe phase {phase!r}: expected begin, update, end or cancel")
        return view.swipe.state

    def swipe_back(self, window_id: str, distance: float, done: Any) -> None:
        """A whole swipe on ``window/<n>``: pressed at the left edge, moved ``distance`` px right and let go there.
        ``done(outcome)`` once it is over: ``committed`` (allowed and past a third of the width: CommitBack
        sent), ``cancelled`` (allowed, short of it), ``refused`` (BeginBack refused: nothing moved), ``ignored``."""
        view = self._view(window_id)
        if view.swipe.active:
            raise HookError(f"a swipe is already in progress in {window_id}")
        log.info("swipe back %s by %.1f", window_id, distance)
        view.swipe.when_done(done)
        if view.swipe.begin(2.0, 0.0):
            view.swipe.update(distance, 0.0)
            view.swipe.end(distance, 0.0)

    # -- Screenshot -----------------------------------------------------------------------------

    def screenshot(self, window_id: str, path: str, done: Any) -> None:
        """Saves the GTK window ``window/<n>`` or ``window/<n>/modal|dialog/<model>`` as a PNG once it is still —
        mapped, its size the same from frame to frame, no stack transition or reveal running, its navigation
        window's version reported settled — and a frame has been painted since; then ``done(None)``, or
        ``done(message)``."""
        parts = window_id.split("/")
        view = next((v for v in self.app.views.values() if len(parts) > 1 and str(v.number) == parts[1]), None)
        if view is None:
            raise HookError(f"no window {window_id!r}")
        window: Gtk.Window = view.window
        if len(parts) == 4 and parts[3].isdigit():
            window = view.modals.get(int(parts[3]))  # type: ignore[assignment]
            if window is None:
                raise HookError(f"no modal {window_id!r}")
        when_still(window, lambda: save_png(window, path), done, busy=lambda: view.path in self.app.settle_timers)


# -- Summary --------------------------------------------------------------------------------------------------

def summary(described: dict[str, Any]) -> dict[str, Any]:
    """What Describe says the screen shows, as the same flow shows it on every run: per window its title, chrome,
    back and forward, size, tabs, the visible page of each stack and switched view (by screen, not model id),
    custom containers (the split's columns by the screen each shows, which are visible, whether collapsed), sheets
    and dialogs (style, title, buttons with their roles), each page's scroll and draft, and which window is on top.
    Model ids, versions, clickable ids, swipe and resync counters are left out: they vary with timing, not with
    what is drawn. The Swift tests' ``WindowSummary`` checks its core (title, back and forward, stacks, tabs, sheets,
    dialogs) against the daemon's state."""
    return {"windows": [_window_summary(w) for w in described.get("windows", [])]}


def _window_summary(window: dict[str, Any]) -> dict[str, Any]:
    screens: dict[int, str] = {}  # model id → what it shows (a screen, or a container's type)

    def name(page: dict[str, Any] | None) -> str | None:
        if page is None:
            return None
        shown = page.get("screen") or page.get("container")
        screens.setdefault(page.get("model", 0), shown)
        return shown

    stacks = []
    for stack in window.get("stacks", []):
        visible = name(stack.get("visible"))
        stacks.append({"visible": visible, "pages": [name(p) for p in stack.get("pages", [])]})
        screens[stack.get("model", 0)] = visible or "stack"
    switched = [{"visible": name(s.get("visible"))} for s in window.get("switched", [])]
    tabs = [{"selected": t["selected"], "tabs": [[tab["id"], tab["title"]] for tab in t["tabs"]],
             "switcher": t["switcher"]} for t in window.get("tabs", [])]
    custom = []
    for container in window.get("custom", []):
        children = container.get("children", [])
        custom.append({"kind": container["kind"], "collapsed": container["collapsed"],
                       "columns": [screens.get(c) for c in children],
                       "selected": children.index(container["selected"]) if container["selected"] in children
                       else None,
                       "visibleColumns": [children.index(c) for c in container.get("visibleColumns", [])
                                          if c in children]})
    modals = [{"style": m["style"], "title": m["title"], "transition": m["transition"], "modal": m["modal"],
               "shows": name(m.get("page")), "back": m["back"]["sensitive"], "on": _kind_of(m["transientFor"])}
              for m in window.get("modals", [])]
    dialogs = [{"kind": d["kind"], "title": d["title"], "message": d["message"], "on": _kind_of(d["transientFor"]),
                "buttons": [{"action": b["action"], "label": b["label"], "role": b["role"], "styles": b["styles"],
                             "sensitive": b["sensitive"]} for b in d["buttons"]]} for d in window.get("dialogs", [])]
    pages = sorted(({"screen": screens.get(int(model), "?"), **state}
                    for model, state in window.get("pages", {}).items()), key=lambda p: json.dumps(p, sort_keys=True))
    return {"window": window["id"], "title": window["title"], "visible": window["visible"],
            "back": window["back"]["sensitive"], "forward": window["forward"]["visible"], "chrome": window["chrome"],
            "size": window["size"], "tabs": tabs, "stacks": stacks, "switched": switched, "custom": custom,
            "modals": modals, "dialogs": dialogs, "pages": pages, "top": _kind_of(window["top"])}


def _kind_of(window_id: str) -> str:
    """``window/1`` → ``window``, ``window/1/modal/7`` → ``modal``, ``window/1/dialog/9`` → ``dialog``."""
    parts = window_id.split("/")
    return parts[2] if len(parts) > 2 else "window"


def _press(button: Gtk.Button, widget_id: str) -> None:
    if not button.get_sensitive() or not button.get_visible():
        raise HookError(f"{widget_id} is not sensitive")
    button.emit("clicked")


#: The keys a test presses (``window/<n>/key/<name>``): their shortcut triggers.
KEYS = {"alt-left": "<Alt>Left", "alt-right": "<Alt>Right", "ctrl-z": "<Control>z", "ctrl-shift-z": "<Control><Shift>z"}


def _escape(window: Gtk.Window) -> None:
    """Runs the window's Escape shortcut, as the key would."""
    for controller in _controllers(window):
        if isinstance(controller, Gtk.ShortcutController):
            for i in range(controller.get_n_items()):
                shortcut = controller.get_item(i)
                if shortcut.get_trigger().to_string() == "Escape":
                    shortcut.get_action().activate(Gtk.ShortcutActionFlags.EXCLUSIVE, window, None)
                    return
    raise HookError("the window has no Escape shortcut")


def _shortcut(window: Gtk.Window, trigger: str) -> None:
    """Runs the window's shortcut for ``trigger`` (``<Alt>Left``), as the keys would."""
    wanted = Gtk.ShortcutTrigger.parse_string(trigger).to_string()
    for controller in _controllers(window):
        if isinstance(controller, Gtk.ShortcutController):
            for i in range(controller.get_n_items()):
                shortcut = controller.get_item(i)
                if shortcut.get_trigger().to_string() == wanted:
                    shortcut.get_action().activate(Gtk.ShortcutActionFlags.EXCLUSIVE, window, None)
                    return
    raise HookError(f"the window has no {trigger} shortcut")


class _PressedButton:
    """Stands for a click gesture in the middle of a press of ``button`` (GTK cannot synthesise one)."""

    def __init__(self, button: int) -> None:
        self.button = button

    def get_current_button(self) -> int:
        return self.button


def _mouse_button(window: Gtk.Window, button: int) -> None:
    """Runs the window's click gesture for mouse ``button`` (8 back, 9 forward), as a press would."""
    for controller in _controllers(window):
        if isinstance(controller, Gtk.GestureClick) and controller.get_button() == 0:
            handler = getattr(window, "_history_pressed", None)
            if handler is not None:
                handler(_PressedButton(button))
                return
    raise HookError("the window has no mouse-button gesture")


def _entry(widget: Gtk.Widget | None) -> Gtk.Entry | None:
    """The first text field in ``widget``'s tree."""
    pending = [widget] if widget is not None else []
    while pending:
        current = pending.pop()
        if isinstance(current, Gtk.Entry):
            return current
        child = current.get_first_child()
        while child is not None:
            pending.append(child)
            child = child.get_next_sibling()
    return None


def _controllers(widget: Gtk.Widget) -> list[Gtk.EventController]:
    model = widget.observe_controllers()
    return [model.get_item(i) for i in range(model.get_n_items())]


def _views_of(view: "NavWindowView", kind: type) -> list:
    """Every widget of `kind` in the window and its modals, in widget order."""
    found: list = []

    def visit(widget: Gtk.Widget | None) -> None:
        while widget is not None:
            if isinstance(widget, kind):
                found.append(widget)
            visit(widget.get_first_child())
            widget = widget.get_next_sibling()

    visit(view.window.get_child())
    for modal in view.modals.values():
        visit(modal.get_child())
    return found


def _tab_views(view: "NavWindowView") -> list[TabsView]:
    return _views_of(view, TabsView)


def _custom_views(view: "NavWindowView") -> list[CustomView]:
    return _views_of(view, CustomView)


def _top_id(view: "NavWindowView", prefix: str) -> str:
    top = view.topmost()
    for model_id, modal in view.modals.items():
        if modal is top:
            return f"{prefix}/{'dialog' if isinstance(modal, DialogWindow) else 'modal'}/{model_id}"
    return prefix


def _walk(widget: Gtk.Widget | None, stacks: list[dict[str, Any]], tabs: list[dict[str, Any]],
          switched: list[dict[str, Any]]) -> None:
    """Collects every stack, tabs and switched view under ``widget`` from the widgets' own state."""
    if widget is None:
        return
    if isinstance(widget, StackView):
        visible = widget.get_visible_child()
        pages = [_page(widget.get_page(c).get_child()) for c in _children(widget)]
        stacks.append({"model": widget.model_id, "visible": _page(visible), "pages": pages,
                       "transition": widget.get_transition_running()})
    elif isinstance(widget, TabsView):
        tab_list = [{"id": p.get_name(), "title": p.get_title()} for p in _stack_pages(widget.stack)]
        tabs.append({"model": widget.model_id, "selected": widget.stack.get_visible_child_name(), "tabs": tab_list,
                     "switcher": widget.switcher.get_visible() and widget.bar.get_reveal_child()})
    elif isinstance(widget, SwitchedView):
        switched.append({"model": widget.model_id, "visible": _page(widget.get_visible_child())})
    # Only what is shown: a stack's visible page, a switched view's shown model; every tab (kept).
    if isinstance(widget, (StackView, SwitchedView)):
        for child in _children(widget):
            _walk(child, stacks, tabs, switched)
        return
    child = widget.get_first_child()
    while child is not None:
        _walk(child, stacks, tabs, switched)
        child = child.get_next_sibling()


def _page(widget: Gtk.Widget | None) -> dict[str, Any] | None:
    if widget is None:
        return None
    if isinstance(widget, PageHost):
        page = widget.page
        title = page.heading.get_label() if isinstance(page, Placeholder) else page.context.title
        return {"model": widget.model_id, "screen": widget.screen, "title": title}
    return {"model": getattr(widget, "model_id", 0), "container": type(widget).__name__}


def _page_state(page: Placeholder) -> dict[str, Any]:
    """A screen's scroll position and its text field's text."""
    entry = page.entry if isinstance(page, ScreenPage) else None
    return {"scroll": round(page.scroller.get_vadjustment().get_value()),
            "draft": entry.get_text() if entry is not None else None}


def _children(widget: Gtk.Widget) -> list[Gtk.Widget]:
    out = []
    child = widget.get_first_child()
    while child is not None:
        out.append(child)
        child = child.get_next_sibling()
    return out


def _stack_pages(stack: Gtk.Stack) -> list[Gtk.StackPage]:
    pages = stack.get_pages()
    return [pages.get_item(i) for i in range(pages.get_n_items())]
