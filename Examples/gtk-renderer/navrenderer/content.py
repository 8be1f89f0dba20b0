"""Widgets for the non-presented part of a window's graph, kept by model id across renders.

screen → a page (title and parameters); stack → Gtk.Stack of pages (slide left/right); tabs →
Gtk.StackSwitcher over a Gtk.Stack; switched → Gtk.Stack (crossfade); custom → a segmented switcher over its
children (the selected one shown), or, for the kind ``split``, its children side by side as columns (the selected
one is the focused column) that collapse to the focused column alone in a narrow window. The main window's
content sits in a SwipeFrame, which shifts it right while a back swipe is allowed (swipe.py).
Visible changes are returned as animator Actions instead of being carried out here.
"""

from __future__ import annotations

from typing import Any, Callable

from gi.repository import Gio, GLib, Graphene, Gsk, Gtk, Pango

from .animator import Action
from .graph import Graph

OnTabSelected = Callable[[int, str], None]  # (tabs model, tab id), from the user
OnEditorText = Callable[[int, str], None]  # (editor model, its text), as the user types
OnChildSelected = Callable[[int, int], None]  # (custom container, child model), from the user
OnCollapsed = Callable[[int, bool], None]  # (split, collapsed), when the window's width crosses the breakpoint


class SwipeFrame(Gtk.Widget):
    """The main window's content area: its one child, given the frame's whole size, drawn and picked ``offset``
    pixels to the right (a translate in its allocation, so nothing reflows), clipped to the frame. The back swipe
    (swipe.py) sets the offset only while the daemon allows the back."""

    def __init__(self) -> None:
        super().__init__(hexpand=True, vexpand=True, overflow=Gtk.Overflow.HIDDEN)
        self.offset = 0.0
        self._child: Gtk.Widget | None = None
        # GTK emits destroy from dispose: a widget must leave no child behind.
        self.connect("destroy", lambda *_: self.set_child(None))

    def get_child(self) -> Gtk.Widget | None:
        return self._child

    def set_child(self, child: Gtk.Widget | None) -> None:
        if child is self._child:
            return
        if self._child is not None:
            self._child.unparent()
        self._child = child
        if child is not None:
            child.set_parent(self)

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


