"""Widgets for the non-presented part of a window's graph, kept by model id across renders.

screen → a :class:`~navsession.gtk.pages.PageHost` holding the page the application's factory made for it
(pages.py); stack → Gtk.Stack of pages (slide left/right); tabs →
Gtk.StackSwitcher over a Gtk.Stack, each tab's button with a context menu (a right-click, or Shift+F10 or the Menu
key on a focused tab: move the tab to a new window or into another one); switched → Gtk.Stack (crossfade); custom → a segmented switcher over its
children (the selected one shown), or, for the kind ``split``, its children side by side as columns (the selected
one is the focused column) that collapse to the focused column alone in a narrow window. A stack whose top pages the
window's ``VisibleModels`` lists together (a scene's panes at the reported width class, Docs/panes.md) shows them side
by side, in columns, instead of its top page alone. The main window's content sits in a SwipeFrame, which shifts it
right while a back swipe is allowed (swipe.py).
Visible changes are returned as animator Actions instead of being carried out here.
"""

from __future__ import annotations

from typing import Callable

from gi.repository import Gdk, Gio, GLib, Graphene, Gsk, Gtk

from .animator import Action
from .graph import Graph
from .pages import Page, PageHost, SingleChild, model_params

OnTabSelected = Callable[[int, str], None]  # (tabs model, tab id), from the user
MakePage = Callable[[Graph, int], Page]  # (graph, screen model) → the page the application's factory made
OnChanged = Callable[[], None]  # something shown changed without a D-Bus event (a transition ended)
OnChildSelected = Callable[[int, int], None]  # (custom container, child model), from the user
OnCollapsed = Callable[[int, bool], None]  # (split, collapsed), when the window's width crosses the breakpoint
TabMenu = Callable[[int, str], "Gio.MenuModel | None"]  # (tabs model, tab id) → the tab's context menu, or none

#: The prefix of the window's actions (``navigation.move-model``) the tabs' context menus name: each TabsView has
#: the window's action group under it, so its menus work in a sheet's window too.
ACTIONS = "navigation"


def _nothing() -> None:
    pass


class SwipeFrame(SingleChild, Gtk.Widget):
    """The main window's content area: its one child, given the frame's whole size, drawn and picked ``offset``
    pixels to the right (a translate in its allocation, so nothing reflows), clipped to the frame. The back swipe
    (swipe.py) sets the offset only while the daemon allows the back."""

    def __init__(self) -> None:
        super().__init__(hexpand=True, vexpand=True, overflow=Gtk.Overflow.HIDDEN)
        self.offset = 0.0
        self._adopt_on_destroy()

    def set_child(self, child: Gtk.Widget | None) -> None:
        self._adopt(child)

    def set_offset(self, offset: float) -> None:
        if offset != self.offset:
            self.offset = offset
            self.queue_allocate()

    def do_measure(self, orientation: Gtk.Orientation, for_size: int) -> tuple[int, int, int, int]:
        if self._child is None or not self._child.get_visible():
            return 0, 0, -1, -1
        return self._child.measure(orientation, for_size)

    def do_size_allocate(self, width: int, height: int, baseline: int) -> None:
        if self._child is None or not self._child.get_visible():
            return
        transform = Gsk.Transform.new().translate(Graphene.Point().init(self.offset, 0)) if self.offset else None
        self._child.allocate(width, height, baseline, transform)


