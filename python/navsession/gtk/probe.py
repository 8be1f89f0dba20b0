"""What an application's tests see of its windows: ``NAVSESSION_GTK_TEST_REPORT=<file>``.

With the variable set, a :class:`~navsession.gtk.NavigationApp` appends one JSON line to the file for every
version of a window it has finished showing — written just before it reports the version settled
(``Window1.ReportSettled``), so a test that waits for the window's ``SettledVersion`` (``window.wait_settled(v)``)
finds the line without polling the file::

    {"bus": ":1.7", "window": "/org/navsession/Session1/window/1", "version": 3,
     "page": {"model": 4, "screen": "note", "page": "NotePage", "factory": "NotePage", "widget": "GtkBox",
              "name": "GtkBox", "inWindow": true, "title": "Note", "params": {"id": "2"},
              "state": {"draft": "Dear Ann,"}, "protected": true},
     "modals": [{"model": 9, "style": "sheet", "page": {...}}],
     "dialogs": [{"model": 11, "kind": "alert", "title": "Discard changes?", "message": "",
                  "actions": ["discard", "keep"], "visible": true}],
     "prepared": [{"model": 14, "screen": "note", "page": "NotePage", "inWindow": false, ...}],
     "announcement": {"version": 3, "text": "Note 2", "focusModel": 4, "status": "Note 2", "role": "status"},
     "focus": {"model": 4, "widget": "GtkText", "window": "main"},
     "renderer": {"role": "primary", "id": "r1", "interactive": true, "back": true, "widthClass": "medium",
                  "width": 720},
     "panes": {"2": [3, 4]}}

``page`` is the page the window's base shows (its visible screen; in a custom container such as a split, the
page of its selected child — the focused column), ``modals`` each presented sheet or cover with the page it shows,
``dialogs`` each alert and confirmation dialog, ``prepared`` each page made ahead for a prepared model (Window1
``Prepare``) and not shown yet (in no window: ``inWindow`` false); ``widget`` and ``name`` are the GType name and
``Gtk.Widget.get_name()`` of the widget the page's factory built, ``inWindow`` whether that widget is in a window's
widget tree, ``state`` what the page would save as renderer state now, ``protected`` whether the page protects its
model, ``bus`` the application's unique bus name. ``announcement`` is the window's newest ``Announcement`` as the
view received it (``null`` before any) with ``status``, the text of the window's status label, and ``role``, that
label's accessible role; ``focus`` is where keyboard focus is in the window on top (the main one, or the model of
the sheet or dialog on top): the model whose page or dialog holds the focused widget (``null``: none) and the
focused widget's GType name (announcer.py, Docs/announcements.md). ``renderer`` is what the application is to the
window (Docs/renderers.md): its ``role`` there (``primary`` or ``mirror``), the ``id`` the daemon gave its registration
(``null`` before the answer, or without roles), whether its view is ``interactive`` (a mirror's is not), whether its
``back`` button is sensitive, the window size class it reported last (``widthClass``, ``null`` for a mirror, which
reports none) and the window's ``width``; ``panes`` maps each stack that shows pages side by side (the window's
``VisibleModels``, Docs/panes.md) to their models, ``{}`` when none does.

The application also exports, on its own connection (at that unique name), ``org.navsession.gtk.TestProbe1`` at
``/org/navsession/gtk/TestProbe`` to act as the user where GTK cannot be driven from outside:

| method | what |
|---|---|
| ``Describe() → s`` | a JSON list of the lines above for every window, as they are now |
| ``Type(o window, t model, s key, s text)`` | sets the text of the page's text field ``key`` (a renderer-state key, ``draft``, ``draft#2``, ``draft:subject``; ``""``: the first) as typing does |
| ``ActivateRow(o window, t model, u index)`` | activates row ``index`` of the page's first ``Gtk.ListBox`` (a click or Enter on it) |
| ``Click(o window, t model, s name)`` | clicks a button: in the page of ``model``, the ``Gtk.Button`` whose widget name (``set_name``) or label is ``name``; in a dialog (``model`` an alert or confirmation dialog), the button of the action ``name`` |
| ``Close(o window)`` | closes the window as its close button does |
| ``Back(o window)`` | the header's back button, as a click on it (also when it is insensitive: a mirror's sends nothing) |
| ``Resize(o window, i width, i height)`` | resizes the window as the user would (its width class is reported when it changes) |
| ``TabMenu(o window, t tabs, s tab, s choose) → s labels_json`` | opens the context menu of tab ``tab`` of tab container ``tabs`` as a right-click on its button does and answers its items' labels (``[]``: the tab has no menu); with ``choose`` a label, chooses that item (its action runs as a click on it runs it), else closes the menu |
| ``Screenshot(o window, t model, s png_file)`` | saves a PNG of the window (``model`` 0) or of the sheet, cover or dialog that presents ``model``, drawn by GTK itself (``Gtk.WidgetPaintable`` → Gsk → PNG), answered once saved: first it waits until that GTK window is still — mapped, its size the same from frame to frame, no stack transition or reveal running, no version of the window waiting to be reported settled — and a frame has been painted since (an error after 10 s) |

Nothing of this exists without the variable. ``scripts/pictures`` makes the Notes application's pictures in
Docs/images with ``Screenshot``; :func:`save_png` and :func:`when_still` are what the reference renderer's
``Screenshot`` uses too.
"""