class ScreenPage(Gtk.ScrolledWindow):
    """One screen, scrollable. Its scroll position and the editor's draft are kept in the model's renderer state
    (``keeper`` is the window's :class:`~navrenderer.renderer_state.RendererStateKeeper`)."""

    def __init__(self, on_editor_text: OnEditorText | None = None, keeper: Any = None) -> None:
        super().__init__(hexpand=True, vexpand=True, hscrollbar_policy=Gtk.PolicyType.NEVER)
        self.box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, valign=Gtk.Align.CENTER,
                           halign=Gtk.Align.CENTER, margin_top=24, margin_bottom=24, margin_start=24, margin_end=24)
        self.set_child(self.box)
        self.keeper = keeper
        self.rows: Gtk.Label | None = None
        self._pending_scroll: float | None = None
        self._restored = False
        adjustment = self.get_vadjustment()
        adjustment.connect("changed", self._range_changed)
        adjustment.connect("value-changed", self._scrolled)
        self.model_id = 0
        self.screen = ""
        self.heading = Gtk.Label()
        self.heading.add_css_class("title-1")
        self.details = Gtk.Label(wrap=True, wrap_mode=Pango.WrapMode.WORD_CHAR, justify=Gtk.Justification.CENTER)
        self.details.add_css_class("dim-label")
        self.box.append(self.heading)
        self.box.append(self.details)
        self._on_editor_text = on_editor_text
        # The demo's editor: a real text field; unsaved text protects the model (Docs/guards.md).
        self.entry: Gtk.Entry | None = None
        # The built-in browser: its URL and a button opening it in the desktop's browser.
        self.open_button: Gtk.Button | None = None
        self.url = ""

    def update(self, graph: Graph, model_id: int) -> None:
        model = graph[model_id]
        self.model_id = model_id
        self.screen = str(model.get("screen", ""))
        self.heading.set_label(graph.screen_title(model_id))
        params = model.get("params") or {}
        lines = [f"screen “{self.screen}” · model {model_id}"]
        lines += [f"{key} = {value}" for key, value in sorted(params.items())]
        self.details.set_label("\n".join(lines))
        if self.screen == "browser":
            self.url = str(params.get("url", ""))
            self.heading.set_label("Browser")
            self.details.set_label(self.url)
            if self.open_button is None:
                self.open_button = Gtk.Button(label="Open in browser")
                self.open_button.add_css_class("suggested-action")
                self.open_button.connect("clicked", self._open_url)
                self.box.append(self.open_button)
        if self.screen == "detail" and self.rows is None:
            # Enough lines to scroll: the scroll position is what the renderer keeps per screen.
            self.rows = Gtk.Label(label="\n".join(f"Line {n} of the details" for n in range(1, 61)))
            self.box.append(self.rows)
        if self.screen == "editor" and self.entry is None:
            self.entry = Gtk.Entry(placeholder_text="Type here: unsaved text protects the editor", width_chars=36)
            self.entry.connect("changed", self._text_changed)
            self.box.append(self.entry)
            draft = self.keeper.get(model_id, "draft") if self.keeper is not None else None
            if isinstance(draft, str) and draft:
                self.entry.set_text(draft)  # the draft kept before a restart (it protects the editor again)
        if not self._restored and self.keeper is not None:
            self._restored = True
            scroll = self.keeper.get(model_id, "scroll")
            if isinstance(scroll, (int, float)) and scroll > 0:
                self._pending_scroll = float(scroll)
                self._range_changed(self.get_vadjustment())

    def _range_changed(self, adjustment: Gtk.Adjustment) -> None:
        """Applies a kept scroll position once the page is tall enough to show it."""
        pending = self._pending_scroll
        if pending is not None and adjustment.get_upper() - adjustment.get_page_size() >= pending:
            # Not during the allocation that emitted "changed": a value set then moves the scrollbar, not the page.
            GLib.idle_add(self._apply_scroll, adjustment, pending)

    def _apply_scroll(self, adjustment: Gtk.Adjustment, value: float) -> bool:
        if self._pending_scroll is not None:
            self._pending_scroll = None
            adjustment.set_value(value)
            self.queue_allocate()
            _transition_ended()  # what Describe reads changed without a D-Bus event: ScreenChanged
        return GLib.SOURCE_REMOVE

    def _scrolled(self, adjustment: Gtk.Adjustment) -> None:
        if self._pending_scroll is not None or self.keeper is None or not self.model_id:
            return
        value = round(adjustment.get_value())
        self.keeper.set(self.model_id, "scroll", value if value > 0 else None)

    def scroll_to(self, value: float) -> None:
        """What the user's scrolling does (the test hook's ``scroll``)."""
        self.get_vadjustment().set_value(value)

    def _open_url(self, _button: Gtk.Button) -> None:
        # No WebKit: the desktop's browser shows the page (xdg-open through GIO).
        try:
            Gio.AppInfo.launch_default_for_uri(self.url, None)
        except GLib.Error:
            pass

    def _text_changed(self, entry: Gtk.Entry) -> None:
        if self.keeper is not None:
            self.keeper.set(self.model_id, "draft", entry.get_text() or None)
        if self._on_editor_text is not None:
            self._on_editor_text(self.model_id, entry.get_text())


# Called when a stack transition ends and its old pages are pruned (the app points it at the test hook's
# ScreenChanged), since what Describe reads changes then without any D-Bus event.
on_transition_end: Callable[[], None] | None = None


def _transition_ended() -> None:
    if on_transition_end is not None:
        on_transition_end()