class StackView(Gtk.Stack):
    """A navigation stack: one child per path element, named by model id, the last one visible — or, with panes
    (:meth:`show_panes`), its top pages side by side in one child named :data:`PANES`."""

    #: The name of the child that holds the panes.
    PANES = "panes"

    def __init__(self, on_changed: OnChanged = _nothing) -> None:
        super().__init__(hexpand=True, vexpand=True, transition_duration=200)
        self.model_id = 0
        self.path: list[int] = []
        #: The models shown side by side (the path's top ones, in order); ``[]``: the top page alone.
        self.panes: list[int] = []
        self.panes_box: Gtk.Box | None = None
        self._pane_widgets: list[Gtk.Widget] = []
        # Called when a transition ended and its old pages are pruned: what is shown changed then without any
        # D-Bus event (the application's screen_changed).
        self._on_changed = on_changed
        self.connect("notify::transition-running", lambda *_: self.prune())

    def show_panes(self, panes: list[int], widgets: list[Gtk.Widget]) -> None:
        """Shows the pages ``widgets`` (of the models ``panes``, the path's top ones) side by side, each in a column,
        at once; ``[]`` takes the panes down (their pages go back into the stack as the path's elements: the caller
        adds them)."""
        if panes and panes == self.panes and all(a is b for a, b in zip(widgets, self._pane_widgets)):
            return
        box = self.panes_box
        if box is not None:
            child = box.get_first_child()
            while child is not None:
                following = child.get_next_sibling()
                if isinstance(child, Column):
                    child.set_child(None)
                box.remove(child)
                child = following
        self.panes, self._pane_widgets = list(panes), list(widgets)
        if not panes:
            if box is not None:
                top = str(self.path[-1]) if self.path else None
                if top is not None and self.get_child_by_name(top) is not None:
                    self.set_visible_child_full(top, Gtk.StackTransitionType.NONE)
                self.remove(box)
                self.panes_box = None
            return
        if box is None:
            box = self.panes_box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=1, homogeneous=True,
                                           hexpand=True, vexpand=True)
            box.add_css_class("navsession-panes")
            self.add_named(box, self.PANES)
        for widget in widgets:
            column = Column()
            _detach(widget, column)
            column.set_child(widget)
            box.append(column)
        self.set_visible_child_full(self.PANES, Gtk.StackTransitionType.NONE)

    def prune(self) -> None:
        """Removes pages that left the path, once no transition shows them."""
        if self.get_transition_running():
            return
        keep = {str(i) for i in self.path} | ({self.PANES} if self.panes else set())
        child = self.get_first_child()
        while child is not None:
            following = child.get_next_sibling()
            if self.get_page(child).get_name() not in keep:
                self.remove(child)
            child = following
        self._on_changed()