from __future__ import annotations

import ctypes
import json
import logging
from typing import TYPE_CHECKING, Any, Callable, Optional

from gi.repository import Gdk, Gio, GLib, Graphene, Gtk

from .dialogs import DialogWindow, ModalWindow
from .pages import Page, PageHost, WidgetPage
from .widget_state import DRAFT, tracked

if TYPE_CHECKING:
    from .app import NavigationApp
    from .window_view import NavWindowView

REPORT_ENV = "NAVSESSION_GTK_TEST_REPORT"
OBJECT_PATH = "/org/navsession/gtk/TestProbe"
INTERFACE = "org.navsession.gtk.TestProbe1"
ERROR = "org.navsession.gtk.TestProbe.Error"

INTROSPECTION = f"""
<node>
  <interface name="{INTERFACE}">
    <method name="Describe"><arg name="windows_json" type="s" direction="out"/></method>
    <method name="Type">
      <arg name="window" type="o" direction="in"/>
      <arg name="model" type="t" direction="in"/>
      <arg name="key" type="s" direction="in"/>
      <arg name="text" type="s" direction="in"/>
    </method>
    <method name="ActivateRow">
      <arg name="window" type="o" direction="in"/>
      <arg name="model" type="t" direction="in"/>
      <arg name="index" type="u" direction="in"/>
    </method>
    <method name="Click">
      <arg name="window" type="o" direction="in"/>
      <arg name="model" type="t" direction="in"/>
      <arg name="name" type="s" direction="in"/>
    </method>
    <method name="Close"><arg name="window" type="o" direction="in"/></method>
    <method name="Back"><arg name="window" type="o" direction="in"/></method>
    <method name="Resize">
      <arg name="window" type="o" direction="in"/>
      <arg name="width" type="i" direction="in"/>
      <arg name="height" type="i" direction="in"/>
    </method>
    <method name="TabMenu">
      <arg name="window" type="o" direction="in"/>
      <arg name="tabs" type="t" direction="in"/>
      <arg name="tab" type="s" direction="in"/>
      <arg name="choose" type="s" direction="in"/>
      <arg name="labels_json" type="s" direction="out"/>
    </method>
    <method name="Screenshot">
      <arg name="window" type="o" direction="in"/>
      <arg name="model" type="t" direction="in"/>
      <arg name="png_file" type="s" direction="in"/>
    </method>
  </interface>
</node>
"""

log = logging.getLogger("navsession.gtk.probe")


class ProbeError(Exception):
    pass