class StackView(Gtk.Stack):
    """A navigation stack: one child per path element, named by model id, the last one visible."""

    def __init__(self) -> None:
        super().__init__(hexpand=True, vexpand=True, transition_duration=200)
        self.model_id = 0
        self.path: list[int] = []
        self.connect("notify::transition-running", lambda *_: self.prune())

    def prune(self) -> None:
        """Removes pages that left the path, once no transition shows them."""
        if self.get_transition_running():
            return
        keep = {str(i) for i in self.path}
        child = self.get_first_child()
        while child is not None:
            following = child.get_next_sibling()
            if self.get_page(child).get_name() not in keep:
                self.remove(child)
            child = following
        _transition_ended()


class TabsView(Gtk.Box):
    """Tabs: a Gtk.StackSwitcher over a Gtk.Stack of tab pages named by tab id.

    A click on the switcher is not applied: the stack goes back to the daemon's selected tab and the
    selection is reported; GetState then selects it. A click on the selected tab is reported too (the daemon
    applies the container's reselect policy: the demo pops the tab to its root)."""

    def __init__(self, on_selected: OnTabSelected) -> None:
        super().__init__(orientation=Gtk.Orientation.VERTICAL)
        self.model_id = 0
        self.selected = ""
        self.tab_models: dict[str, int] = {}
        self._updating = False
        self._on_selected = on_selected
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
            button = button.get_next_sibling()

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
    def __init__(self) -> None:
        super().__init__(hexpand=True, vexpand=True, transition_duration=200)
        self.model_id = 0
        self.shown = 0
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
        _transition_ended()


class CustomView(Gtk.Box):
    """A custom container: a segmented switcher (one toggle button per child) over its children.

    Any kind shows the selected child only; the kind ``split`` shows every child side by side as columns, the
    selected one (the focused column) marked, and collapses to the focused column alone when narrower than
    ``COLLAPSE_WIDTH``. A click on a segment is not applied: the buttons snap back to the daemon's selection and
    the choice is reported (ReportChildSelected); GetState then selects it."""

    COLLAPSE_WIDTH = 600

    def __init__(self, on_selected: OnChildSelected | None = None, on_collapsed: OnCollapsed | None = None) -> None:
        super().__init__(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        self.model_id = 0
        self.kind = "custom"
        # A split's column visibility and the collapsed form the daemon has (this renderer reports its own).
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
        _transition_ended()
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
    """Builds and updates the widget of any model; one per navigation window."""

    def __init__(self, on_tab_selected: OnTabSelected, on_editor_text: OnEditorText | None = None,
                 on_child_selected: OnChildSelected | None = None, on_collapsed: OnCollapsed | None = None,
                 keeper: Any = None) -> None:
        self._on_editor_text = on_editor_text
        self.keeper = keeper
        self._on_child_selected = on_child_selected
        self._on_collapsed = on_collapsed
        self.widgets: dict[int, Gtk.Widget] = {}
        self._on_tab_selected = on_tab_selected

    def forget_missing(self, graph: Graph) -> None:
        for model_id in [i for i in self.widgets if i not in graph]:
            del self.widgets[model_id]

    def build(self, graph: Graph, model_id: int, actions: list[Action]) -> Gtk.Widget:
        kind = graph.kind(model_id)
        widget = self.widgets.get(model_id)
        wanted = {"stack": StackView, "tabs": TabsView, "switched": SwitchedView, "custom": CustomView}.get(kind, ScreenPage)
        if not isinstance(widget, wanted):
            if wanted is TabsView:
                widget = TabsView(self._on_tab_selected)
            elif wanted is ScreenPage:
                widget = ScreenPage(self._on_editor_text, self.keeper)
            elif wanted is CustomView:
                widget = CustomView(self._on_child_selected, self._on_collapsed)
            else:
                widget = wanted()
            self.widgets[model_id] = widget
            fresh = True
        else:
            fresh = False
        widget.model_id = model_id  # type: ignore[attr-defined]
        if isinstance(widget, ScreenPage):
            widget.update(graph, model_id)
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
        for element in path:
            child = self.build(graph, element, actions)
            if child.get_parent() is not view:
                _detach(child, view)
                view.add_titled(child, str(element), graph.screen_title(element))
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