class TabsView(Gtk.Box):
    """Tabs: a Gtk.StackSwitcher over a Gtk.Stack of tab pages named by tab id.

    A click on the switcher is not applied: the stack goes back to the daemon's selected tab and the
    selection is reported; GetState then selects it. A click on the selected tab is reported too (the daemon
    applies the container's reselect policy: the demo pops the tab to its root). A right-click on a tab's button
    opens its context menu (:meth:`open_menu`: what ``tab_menu`` makes for it, whose items name the actions of
    ``actions``, inserted here under the prefix :data:`ACTIONS`)."""

    def __init__(self, on_selected: OnTabSelected, tab_menu: TabMenu | None = None,
                 actions: Gio.ActionGroup | None = None) -> None:
        super().__init__(orientation=Gtk.Orientation.VERTICAL)
        self.model_id = 0
        self.selected = ""
        self.tab_models: dict[str, int] = {}
        self._updating = False
        self._on_selected = on_selected
        self._tab_menu = tab_menu
        #: The open context menu (a popover parented to this view, pointing at its tab's button), if any.
        self.menu: Gtk.PopoverMenu | None = None
        if actions is not None:
            self.insert_action_group(ACTIONS, actions)
        self._connected: list[Gtk.Widget] = []
        self.stack = Gtk.Stack(hexpand=True, vexpand=True, transition_duration=200)
        self.switcher = Gtk.StackSwitcher(stack=self.stack, halign=Gtk.Align.CENTER, margin_top=6, margin_bottom=6)
        # The tab bar shows and hides through a revealer (appearance `tabBar`, a stack's tab-bar rule).
        self.bar = Gtk.Revealer(child=self.switcher, reveal_child=True, transition_duration=200,
                                transition_type=Gtk.RevealerTransitionType.SLIDE_DOWN)
        self.append(self.bar)
        self.append(self.stack)
        self.stack.connect("notify::visible-child-name", self._visible_changed)

    def show_bar(self, visible: bool, animate: bool) -> None:
        """Shows or hides the tab bar, sliding when ``animate``."""
        self.bar.set_transition_type(
            Gtk.RevealerTransitionType.SLIDE_DOWN if animate else Gtk.RevealerTransitionType.NONE)
        self.bar.set_reveal_child(visible)

    def show_tab(self, tab: str, transition: Gtk.StackTransitionType) -> None:
        self._updating = True
        try:
            self.stack.set_visible_child_full(tab, transition)
        finally:
            self._updating = False

    def _visible_changed(self, *_: object) -> None:
        name = self.stack.get_visible_child_name()
        if self._updating or name is None or name == self.selected:
            return
        self.show_tab(self.selected, Gtk.StackTransitionType.NONE)
        self._on_selected(self.model_id, name)

    def connect_buttons(self) -> None:
        """Watches every switcher button for clicks (after the pages changed); a click on the selected tab's
        button does not change the visible page, so only ``clicked`` tells it."""
        button = self.switcher.get_first_child()
        while button is not None:
            if not any(button is known for known in self._connected):
                self._connected.append(button)
                button.connect("clicked", self._clicked)
                if self._tab_menu is not None:
                    secondary = Gtk.GestureClick(button=Gdk.BUTTON_SECONDARY)
                    secondary.connect("pressed", self._secondary_pressed)
                    button.add_controller(secondary)
                    # The keyboard's context-menu keys on a focused tab open the same menu.
                    keys = Gtk.ShortcutController()
                    keys.add_shortcut(Gtk.Shortcut.new(Gtk.ShortcutTrigger.parse_string("<Shift>F10|Menu"),
                                                       Gtk.CallbackAction.new(self._menu_key)))
                    button.add_controller(keys)
            button = button.get_next_sibling()

    def _secondary_pressed(self, gesture: Gtk.GestureClick, _n: int, _x: float, _y: float) -> None:
        tab = self.tab_of(gesture.get_widget())
        if tab is not None and self.open_menu(tab) is not None:
            gesture.set_state(Gtk.EventSequenceState.CLAIMED)

    def _menu_key(self, button: Gtk.Widget, _args: GLib.Variant | None) -> bool:
        tab = self.tab_of(button)
        return tab is not None and self.open_menu(tab) is not None

    def tab_of(self, button: Gtk.Widget | None) -> str | None:
        """The tab id of a switcher button (its children follow the pages' order)."""
        child = self.switcher.get_first_child()
        for name in [p.get_name() for p in _pages(self.stack)]:
            if child is None:
                return None
            if child is button:
                return name
            child = child.get_next_sibling()
        return None

    def open_menu(self, tab: str) -> Gtk.PopoverMenu | None:
        """Opens ``tab``'s context menu at its button, as a right-click on it does (``None``: the tab has none, or
        there is no such tab). A menu already open closes first."""
        self.close_menu()
        button = self.page_button(tab)
        model = self._tab_menu(self.model_id, tab) if self._tab_menu is not None and button is not None else None
        if button is None or model is None or model.get_n_items() == 0:
            return None
        popover = Gtk.PopoverMenu.new_from_model(model)
        popover.set_has_arrow(True)
        popover.set_parent(self)  # this view outlives the button: a move of this very tab removes the button
        found, bounds = button.compute_bounds(self)
        if found:
            popover.set_pointing_to(Gdk.Rectangle(int(bounds.get_x()), int(bounds.get_y()),
                                                  int(bounds.get_width()), int(bounds.get_height())))
        popover.connect("closed", self._menu_closed)
        self.menu = popover
        popover.popup()
        return popover

    def close_menu(self) -> None:
        """Closes the context menu, if one is open."""
        popover, self.menu = self.menu, None
        if popover is not None:
            popover.popdown()
            if popover.get_parent() is not None:
                popover.unparent()

    def _menu_closed(self, popover: Gtk.PopoverMenu) -> None:
        def unparent() -> bool:
            # After the chosen item's action ran (a popover closes before its item activates).
            if self.menu is popover:
                self.menu = None
            if popover.get_parent() is not None:
                popover.unparent()
            return GLib.SOURCE_REMOVE

        GLib.idle_add(unparent)

    def _clicked(self, button: Gtk.Widget) -> None:
        # A click on another tab has already been reported (and the page put back) by _visible_changed.
        names = [p.get_name() for p in _pages(self.stack)]
        child = self.switcher.get_first_child()
        for name in names:
            if child is None:
                return
            if child is button:
                if not self._updating and name == self.selected:
                    self._on_selected(self.model_id, name)
                return
            child = child.get_next_sibling()

    def page_button(self, tab: str) -> Gtk.ToggleButton | None:
        """The switcher's button for ``tab`` (its children follow the pages' order)."""
        names = [p.get_name() for p in _pages(self.stack)]
        button = self.switcher.get_first_child()
        for name in names:
            if button is None:
                return None
            if name == tab:
                return button  # type: ignore[return-value]
            button = button.get_next_sibling()
        return None