class TestProbe:
    """Writes the report lines and answers the probe's methods (see the module's documentation)."""

    __test__ = False  # not a pytest test class

    def __init__(self, app: "NavigationApp", connection: Gio.DBusConnection, report: str) -> None:
        self.app = app
        self.connection = connection
        self.report = report
        info = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION).interfaces[0]
        self._registration = connection.register_object(OBJECT_PATH, info, self._on_call, None, None)

    def stop(self) -> None:
        if self._registration:
            self.connection.unregister_object(self._registration)
            self._registration = 0

    # -- the report -----------------------------------------------------------------------------

    def settled(self, view: "NavWindowView", version: int) -> None:
        """Appends the line of ``view`` at ``version`` (the version it has finished showing)."""
        line = self.describe(view)
        line["version"] = version
        try:
            with open(self.report, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(line, sort_keys=True) + "\n")
        except OSError as error:
            log.warning("could not write %s: %s", self.report, error)

    def describe(self, view: "NavWindowView") -> dict[str, Any]:
        graph = view.graph
        line: dict[str, Any] = {"bus": self.connection.get_unique_name(), "window": view.path,
                                "version": graph.version if graph is not None else None,
                                "page": None, "modals": [], "dialogs": [],
                                "prepared": [_host(host, model_id) for model_id, host in view.content.prepared.items()],
                                "announcement": _announcement(view), "focus": view.focus_owner(),
                                "renderer": {"role": self.app.role_of(view.path),
                                             "id": self.app.renderer_ids.get(view.path),
                                             "interactive": view.interactive,
                                             "back": view.back_button.is_sensitive(),
                                             "widthClass": view.reported_width_class,
                                             "width": view.window.get_width()},
                                "panes": {str(stack): models for stack, models in view.content.panes().items()}}
        if graph is None:
            return line
        line["page"] = _page(view, graph.focused_leaf(graph.root))
        for model_id, modal in view.modals.items():
            if isinstance(modal, DialogWindow):
                line["dialogs"].append({
                    "model": model_id, "kind": modal.kind, "title": modal.headline.get_label(),
                    "message": modal.message.get_label(), "actions": list(modal.buttons),
                    "visible": modal.get_visible()})
            elif isinstance(modal, ModalWindow) and model_id in graph:
                line["modals"].append({"model": model_id, "style": modal.style, "visible": modal.get_visible(),
                                       "page": _page(view, graph.focused_leaf(model_id))})
        return line

    # -- the methods ----------------------------------------------------------------------------

    def _on_call(self, _c: Gio.DBusConnection, _sender: str, _path: str, _iface: str, method: str,
                 params: GLib.Variant, invocation: Gio.DBusMethodInvocation) -> None:
        try:
            if method == "Describe":
                views = sorted(self.app.views.values(), key=lambda v: v.number)
                text = json.dumps([self.describe(v) for v in views], sort_keys=True)
                invocation.return_value(GLib.Variant("(s)", (text,)))
            elif method == "Type":
                window, model, key, text = params.unpack()
                self._type(self._page_of(window, model), key, text)
                invocation.return_value(None)
            elif method == "ActivateRow":
                window, model, index = params.unpack()
                self._activate_row(self._page_of(window, model), index)
                invocation.return_value(None)
            elif method == "Click":
                window, model, name = params.unpack()
                self._click(window, int(model), name)
                invocation.return_value(None)
            elif method == "Close":
                (window,) = params.unpack()
                view = self.app.views.get(window)
                if view is None:
                    raise ProbeError(f"no window {window} on screen")
                invocation.return_value(None)
                view.window.close()  # close-request: the application reports it (ReportClosed)
            elif method == "Back":
                (window,) = params.unpack()
                view = self.app.views.get(window)
                if view is None:
                    raise ProbeError(f"no window {window} on screen")
                view.go_back()  # what the back button's click does (a mirror's view sends nothing)
                invocation.return_value(None)
            elif method == "Resize":
                window, width, height = params.unpack()
                view = self.app.views.get(window)
                if view is None:
                    raise ProbeError(f"no window {window} on screen")
                if width <= 0 or height <= 0:
                    raise ProbeError(f"a window is at least 1 × 1, not {width} × {height}")
                view.resize(int(width), int(height))
                invocation.return_value(None)
            elif method == "TabMenu":
                window, tabs, tab, choose = params.unpack()
                labels = self._tab_menu(window, int(tabs), tab, choose)
                invocation.return_value(GLib.Variant("(s)", (json.dumps(labels),)))
            elif method == "Screenshot":
                window, model, path = params.unpack()
                view = self.app.views.get(window)
                if view is None:
                    raise ProbeError(f"no window {window} on screen")
                target: Optional[Gtk.Window] = view.window
                if int(model) != 0:
                    target = view.modals.get(int(model))
                    if target is None or not target.get_visible():
                        raise ProbeError(f"no sheet, cover or dialog of model {model} open in {window}")

                def saved(error: Optional[str]) -> None:
                    if error is None:
                        invocation.return_value(None)
                    else:
                        invocation.return_dbus_error(ERROR, error)

                when_still(target, lambda: save_png(target, path), saved,
                           busy=lambda: view.path in self.app.settle_timers)
            else:
                invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)
        except ProbeError as error:
            invocation.return_dbus_error(ERROR, str(error))
        except Exception as error:  # report, never crash the application from a test call
            log.exception("%s failed", method)
            invocation.return_dbus_error(ERROR, f"{type(error).__name__}: {error}")

    def _page_of(self, window: str, model: int) -> Page:
        view = self.app.views.get(window)
        if view is None:
            raise ProbeError(f"no window {window} on screen")
        page = view.pages().get(int(model))
        if page is None:
            raise ProbeError(f"no page of model {model} in {window}")
        return page

    def _click(self, window: str, model: int, name: str) -> None:
        """Clicks the button ``name`` of a dialog's actions, or of the page of ``model`` (see the module)."""
        view = self.app.views.get(window)
        if view is None:
            raise ProbeError(f"no window {window} on screen")
        dialog = view.modals.get(model)
        if isinstance(dialog, DialogWindow):
            button = dialog.buttons.get(name)
            if button is None:
                raise ProbeError(f"the dialog of model {model} has no action {name!r} (it has {list(dialog.buttons)})")
            button.emit("clicked")
            return
        page = self._page_of(window, model)
        found = [b for b in _descendants(page.widget)
                 if isinstance(b, Gtk.Button) and name in (b.get_name(), b.get_label())]
        if not found:
            raise ProbeError(f"no button {name!r} in the page of model {model}")
        if len(found) > 1:
            raise ProbeError(f"{len(found)} buttons {name!r} in the page of model {model}: name one with set_name")
        if not found[0].is_sensitive():
            raise ProbeError(f"the button {name!r} in the page of model {model} is insensitive")
        found[0].emit("clicked")

    def _tab_menu(self, window: str, tabs: int, tab: str, choose: str) -> list[str]:
        """Opens a tab's context menu (see the module); chooses the item ``choose`` when given."""
        view = self.app.views.get(window)
        if view is None:
            raise ProbeError(f"no window {window} on screen")
        tabs_view = view.content.tabs(tabs)
        if tabs_view is None:
            raise ProbeError(f"no tab container {tabs} in {window}")
        if tabs_view.page_button(tab) is None:
            raise ProbeError(f"no tab {tab!r} in the tab container {tabs} of {window}")
        popover = tabs_view.open_menu(tab)
        if popover is None:
            if choose:
                raise ProbeError(f"tab {tab!r} has no context menu: no item {choose!r}")
            return []
        menu = popover.get_menu_model()
        items = []
        for index in range(menu.get_n_items()):
            label = menu.get_item_attribute_value(index, "label", GLib.VariantType.new("s"))
            action = menu.get_item_attribute_value(index, "action", GLib.VariantType.new("s"))
            target = menu.get_item_attribute_value(index, "target", None)
            items.append((label.get_string() if label else "", action.get_string() if action else "", target))
        labels = [label for label, _action, _target in items]
        if not choose:
            tabs_view.close_menu()
            return labels
        chosen = next(((action, target) for label, action, target in items if label == choose), None)
        if chosen is None:
            tabs_view.close_menu()
            raise ProbeError(f"tab {tab!r}'s menu has no item {choose!r} (it has {labels})")
        # What a click on the item does: the menu closes, its action runs in the menu's place (the tab view's).
        popover.popdown()
        if not popover.activate_action(chosen[0], chosen[1]):
            raise ProbeError(f"the action {chosen[0]} of {choose!r} is not available")
        return labels

    @staticmethod
    def _type(page: Page, key: str, text: str) -> None:
        fields = [(k, w) for k, kind, w in tracked(page.widget) if kind == DRAFT]
        field = next((w for k, w in fields if k == key), None) if key else (fields[0][1] if fields else None)
        if field is None:
            raise ProbeError(f"no text field {key or 'at all'} in the page of model {page.model_id}")
        if isinstance(field, Gtk.TextView):
            field.get_buffer().set_text(text, -1)
        else:
            field.set_text(text)  # type: ignore[attr-defined]

    @staticmethod
    def _activate_row(page: Page, index: int) -> None:
        for widget in _descendants(page.widget):
            if isinstance(widget, Gtk.ListBox):
                row = widget.get_row_at_index(index)
                if row is None:
                    raise ProbeError(f"the list of model {page.model_id} has no row {index}")
                widget.select_row(row)
                row.emit("activate")
                return
        raise ProbeError(f"no Gtk.ListBox in the page of model {page.model_id}")