class SwitchedView(Gtk.Stack):
    """A switched container: its shown model, crossfading when it switches."""

    def __init__(self, on_changed: OnChanged = _nothing) -> None:
        super().__init__(hexpand=True, vexpand=True, transition_duration=200)
        self.model_id = 0
        self.shown = 0
        self._on_changed = on_changed
        self.connect("notify::transition-running", lambda *_: self.prune())

    def prune(self) -> None:
        if self.get_transition_running():
            return
        child = self.get_first_child()
        while child is not None:
            following = child.get_next_sibling()
            if self.get_page(child).get_name() != str(self.shown):
                self.remove(child)
            child = following
        self._on_changed()


class CustomView(Gtk.Box):
    """A custom container: a segmented switcher (one toggle button per child) over its children.

    Any kind shows the selected child only; the kind ``split`` shows every child side by side as columns, the
    selected one (the focused column) marked, and collapses to the focused column alone when narrower than
    ``COLLAPSE_WIDTH``. A click on a segment is not applied: the buttons snap back to the daemon's selection and
    the choice is reported (ReportChildSelected); GetState then selects it."""

    COLLAPSE_WIDTH = 600

    def __init__(self, on_selected: OnChildSelected | None = None, on_collapsed: OnCollapsed | None = None,
                 on_changed: OnChanged = _nothing) -> None:
        super().__init__(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        self._on_changed = on_changed
        self.model_id = 0
        self.kind = "custom"
        # A split's column visibility and the collapsed form the daemon has (the binding reports its own).
        self.visibility = "automatic"
        self.reported_collapsed = False
        self.measured = False
        self._on_collapsed = on_collapsed
        self.children_ids: list[int] = []
        self.selected: int | None = None
        self.collapsed = False
        self._on_selected = on_selected
        self._updating = False
        self.buttons: dict[int, Gtk.ToggleButton] = {}
        self.switcher = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, halign=Gtk.Align.CENTER, margin_top=6)
        self.switcher.add_css_class("linked")
        self.body = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=1, hexpand=True, vexpand=True,
                            homogeneous=True)
        # GTK 4.8 has no breakpoints: a zero-height drawing area across the view reports the width it gets.
        self.ruler = Gtk.DrawingArea(hexpand=True, content_height=1)
        self.ruler.connect("resize", self._resized)
        self.append(self.switcher)
        self.append(self.body)
        self.append(self.ruler)
        self.columns: dict[int, Gtk.Widget] = {}
        self.frames: dict[int, Column] = {}

    def show(self, kind: str, children: list[int], selected: int | None, built: dict[int, Gtk.Widget],
             labels: dict[int, str]) -> None:
        self.kind, self.selected = kind, selected
        if children != self.children_ids or any(self.columns.get(c) is not built[c] for c in children):
            self._updating = True
            try:
                for button in list(self.buttons.values()):
                    self.switcher.remove(button)
                self.buttons = {}
                for frame in list(self.frames.values()):
                    frame.set_child(None)
                    self.body.remove(frame)
                self.columns, self.frames = {}, {}
                group: Gtk.ToggleButton | None = None
                for child_id in children:
                    button = Gtk.ToggleButton(label=labels.get(child_id, str(child_id)))
                    if group is not None:
                        button.set_group(group)
                    group = group or button
                    button.connect("toggled", self._toggled, child_id)
                    self.buttons[child_id] = button
                    self.switcher.append(button)
                    frame = Column()
                    _detach(built[child_id], frame)
                    frame.set_child(built[child_id])
                    self.columns[child_id] = built[child_id]
                    self.frames[child_id] = frame
                    self.body.append(frame)
            finally:
                self._updating = False
            self.children_ids = list(children)
        self._apply()
        self._report_collapsed()

    def _report_collapsed(self) -> None:
        """Tells the daemon the form this split is shown in, when it has another (ReportCollapsed)."""
        if self.kind == "split" and self.measured and self.collapsed != self.reported_collapsed \
                and self._on_collapsed is not None:
            self.reported_collapsed = self.collapsed
            self._on_collapsed(self.model_id, self.collapsed)

    def _apply(self) -> None:
        """Buttons follow the daemon's selection; columns are shown per kind and width."""
        self._updating = True
        try:
            for child_id, button in self.buttons.items():
                button.set_label(button.get_label() or str(child_id))
                button.set_active(child_id == self.selected)
        finally:
            self._updating = False
        side_by_side = self.kind == "split" and not self.collapsed
        shown = list(self.frames)
        if side_by_side and self.visibility == "detailOnly":
            shown = shown[-1:]
        elif side_by_side and self.visibility == "doubleColumn" and len(shown) == 3:
            shown = shown[1:]
        for child_id, frame in self.frames.items():
            frame.set_visible((side_by_side and child_id in shown) or child_id == self.selected)
            if side_by_side and child_id == self.selected:
                frame.add_css_class("view")
            else:
                frame.remove_css_class("view")

    def _resized(self, _area: Gtk.DrawingArea, width: int, _height: int) -> None:
        collapsed = width < self.COLLAPSE_WIDTH
        first = not self.measured
        self.measured = True
        if collapsed != self.collapsed or first:
            self.collapsed = collapsed
            GLib.idle_add(self._relayout)  # not while GTK allocates

    def _relayout(self) -> bool:
        self._apply()
        self._report_collapsed()
        self._on_changed()
        return False

    def _toggled(self, button: Gtk.ToggleButton, child_id: int) -> None:
        if self._updating or not button.get_active() or child_id == self.selected:
            return
        self._apply()  # snap back until the daemon says so
        if self._on_selected is not None:
            self._on_selected(self.model_id, child_id)