# -- screenshots ------------------------------------------------------------------------------------------------

#: How long :func:`when_still` waits for a window to be still (milliseconds).
STILL_BOUND_MS = 10_000


class ScreenshotError(Exception):
    pass


def still(window: Gtk.Window) -> bool:
    """Whether ``window`` is mapped with no ``Gtk.Stack`` transition running and no ``Gtk.Revealer`` on its way
    (:func:`when_still` also waits for its size to stay the same from one frame to the next)."""
    if not window.get_mapped() or window.get_width() <= 0 or window.get_height() <= 0:
        return False
    for widget in _descendants(window):
        if isinstance(widget, Gtk.Stack) and widget.get_transition_running():
            return False
        if isinstance(widget, Gtk.Revealer) and widget.get_reveal_child() != widget.get_child_revealed():
            return False
    return True


def when_still(window: Gtk.Window, action: Callable[[], None], done: Callable[[Optional[str]], None], *,
               busy: Callable[[], bool] = lambda: False, bound_ms: int = STILL_BOUND_MS) -> None:
    """Runs ``action`` once ``window`` is :func:`still`, ``busy()`` is false and the window's size has stayed the same
    for two frames in a row and one more frame has been painted, then ``done(None)``; ``done(message)`` when
    ``action`` raises or after ``bound_ms``. Driven by the window's frame clock (a tick callback keeps it ticking
    meanwhile): nothing sleeps."""
    state: dict[str, Any] = {"calm": 0, "tick": 0, "paint": 0, "clock": None, "timer": 0, "over": False,
                             "size": None}

    def calm() -> bool:
        size, state["size"] = state["size"], (window.get_width(), window.get_height())
        return still(window) and not busy() and size == state["size"]

    def finish(error: Optional[str]) -> None:
        if state["over"]:
            return
        state["over"] = True
        if state["tick"]:
            window.remove_tick_callback(state["tick"])
        if state["paint"] and state["clock"] is not None:
            state["clock"].disconnect(state["paint"])
        if state["timer"]:
            GLib.source_remove(state["timer"])
        done(error)

    def painted(_clock: Gdk.FrameClock) -> None:
        if state["over"]:
            return
        if not calm():  # moved again between the frames: wait on
            state["clock"].disconnect(state["paint"])
            state["paint"], state["calm"] = 0, 0
            state["tick"] = window.add_tick_callback(tick)
            return
        try:
            action()
        except Exception as error:  # noqa: BLE001 - reported to the caller
            finish(f"{type(error).__name__}: {error}")
            return
        finish(None)

    def tick(_widget: Gtk.Widget, clock: Gdk.FrameClock) -> bool:
        state["calm"] = state["calm"] + 1 if calm() else 0
        if state["calm"] < 2:
            return GLib.SOURCE_CONTINUE
        state["tick"], state["clock"] = 0, clock
        state["paint"] = clock.connect("after-paint", painted)
        window.queue_draw()
        return GLib.SOURCE_REMOVE

    def expired() -> bool:
        state["timer"] = 0
        finish(f"the window was not still within {bound_ms} ms (mapped: {window.get_mapped()}, "
               f"still: {still(window)}, busy: {busy()})")
        return GLib.SOURCE_REMOVE

    if not window.get_visible():  # hidden or closed: it will not be drawn again
        done("the window is not shown")
        return
    state["timer"] = GLib.timeout_add(bound_ms, expired)
    state["tick"] = window.add_tick_callback(tick)