class Column(Gtk.ScrolledWindow):
    """One child of a custom container; it may shrink below its child's width, so a narrow window can collapse
    a split to its focused column."""

    def __init__(self) -> None:
        super().__init__(hexpand=True, vexpand=True, has_frame=True, hscrollbar_policy=Gtk.PolicyType.EXTERNAL,
                         vscrollbar_policy=Gtk.PolicyType.NEVER)


def _pages(stack: Gtk.Stack) -> list[Gtk.StackPage]:
    pages = stack.get_pages()
    return [pages.get_item(i) for i in range(pages.get_n_items())]


def _detach(widget: Gtk.Widget, new_parent: Gtk.Widget) -> None:
    parent = widget.get_parent()
    if parent is None or parent is new_parent:
        return
    if isinstance(parent, Gtk.Stack):
        parent.remove(widget)
    elif isinstance(parent, Gtk.Viewport):
        parent.set_child(None)
        scrolled = parent.get_parent()
        if isinstance(scrolled, Gtk.ScrolledWindow):
            scrolled.set_child(None)
    elif isinstance(parent, Gtk.ScrolledWindow):
        parent.set_child(None)
    elif isinstance(parent, Gtk.Box):
        parent.remove(widget)
    elif isinstance(parent, SwipeFrame):
        parent.set_child(None)
    else:
        widget.unparent()