def save_png(window: Gtk.Window, path: str) -> None:
    """Saves ``window`` as a PNG drawn by GTK's own renderer: ``Gtk.WidgetPaintable`` → ``Gtk.Snapshot`` → render
    node → ``Gsk.Renderer.render_texture`` → ``Gdk.Texture.save_to_png``. No X tools; works under Xvfb.

    PyGObject before 3.44 (Debian 12 has 3.42) cannot carry a ``GskRenderNode`` (a fundamental type) across Python,
    so there the node step calls the same three GTK functions through ctypes."""
    width, height = window.get_width(), window.get_height()
    if width <= 0 or height <= 0:
        raise ScreenshotError("the window is not mapped yet")
    snapshot = Gtk.Snapshot()
    Gtk.WidgetPaintable.new(window).snapshot(snapshot, width, height)
    renderer = window.get_native().get_renderer()
    if not _nodes_reach_python():
        _save_with_ctypes(snapshot, renderer, width, height, path)
        return
    node = snapshot.to_node()
    if node is None:
        raise ScreenshotError("nothing drawn yet")
    texture = renderer.render_texture(node, Graphene.Rect().init(0, 0, width, height))
    if not texture.save_to_png(path):
        raise ScreenshotError(f"could not write {path}")


_nodes_probed: Optional[bool] = None


def _nodes_reach_python() -> bool:
    """Whether this PyGObject can return a render node (tried once, on a throwaway snapshot)."""
    global _nodes_probed
    if _nodes_probed is None:
        probe = Gtk.Snapshot()
        probe.append_color(Gdk.RGBA(), Graphene.Rect().init(0, 0, 1, 1))
        try:
            probe.to_node()
            _nodes_probed = True
        except TypeError:
            _nodes_probed = False
    return _nodes_probed


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("width", ctypes.c_float), ("height", ctypes.c_float)]


def _pointer(obj: object) -> int:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return int(get(obj.__gpointer__, None))  # type: ignore[attr-defined]


def _save_with_ctypes(snapshot: Gtk.Snapshot, renderer: object, width: int, height: int, path: str) -> None:
    gtk = ctypes.CDLL("libgtk-4.so.1")
    p = ctypes.c_void_p
    gtk.gtk_snapshot_to_node.restype, gtk.gtk_snapshot_to_node.argtypes = p, [p]
    gtk.gsk_renderer_render_texture.restype = p
    gtk.gsk_renderer_render_texture.argtypes = [p, p, ctypes.POINTER(_Rect)]
    gtk.gdk_texture_save_to_png.restype, gtk.gdk_texture_save_to_png.argtypes = ctypes.c_bool, [p, ctypes.c_char_p]
    gtk.gsk_render_node_unref.argtypes = [p]
    gtk.g_object_unref.argtypes = [p]
    node = gtk.gtk_snapshot_to_node(_pointer(snapshot))
    if not node:
        raise ScreenshotError("nothing drawn yet")
    try:
        texture = gtk.gsk_renderer_render_texture(_pointer(renderer), node, ctypes.byref(_Rect(0, 0, width, height)))
        try:
            if not gtk.gdk_texture_save_to_png(texture, path.encode()):
                raise ScreenshotError(f"could not write {path}")
        finally:
            gtk.g_object_unref(texture)
    finally:
        gtk.gsk_render_node_unref(node)


def _descendants(root: Gtk.Widget | None) -> list[Gtk.Widget]:
    """``root`` and every widget below it, breadth first (the order ActivateRow finds "the first" list in)."""
    found: list[Gtk.Widget] = []
    pending = [root] if root is not None else []
    while pending:
        widget = pending.pop(0)
        found.append(widget)
        child = widget.get_first_child()
        while child is not None:
            pending.append(child)
            child = child.get_next_sibling()
    return found


def _announcement(view: "NavWindowView") -> dict[str, Any] | None:
    said = view.announcement
    if said is None:
        return None
    role = view.status_label.get_accessible_role()
    return {"version": said.version, "text": said.text, "focusModel": said.focus_model,
            "status": view.status_label.get_label(), "role": role.value_nick if role is not None else None}


def _page(view: "NavWindowView", model_id: int) -> dict[str, Any] | None:
    return _host(view.content.widgets.get(model_id), model_id)


def _host(host: Any, model_id: int) -> dict[str, Any] | None:
    if not isinstance(host, PageHost):
        return None
    page = host.page
    widget = page.widget
    factory = page.factory if isinstance(page, WidgetPage) else type(page)
    try:
        state: Any = page.save_state()
    except Exception as error:  # the application's save_state: reported, not raised
        state = {"error": f"{type(error).__name__}: {error}"}
    return {"model": model_id, "screen": page.screen, "page": type(page).__name__,
            "factory": getattr(factory, "__name__", type(factory).__name__),
            "widget": widget.__gtype__.name if widget is not None else None,
            "name": widget.get_name() if widget is not None else None,
            "inWindow": widget is not None and isinstance(widget.get_root(), Gtk.Window),
            "title": page.context.title, "params": dict(page.params), "state": state, "protected": page.protected}