class GraphView:
    """Builds and updates the widget of any model; one per navigation window.

    Containers are this module's views; a screen is a :class:`~navsession.gtk.pages.PageHost` around the page
    ``make_page`` returns for it (the application's factory for the screen, else the placeholder), made once per
    model and told about new params or a new title afterwards. ``widgets`` maps model ids to what was built;
    ``prepared`` holds the pages made ahead for prepared models (:meth:`prepare`), which :meth:`build` takes
    when the graph first has their model."""

    def __init__(self, on_tab_selected: OnTabSelected, make_page: MakePage,
                 on_child_selected: OnChildSelected | None = None, on_collapsed: OnCollapsed | None = None,
                 on_changed: OnChanged = _nothing, tab_menu: TabMenu | None = None,
                 actions: Gio.ActionGroup | None = None) -> None:
        self._make_page = make_page
        self._tab_menu = tab_menu
        self._actions = actions
        self._on_child_selected = on_child_selected
        self._on_collapsed = on_collapsed
        self._on_changed = on_changed
        self.widgets: dict[int, Gtk.Widget] = {}
        #: The pages made ahead for prepared models (Window1 ``Prepare``), by the id the model will have: in no
        #: container and not in ``widgets`` until a render's graph has that model (:meth:`build` takes it then).
        self.prepared: dict[int, PageHost] = {}
        self._on_tab_selected = on_tab_selected
        #: The window's ``VisibleModels`` (Docs/panes.md): a stack whose top pages it lists together shows them side
        #: by side.
        self.visible: list[int] = []
        #: Whether the switchers (tabs, segments) take clicks: not in a mirror's view.
        self.interactive = True

    def set_visible_models(self, models: list[int]) -> bool:
        """The window's ``VisibleModels``; whether they changed."""
        if models == self.visible:
            return False
        self.visible = list(models)
        return True

    def panes_of(self, path: list[int]) -> list[int]:
        """The elements of a stack's ``path`` shown side by side: its top ones that ``VisibleModels`` lists, when
        there are two or more of them in a row at the top; else ``[]`` (the top page alone)."""
        listed = set(self.visible)
        shown = [element for element in path if element in listed]
        if len(shown) >= 2 and shown == path[-len(shown):]:
            return shown
        return []

    def panes(self) -> dict[int, list[int]]:
        """Stack id → the models it shows side by side, for every stack showing panes now."""
        return {model_id: list(w.panes) for model_id, w in self.widgets.items() if isinstance(w, StackView) and w.panes}

    def apply_interactive(self) -> None:
        """The tab and segment switchers take clicks only when :attr:`interactive` (not in a mirror's view)."""
        for widget in self.widgets.values():
            if isinstance(widget, (TabsView, CustomView)):
                widget.switcher.set_sensitive(self.interactive)

    def forget_missing(self, graph: Graph) -> None:
        """Drops the widgets of models the graph no longer has; their pages are closed (their models finished)."""
        for model_id in [i for i in self.widgets if i not in graph]:
            widget = self.widgets.pop(model_id)
            if isinstance(widget, PageHost):
                widget.close()

    def prepare(self, model_id: int, make: Callable[[], Page]) -> None:
        """Makes the page of a prepared model ahead (``make()``: the page its screen's factory made), unless it is
        made already or the model is shown."""
        if model_id not in self.widgets and model_id not in self.prepared:
            self.prepared[model_id] = PageHost(make())

    def forget_prepared(self, keep: set[int]) -> None:
        """Closes the pages made ahead for models no longer prepared (dropped or expired) and never shown."""
        for model_id in [i for i in self.prepared if i not in keep]:
            self.prepared.pop(model_id).close()

    def close(self) -> None:
        """The window goes: every page is closed (those made ahead too)."""
        for widget in self.widgets.values():
            if isinstance(widget, PageHost):
                widget.close()
            elif isinstance(widget, TabsView):
                widget.close_menu()
        self.widgets.clear()
        self.forget_prepared(set())

    def tabs(self, model_id: int) -> TabsView | None:
        """The view of tab container ``model_id``, when it was built."""
        widget = self.widgets.get(model_id)
        return widget if isinstance(widget, TabsView) else None

    def pages(self) -> dict[int, Page]:
        """The page of every screen built, by model id."""
        return {model_id: w.page for model_id, w in self.widgets.items() if isinstance(w, PageHost)}

    def build(self, graph: Graph, model_id: int, actions: list[Action]) -> Gtk.Widget:
        kind = graph.kind(model_id)
        widget = self.widgets.get(model_id)
        if widget is None and model_id in self.prepared:
            # A prepared model shown (a push named its id): the page made ahead, refreshed below like a kept one.
            widget = self.widgets[model_id] = self.prepared.pop(model_id)
        wanted = {"stack": StackView, "tabs": TabsView, "switched": SwitchedView, "custom": CustomView}.get(kind, PageHost)
        if not isinstance(widget, wanted):
            if isinstance(widget, PageHost):
                widget.close()
            if wanted is TabsView:
                widget = TabsView(self._on_tab_selected, self._tab_menu, self._actions)
            elif wanted is PageHost:
                widget = PageHost(self._make_page(graph, model_id))
            elif wanted is CustomView:
                widget = CustomView(self._on_child_selected, self._on_collapsed, self._on_changed)
            else:
                widget = wanted(self._on_changed)
            if isinstance(widget, (TabsView, CustomView)):
                widget.switcher.set_sensitive(self.interactive)
            self.widgets[model_id] = widget
            fresh = True
        else:
            fresh = False
        widget.model_id = model_id  # type: ignore[attr-defined]
        if isinstance(widget, PageHost):
            if not fresh:
                widget.refresh(model_params(graph[model_id]), graph.screen_title(model_id))
        elif isinstance(widget, StackView):
            self._stack(graph, widget, fresh, actions)
        elif isinstance(widget, TabsView):
            self._tabs(graph, widget, fresh, actions)
        elif isinstance(widget, SwitchedView):
            self._switched(graph, widget, fresh, actions)
        elif isinstance(widget, CustomView):
            model = graph[model_id]
            children = [int(c) for c in model.get("children", [])]
            index = int(model.get("selected", len(children) - 1))
            selected = children[index] if 0 <= index < len(children) else None
            built = {child_id: self.build(graph, child_id, actions) for child_id in children}
            widget.visibility = str(model.get("columnVisibility", "automatic"))
            widget.reported_collapsed = bool(model.get("collapsed", False))
            widget.show(str(model.get("customKind", "custom")), children, selected, built,
                        {child_id: self._label(graph, child_id) for child_id in children})
        return widget

    @staticmethod
    def _label(graph: Graph, model_id: int) -> str:
        """A segment's label: the title of the screen its branch starts with (a stack's root)."""
        current = model_id
        while graph.kind(current) == "stack" and graph.path(current):
            current = graph.path(current)[0]
        return graph.screen_title(current)

    def _stack(self, graph: Graph, view: StackView, fresh: bool, actions: list[Action]) -> None:
        old_path, path = view.path, graph.path(view.model_id)
        view.path = path
        panes = self.panes_of(path)
        for element in path:
            child = self.build(graph, element, actions)
            if element not in panes and child.get_parent() is not view:
                _detach(child, view)
                view.add_titled(child, str(element), graph.screen_title(element))
        if panes or view.panes:
            # Panes come, change and go at once (a width class or a change of the panes' stack): no slide.
            view.show_panes(panes, [self.widgets[element] for element in panes])
            if panes:
                view.prune()
                return
            fresh = True
        if not path:
            return
        top = str(path[-1])
        if fresh or view.get_visible_child_name() is None:
            view.set_visible_child_full(top, Gtk.StackTransitionType.NONE)
            view.prune()
            return
        if view.get_visible_child_name() == top:
            view.prune()
            return
        kind = "pop" if path[-1] in old_path else "push"
        transition = Gtk.StackTransitionType.SLIDE_RIGHT if kind == "pop" else Gtk.StackTransitionType.SLIDE_LEFT
        if kind == "push" and path[0] not in old_path:
            kind, transition = "switch", Gtk.StackTransitionType.CROSSFADE

        def run(animate: bool) -> None:
            view.set_visible_child_full(top, transition if animate else Gtk.StackTransitionType.NONE)
            view.prune()

        ids = frozenset(path) | frozenset(old_path) | {view.model_id}
        actions.append(Action(kind, ids, run))

    def _tabs(self, graph: Graph, view: TabsView, fresh: bool, actions: list[Action]) -> None:
        model = graph[view.model_id]
        tabs = model.get("tabs", [])
        wanted = [str(t["id"]) for t in tabs]
        # Rebuild the pages when the tab list or a tab's model changed.
        current = {p.get_name(): p.get_child() for p in _pages(view.stack)}
        models = {str(t["id"]): int(t["model"]) for t in tabs}
        if list(current) != wanted or any(view.tab_models.get(t) != models[t] for t in wanted):
            view._updating = True
            try:
                for child in current.values():
                    view.stack.remove(child)
                for tab in tabs:
                    child = self.build(graph, int(tab["model"]), actions)
                    _detach(child, view.stack)
                    view.stack.add_titled(child, str(tab["id"]), str(tab.get("title") or tab["id"]))
            finally:
                view._updating = False
            view.connect_buttons()
            fresh = True
        else:
            for tab in tabs:
                self.build(graph, int(tab["model"]), actions)
        view.tab_models = models
        bar_visible, bar_animated = graph.tab_bar(view.model_id)
        if fresh:
            view.show_bar(bar_visible, False)
        elif view.bar.get_reveal_child() != bar_visible:
            actions.append(Action("tabBar", frozenset({view.model_id}),
                                  lambda animate: view.show_bar(bar_visible, animate and bar_animated)))
        selected = str(model.get("selectedTab") or wanted[0])
        previous, view.selected = view.selected, selected
        if fresh or view.stack.get_visible_child_name() == selected:
            view.show_tab(selected, Gtk.StackTransitionType.NONE)
            return
        actions.append(Action(
            "selectTab", frozenset({view.model_id, models[selected]} | ({models[previous]} if previous in models else set())),
            lambda animate: view.show_tab(selected, Gtk.StackTransitionType.CROSSFADE if animate else Gtk.StackTransitionType.NONE)))

    def _switched(self, graph: Graph, view: SwitchedView, fresh: bool, actions: list[Action]) -> None:
        shown = graph[view.model_id].get("switchedModel")
        if shown is None:
            return
        shown = int(shown)
        child = self.build(graph, shown, actions)
        if child.get_parent() is not view:
            _detach(child, view)
            view.add_named(child, str(shown))
        previous, view.shown = view.shown, shown
        if fresh or previous == shown or view.get_visible_child_name() is None:
            view.set_visible_child_full(str(shown), Gtk.StackTransitionType.NONE)
            view.prune()
            return

        def run(animate: bool) -> None:
            view.set_visible_child_full(str(shown), Gtk.StackTransitionType.CROSSFADE if animate else Gtk.StackTransitionType.NONE)
            view.prune()

        actions.append(Action("switch", frozenset({view.model_id, shown, previous}), run))
