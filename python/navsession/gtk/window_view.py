"""One navigation window on screen: a top-level GTK window, its modal windows and dialogs.

``render`` shows a GetState snapshot (plus the Window1 properties); what the user does goes to the
``Reporter`` — nothing is changed locally before the daemon says so. Each screen is the page the application's
factory made for it (pages.py) — for a model prepared ahead (the Prepared property), made as soon as it is listed
and shown when a push names its id; the view is what those pages reach the window through (:class:`PageServices`:
protection marks, renderer state, commands). Back (the button, Escape, Alt+Left, the
mouse's button 8 and the left-edge swipe) asks the daemon first (BeginBack) and goes back only when allowed
(CommitBack): a refused back never moves the page (Docs/guards.md, "Back gestures"). A tab's context menu moves
the tab to a new window or into another window's tabs (Session1 MoveModel, the action ``navigation.move-model``):
the daemon's changes bring the result — the new window through the session's windows, like any other.
Each ``Announcement`` of the window (Docs/announcements.md) moves keyboard focus to the page or dialog of its focus
model and becomes the text of the window's status label, once the view shows its version (announcer.py).
The window's width is reported as a window size class (ReportWidthClass: compact < 600 px ≤ medium < 840 px ≤
expanded) whenever it crosses a bound; when ``VisibleModels`` lists several pages of one stack (the scene's panes,
Docs/panes.md), that stack shows them side by side. A mirror's view (the application's role on the window,
Docs/renderers.md) is not interactive: its back and forward buttons, tab and segment switchers, sheet buttons and
dialog actions are insensitive and its pages take no input — it shows the window, it never changes it.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from gi.repository import Gio, GLib, Gtk

from navsession import Announcement, NavSessionError
from navsession.commands import CommandLike

from . import announcer
from .animator import Action, Animator
from .content import ACTIONS, GraphView, SwipeFrame
from .dialogs import DialogWindow, ModalWindow, escape_shortcut, history_bindings
from .graph import DIALOG_KINDS, Graph
from .pages import Page, PageContext, PageHost, model_params
from .renderer_state import WINDOW, RendererStateKeeper
from .steps import Plan
from .swipe import BackSwipe

if TYPE_CHECKING:
    from .app import NavigationApp

log = logging.getLogger("navsession.gtk.view")

PREVENTED = "org.navsession.Error.Prevented"

#: Material's window size classes (Window1 ReportWidthClass): compact below 600 px, medium below 840 px, expanded
#: from there.
WIDTH_CLASSES = ((600, "compact"), (840, "medium"))


def width_class(width: int) -> str:
    """The window size class of a width in (logical) pixels: ``compact`` < 600 ≤ ``medium`` < 840 ≤ ``expanded``."""
    for bound, name in WIDTH_CLASSES:
        if width < bound:
            return name
    return "expanded"


class Reporter(Protocol):
    def popped(self, stack: int, index: int) -> None: ...
    def dismissed(self, model: int) -> None: ...
    def tab_selected(self, tabs: int, tab: str) -> None: ...
    def went_back(self, version: int) -> None: ...
    def begin_back(self, on_allowed: Callable[[int, list], None], on_refused: Callable[[Any], None]) -> None: ...
    def commit_back(self, version: int) -> None: ...
    def went_forward(self, version: int) -> None: ...
    def action_chosen(self, model: int, action: str) -> None: ...
    def closed(self) -> None: ...
    def protect(self, model: int, reason: str, dialog: str) -> None: ...
    def unprotect(self, model: int) -> None: ...
    def navigate(self, batch: Sequence[CommandLike], expected_version: int | None,
                 on_done: Callable[[int], None] | None, on_error: Callable[[NavSessionError], None] | None) -> None: ...
    def child_selected(self, container: int, child: int) -> None: ...
    def collapsed(self, split: int, collapsed: bool) -> None: ...
    def renderer_state(self, model: int, state_json: str) -> None: ...
    def move_model(self, model: int, to_window: int, placement_json: str) -> None: ...
    def width_class(self, name: str) -> None: ...


class NavWindowView:
    """One navigation window: its GTK window, the widgets of its graph, its modal windows and dialogs."""

    def __init__(self, app: "NavigationApp", path: str, number: int, reporter: Reporter) -> None:
        self.app = app
        self.path = path
        self.number = number
        self.reporter = reporter
        self.graph: Graph | None = None
        self.props: dict[str, Any] = {}
        self.closing = False
        #: Whether what the user does here changes the window (a primary, or a renderer without a role): a mirror's
        #: view is not interactive (:meth:`set_interactive`).
        self.interactive = app.role_of(path) != "mirror"
        #: The window size class reported last (ReportWidthClass), ``None`` before the first render.
        self.reported_width_class: str | None = None
        self.animator = Animator(on_step=app.screen_changed)
        # The dialog a page's protect() names by default (the application's; a dialog its manifest declares).
        self.discard_dialog: str | None = app.discard_dialog
        # The window's size and each page's state (scroll positions, drafts, selections…), kept in the daemon.
        self.keeper = RendererStateKeeper(reporter.renderer_state)
        # The window's actions (prefix ACTIONS): move-model (model, to window; 0 = a new one), what a tab's
        # context menu chooses. In the window and in each tab container's view (a sheet's window has its own).
        self.actions = Gio.SimpleActionGroup()
        move = Gio.SimpleAction.new("move-model", GLib.VariantType.new("(tt)"))
        move.connect("activate", lambda _action, target: self.move_model(*target.unpack()))
        self.actions.add_action(move)
        self.content = GraphView(reporter.tab_selected, self._make_page, reporter.child_selected, reporter.collapsed,
                                 on_changed=app.screen_changed, tab_menu=self.tab_menu, actions=self.actions)
        self.content.interactive = self.interactive
        self.modals: dict[int, ModalWindow | DialogWindow] = {}

        self.window = Gtk.ApplicationWindow(application=app, default_width=720, default_height=520)
        self.window.set_title(f"NavSession window {number}")
        self.window.connect("notify::default-width", lambda *_: self.report_width_class())
        self.window.insert_action_group(ACTIONS, self.actions)
        header = Gtk.HeaderBar()
        self.title_label = Gtk.Label(label="…")
        self.title_label.add_css_class("title")
        header.set_title_widget(self.title_label)
        self.back_button = Gtk.Button(icon_name="go-previous-symbolic", tooltip_text="Back", sensitive=False)
        self.back_button.connect("clicked", lambda *_: self.go_back())
        header.pack_start(self.back_button)
        # Forward, shown while the daemon's CanGoForward is true.
        self.forward_button = Gtk.Button(icon_name="go-next-symbolic", tooltip_text="Forward", visible=False)
        self.forward_button.connect("clicked", lambda *_: self.go_forward())
        header.pack_start(self.forward_button)
        self.header = header
        # The window's status for assistive technologies: the text of its newest announcement (announcer.py).
        self.status_label = announcer.status_label()
        header.pack_end(self.status_label)
        #: The window's newest ``Announcement`` (``None`` before any), and the one whose focus is still to be moved
        #: (its version not shown yet).
        self.announcement: Announcement | None = None
        self._announcement_due: Announcement | None = None
        self.title_mode = "automatic"
        self.window.set_titlebar(header)
        self.placeholder = Gtk.Label(label="Loading…")
        self.window.set_child(self.placeholder)
        # The content area (set as the window's child at the first render): it shifts with an allowed back swipe.
        self.frame = SwipeFrame()
        self.swipe = BackSwipe(reporter.begin_back, reporter.commit_back, self._content_width,
                               self._swipe_version, self._swipe_changed)
        self._on_screen_changed = app.screen_changed
        drag = Gtk.GestureDrag(propagation_phase=Gtk.PropagationPhase.CAPTURE)
        drag.connect("drag-begin", self._drag_begin)
        drag.connect("drag-update", self._drag_update)
        drag.connect("drag-end", self._drag_end)
        drag.connect("cancel", lambda *_: self.swipe.cancel())
        self.frame.add_controller(drag)
        self.window.connect("close-request", self._close_request)
        escape_shortcut(self.window, self.escape)
        history_bindings(self.window, self.go_back, self.go_forward, self.undo, self.redo)
        self._apply_interactive()
        self.window.present()
        # The size to restore until the display server has applied it (its first configure
        # may report the initial size after the restored one was asked for), and how often to ask again.
        self._wanted_size: tuple[int, int] | None = None
        self._size_retries = 3

    # -- pages (PageServices) -------------------------------------------------------------------

    def _make_page(self, graph: Graph, model_id: int) -> Page:
        """The page of a screen model that appears: the application's factory for its screen, with its context."""
        model = graph[model_id]
        context = PageContext(model_id=model_id, screen=str(model.get("screen", "")),
                              params=model_params(model),
                              title=graph.screen_title(model_id), state=self.keeper.object(model_id),
                              window=self.app.window_proxy(self.path), app=self.app, services=self)
        return self.app.make_page(context)

    def pages(self) -> dict[int, Page]:
        """The page of every screen shown (or kept by a stack), by model id."""
        return self.content.pages()

    def _make_prepared_page(self, entry: dict[str, Any]) -> Page:
        """The page of a prepared model (an entry of the Prepared property), made before its model is in the graph:
        the application's factory for its screen, with the context the model will have when it is shown."""
        model_id, screen = int(entry["model"]), str(entry["screen"])
        title = str(entry.get("title") or self.app.screen_titles.get(screen) or screen.replace("_", " ").capitalize())
        context = PageContext(model_id=model_id, screen=screen, params=model_params(entry), title=title,
                              state=self.keeper.object(model_id), window=self.app.window_proxy(self.path),
                              app=self.app, services=self)
        return self.app.make_page(context)

    def prepared_entries(self) -> list[dict[str, Any]]:
        """The Prepared property: the models prepared ahead of being shown (Window1 Prepare), oldest first."""
        try:
            entries = json.loads(str(self.props.get("Prepared", "[]")))
            return [e for e in entries if isinstance(e, dict) and isinstance(e.get("model"), int)
                    and isinstance(e.get("screen"), str)]
        except (ValueError, TypeError):
            return []

    def _prepare_pages(self) -> None:
        """Makes the page of each prepared model not made yet (Docs/renderers.md, "Prepared models"): when a push
        names its id, the stack shows that page instead of making one then."""
        for entry in self.prepared_entries():
            self.content.prepare(int(entry["model"]), lambda e=entry: self._make_prepared_page(e))

    def protect(self, model: int, reason: str, dialog: str) -> None:
        self.reporter.protect(model, reason, dialog)

    def unprotect(self, model: int) -> None:
        self.reporter.unprotect(model)

    def save_state(self, model: int, make: Callable[[], dict[str, Any] | None]) -> None:
        self.keeper.produce(model, make)

    def screen_changed(self) -> None:
        self.app.screen_changed()

    def navigate(self, batch: Sequence[CommandLike], expected_version: int | None,
                 on_done: Callable[[int], None] | None, on_error: Callable[[NavSessionError], None] | None) -> None:
        self.reporter.navigate(batch, expected_version, on_done, on_error)

    def shown_version(self) -> int | None:
        return self.graph.version if self.graph is not None else None

    # -- rendering ------------------------------------------------------------------------------

    def set_properties(self, changed: dict[str, Any]) -> None:
        self.props.update(changed)
        self.title_label.set_label(str(self.props.get("Title", "")))
        self.back_button.set_sensitive(self.interactive and bool(self.props.get("CanGoBack", False)))
        self.forward_button.set_visible(bool(self.props.get("CanGoForward", False)))
        self.forward_button.set_sensitive(self.interactive)
        if "Prepared" in changed:
            self._prepare_pages()
        if "VisibleModels" in changed and self.content.set_visible_models(self._visible_models()) \
                and not self.app.fetching.get(self.path):
            # Panes after a width class; after a change the render on its way (GetState) shows them with its graph.
            self.relayout()

    def _visible_models(self) -> list[int]:
        """The VisibleModels property: the models on screen (the panes first; Docs/panes.md)."""
        try:
            return [int(m) for m in self.props.get("VisibleModels", [])]
        except (TypeError, ValueError):
            return []

    def relayout(self) -> None:
        """The panes changed without a change of the window (VisibleModels after a width class): the shown graph is
        built again, without animation, so a stack shows the pages VisibleModels lists side by side (or one again)."""
        graph = self.graph
        if graph is None or self.window.get_child() is not self.frame:
            return
        self.animator.finish()
        actions: list[Action] = []
        root = self.content.build(graph, graph.root, actions)
        if self.frame.get_child() is not root:
            self.frame.set_child(root)
        self._render_presented(graph, actions)
        self.animator.run(Plan(animate=False), actions)
        self.app.screen_changed()

    # -- roles and width (Docs/renderers.md, Docs/panes.md) ----------------------------------------

    def set_interactive(self, interactive: bool) -> None:
        """A primary's view (True) or a mirror's (False: it shows, it never changes the window)."""
        if interactive != self.interactive:
            self.interactive = interactive
            self.content.interactive = interactive
            self._apply_interactive()
            if self.graph is not None:
                self.relayout()
            self.report_width_class()

    def _apply_interactive(self) -> None:
        """The controls that would change the window follow :attr:`interactive`: the header's back and forward, the
        content's input (a mirror's pages take none), the sheets' and dialogs' buttons, the window's title."""
        interactive = self.interactive
        self.window.set_title(f"NavSession window {self.number}" + ("" if interactive else " (mirror)"))
        self.back_button.set_sensitive(interactive and bool(self.props.get("CanGoBack", False)))
        self.forward_button.set_sensitive(interactive)
        self.frame.set_can_target(interactive)
        self.content.apply_interactive()
        for modal in self.modals.values():
            _modal_interactive(modal, interactive)

    def report_width_class(self) -> None:
        """Reports the window's size class (ReportWidthClass) when it is not the one reported last — a primary's only
        (a mirror's width is not the window's); the first once something is shown."""
        if self.graph is None or not self.interactive or self.closing:
            return
        width = self.window.get_default_size()[0]
        if width <= 0:
            width = self.window.get_width()
        if width <= 0:
            return
        name = width_class(width)
        if name != self.reported_width_class:
            self.reported_width_class = name
            log.info("%s: %d px wide: %s", self.path, width, name)
            self.reporter.width_class(name)

    def render(self, state: dict[str, Any], props: dict[str, Any], plan: Plan) -> None:
        self.animator.finish()
        if "VisibleModels" in props:
            self.props["VisibleModels"] = props["VisibleModels"]
        self.content.set_visible_models(self._visible_models())
        graph = Graph.from_state(state, self.app.screen_titles)
        first = self.graph is None
        self.graph = graph
        self.keeper.seed(state)
        if first:
            self._restore_size()
        actions: list[Action] = []
        root = self.content.build(graph, graph.root, actions)
        if self.frame.get_child() is not root:
            self.frame.set_child(root)
        if self.window.get_child() is not self.frame:
            self.window.set_child(self.frame)
        self.set_properties(props)
        self._render_chrome(graph)
        self._render_presented(graph, actions)
        self.content.forget_missing(graph)
        # After the build took the pages of prepared models now shown: those no longer prepared are dropped.
        self.content.forget_prepared({int(e["model"]) for e in self.prepared_entries()})
        self.animator.run(plan, actions)
        if first:
            self.report_width_class()

    def _restore_size(self) -> None:
        """The size the window had (its renderer state), then follows the user's resizing."""
        width, height = self.keeper.get(WINDOW, "width"), self.keeper.get(WINDOW, "height")
        if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
            self._wanted_size = (width, height)
            self.window.set_default_size(width, height)
        self.window.connect("notify::default-width", self._resized)
        self.window.connect("notify::default-height", self._resized)

    def resize(self, width: int, height: int) -> None:
        """Resizes the window as the user would (the test hook): asked again, like a restored size, when the display
        server's first size for a window mapped moments ago overtakes it."""
        self._wanted_size = (width, height)
        # A busy machine's display server may answer with its own size several times before ours lands.
        self._size_retries = 20
        self.window.set_default_size(width, height)
        # And a request the display server dropped is asked again until the window has the size (10 s at most).
        checks = [40]

        def ensure() -> bool:
            checks[0] -= 1
            if self.window.get_width() == width or checks[0] <= 0 or self._wanted_size not in (None, (width, height)):
                return GLib.SOURCE_REMOVE
            self.window.set_default_size(width, height)
            return GLib.SOURCE_CONTINUE

        GLib.timeout_add(250, ensure)

    def _resized(self, *_: object) -> None:
        width, height = self.window.get_default_size()
        wanted = self._wanted_size
        if wanted is not None:
            if (width, height) == wanted or self._size_retries <= 0:
                self._wanted_size = None
            else:
                # The display server's first size overtook the restored one: ask again instead of saving it.
                self._size_retries -= 1
                self.window.set_default_size(*wanted)
                return
        if width > 0 and height > 0:
            self.keeper.set(WINDOW, "width", width)
            self.keeper.set(WINDOW, "height", height)

    # -- announcements (Docs/announcements.md) ---------------------------------------------------

    def announce(self, announcement: Announcement, shown: bool) -> None:
        """The window's ``Announcement``: kept, and carried out (:meth:`carry_out_announcement`) at once when the view
        shows its version already and ``shown`` (nothing of it still to draw or animate), else when the view reports
        that version settled."""
        self.announcement = announcement
        self._announcement_due = announcement
        if shown:
            self.carry_out_announcement()

    def carry_out_announcement(self) -> None:
        """Once the view shows the due announcement's version (or a later one): focus goes to the widget made for
        its focus model and its text becomes the status label's (announcer.py). Called as a version settles."""
        due, graph = self._announcement_due, self.graph
        if due is None or graph is None or graph.version < due.version:
            return
        self._announcement_due = None
        assertive = due.focus_model in graph and graph.kind(due.focus_model) in DIALOG_KINDS
        announcer.say(self.status_label, due.text, assertive)
        target, first = self.focus_target(due.focus_model)
        if target is None or not announcer.move_focus(target, first):
            log.info("%s: nothing on screen takes focus for model %d (%r)", self.path, due.focus_model, due.text)

    def focus_target(self, model_id: int) -> tuple[Gtk.Widget | None, Gtk.Widget | None]:
        """The widget that takes focus for ``model_id`` and the one inside it to focus first: an alert's or dialog's
        window and its cancel button (else its first); the page host of a screen, of a container's focused screen."""
        modal = self.modals.get(model_id)
        if isinstance(modal, DialogWindow):
            cancel = modal.cancel_action()
            button = modal.buttons.get(cancel) if cancel is not None else None
            return modal, button or next(iter(modal.buttons.values()), None)
        graph = self.graph
        if graph is not None and model_id in graph:
            model_id = graph.focused_leaf(model_id)
        return self.content.widgets.get(model_id), None

    def focus_owner(self) -> dict[str, Any]:
        """Where keyboard focus is in the window the user sees on top (the test probe's report): the model whose
        page or dialog holds the focused widget (``None``: none) and that widget's type."""
        top = self.topmost()
        focus = top.get_focus()
        owner: int | None = None
        widget = focus
        while widget is not None:
            if isinstance(widget, PageHost):
                owner = widget.model_id
                break
            if isinstance(widget, (DialogWindow, ModalWindow)):
                owner = widget.model_id
                break
            widget = widget.get_parent()
        return {"model": owner, "widget": focus.__gtype__.name if focus is not None else None,
                "window": "main" if top is self.window else getattr(top, "model_id", None)}

    def rendered_state_only(self, version: int) -> None:
        """A change that only stored renderer state: nothing to redraw, the shown version moves on."""
        if self.graph is not None:
            self.graph.version = version

    def _render_chrome(self, graph: Graph) -> None:
        """The header of the window's base as the shown screen's appearance says (Docs/renderers.md,
        "Appearance"): header and back button shown or hidden, the title large or not."""
        appearance = graph.appearance(graph.visible_leaf(graph.root))
        self.header.set_visible(bool(appearance["navigationBar"]))
        self.back_button.set_visible(bool(appearance["backButton"]))
        self.title_mode = str(appearance["titleDisplayMode"])
        if self.title_mode == "large":
            self.title_label.add_css_class("title-2")
        else:
            self.title_label.remove_css_class("title-2")

    def _window_of(self, graph: Graph, model_id: int | None) -> Gtk.Window:
        presentation = graph.presentation_of(model_id)
        if presentation is not None and presentation in self.modals:
            return self.modals[presentation]
        return self.window

    def _render_presented(self, graph: Graph, actions: list[Action]) -> None:
        wanted = list(graph.presented())
        for model_id in [m for m in self.modals if m not in wanted]:
            modal = self.modals.pop(model_id)
            actions.insert(0, Action("dismiss", frozenset({model_id}), lambda _a, w=modal: w.close_now()))
        for model_id in wanted:
            style = graph.presentation_style(model_id)
            modal = self.modals.get(model_id)
            parent = self._window_of(graph, graph.parent(model_id))
            if modal is None:
                if graph.kind(model_id) in DIALOG_KINDS:
                    modal = DialogWindow(
                        model_id, graph.kind(model_id), graph[model_id].get("dialog", {}), parent,
                        lambda action, m=model_id: self.reporter.action_chosen(m, action),
                        lambda m=model_id: self.escape_dialog(m))
                else:
                    modal = ModalWindow(
                        model_id, style, parent, lambda m=model_id: self.close_modal(m),
                        lambda m=model_id: self.modal_back(m), lambda m=model_id: self.escape_modal(m),
                        transition=graph[model_id].get("transition"))
                self.modals[model_id] = modal
                _modal_interactive(modal, self.interactive)
                history_bindings(modal, self.go_back, self.go_forward, self.undo, self.redo)
                ids = frozenset({model_id, graph.parent(model_id) or 0})
                if isinstance(modal, ModalWindow):
                    actions.append(Action("present", ids, lambda a, w=modal: w.present() if a else w.show_at_once()))
                else:
                    actions.append(Action("present", ids, lambda _a, w=modal: w.present()))
            if isinstance(modal, ModalWindow):
                modal.set_content(self.content.build(graph, model_id, actions))
                modal.title_label.set_label(graph.screen_title(graph.visible_leaf(model_id)))
                modal.back_button.set_visible(bool(graph.appearance(graph.visible_leaf(model_id))["backButton"]))
                stack = graph.nearest_stack(graph.visible_leaf(model_id))
                modal.back_button.set_sensitive(self.interactive and stack is not None and len(graph.path(stack)) > 1)

    # -- user actions: reports only -------------------------------------------------------------

    def go_back(self) -> None:
        """The header's back button, Escape, Alt+Left and mouse button 8: the daemon's goBack — it removes whatever
        is on top (a push, a presentation, an alert), or at a tab's root follows the tabs' backBehavior — in two
        phases that complete at once, as a key press does: BeginBack asks every rule goBack meets (marks, entry
        conditions, guard providers; CanGoBack may not know a provider's answer yet, so it is asked even when
        false), and only when it allows, CommitBack at that version — if it is still the version shown. A refusal
        moves nothing."""
        graph = self.graph
        if graph is None:
            return
        shown = graph.version

        def allowed(version: int, _finished: list) -> None:
            if version != shown:
                # The daemon moved on since the screen the user pressed back on was drawn (its render is coming).
                log.info("%s: BeginBack answered version %d, the screen shows %d; not going back",
                         self.path, version, shown)
                return
            self.reporter.commit_back(version)

        def refused(error: Any) -> None:
            # A mark refuses (Prevented); BeginBack presents no dialog. When a mark names one, goBack itself at the
            # version shown lets the daemon present it (and keep the back for the dialog's re-applying action).
            if getattr(error, "name", "") == PREVENTED and self.dialog_marks():
                self.reporter.went_back(shown)

        self.reporter.begin_back(allowed, refused)

    def go_forward(self) -> None:
        """The header's forward button, Alt+Right and mouse button 9: the daemon's goForward (the route the
        last back removed, created again), at the version shown; nothing while CanGoForward is false."""
        graph = self.graph
        if graph is None or not self.props.get("CanGoForward"):
            return
        self.reporter.went_forward(graph.version)

    def undo(self) -> None:
        """Ctrl+Z: the daemon's Undo of the window's last change (the same models come back; Docs/desktop.md);
        nothing while CanUndo is false. A refusal (a mark, a guard) changes nothing; its effect arrives as Changed."""
        if self.props.get("CanUndo"):
            self.reporter.undo()

    def redo(self) -> None:
        """Ctrl+Shift+Z, Ctrl+Y: the daemon's Redo; nothing while CanRedo is false."""
        if self.props.get("CanRedo"):
            self.reporter.redo()

    def protected_models(self) -> set[int]:
        """The models the window's marks protect (the Protected property, Docs/guards.md)."""
        return {int(mark["model"]) for mark in self._marks()}

    def dialog_marks(self) -> set[int]:
        """The protected models whose mark names a dialog (``discardChanges``)."""
        return {int(mark["model"]) for mark in self._marks() if mark.get("dialog")}

    def _marks(self) -> list[dict[str, Any]]:
        try:
            marks = json.loads(str(self.props.get("Protected", "[]")))
            return [m for m in marks if isinstance(m, dict) and isinstance(m.get("model"), int)]
        except (ValueError, TypeError):
            return []

    def holds_protected(self, model_id: int) -> bool:
        """Whether the presentation `model_id` holds a protected model (itself or below it)."""
        graph = self.graph
        marked = self.protected_models()
        if graph is None or not marked:
            return False
        for model in marked:
            current: int | None = model
            while current is not None and current in graph:
                if current == model_id:
                    return True
                current = graph.parent(current)
        return False

    def modal_back(self, model_id: int) -> None:
        graph = self.graph
        if graph is None or model_id not in graph:
            return
        stack = graph.nearest_stack(graph.visible_leaf(model_id))
        if stack is not None and len(graph.path(stack)) > 1:
            self.reporter.popped(stack, len(graph.path(stack)) - 2)

    def escape_modal(self, model_id: int) -> None:
        """Escape in a sheet or cover: goBack when it is the top window (a push inside it pops first), else
        that presentation dismissed."""
        if self.topmost() is self.modals.get(model_id) or self.holds_protected(model_id):
            self.go_back()
        else:
            self.reporter.dismissed(model_id)

    def close_modal(self, model_id: int) -> None:
        """The sheet's Done button or window close: a dismissal — except for a protected sheet, which must not be
        dismissed interactively: goBack instead, which the daemon refuses and answers with the mark's dialog."""
        if self.holds_protected(model_id):
            self.go_back()
        else:
            self.reporter.dismissed(model_id)

    def escape_dialog(self, model_id: int) -> None:
        modal = self.modals.get(model_id)
        cancel = modal.cancel_action() if isinstance(modal, DialogWindow) else None
        if cancel is not None:
            self.reporter.action_chosen(model_id, cancel)
        else:
            self.reporter.dismissed(model_id)

    def escape(self) -> None:
        """Escape in the main window: back, as the back button."""
        self.go_back()

    # -- moving tabs between windows (Session1 MoveModel) ---------------------------------------

    def tab_menu(self, tabs: int, tab: str) -> Gio.Menu | None:
        """A tab's context menu: "Move Tab to New Window", and "Move Tab to Window N" for each other window whose
        base shows tabs; ``None`` for a tab that cannot move (the last one: a tab container keeps one). Each item
        is the action ``navigation.move-model`` with (the tab's model, the target window; 0: a new one)."""
        graph = self.graph
        model = graph.tab_model(tabs, tab) if graph is not None else None
        if graph is None or model is None or len(graph[tabs].get("tabs") or []) < 2 or not self.interactive:
            return None
        menu = Gio.Menu()
        menu.append_item(_move_item("Move Tab to New Window", model, 0))
        for view in sorted(self.app.views.values(), key=lambda v: v.number):
            if view is not self and not view.closing and view.graph is not None \
                    and view.graph.tab_container() is not None:
                menu.append_item(_move_item(f"Move Tab to Window {view.number}", model, view.number))
        return menu

    def move_model(self, model: int, to_window: int) -> None:
        """Moves ``model`` (with everything under it) into window ``to_window``, or into a new window for 0
        (Session1 MoveModel): a tab goes into the tab container the target's base shows, else where its form goes.
        Nothing changes here before the daemon's ``Changed`` (and, for a new window, the session's new window)."""
        graph = self.graph
        if graph is None or model not in graph:
            return
        placement: dict[str, Any] = {}
        if to_window:
            target = next((v for v in self.app.views.values() if v.number == to_window), None)
            tabs = target.graph.tab_container() if target is not None and target.graph is not None else None
            if graph.attachment(model) == "tab" and tabs is not None:
                placement = {"tabs": tabs}
        self.reporter.move_model(model, to_window, json.dumps(placement, separators=(",", ":")) if placement else "")

    # -- the left-edge back swipe (swipe.py) ----------------------------------------------------

    def _drag_begin(self, gesture: Gtk.GestureDrag, x: float, y: float) -> None:
        if not self.swipe.begin(x, y):
            gesture.set_state(Gtk.EventSequenceState.DENIED)  # not at the edge: the page's widgets have it

    def _drag_update(self, gesture: Gtk.GestureDrag, dx: float, dy: float) -> None:
        verdict = self.swipe.update(dx, dy)
        if verdict is True:
            gesture.set_state(Gtk.EventSequenceState.CLAIMED)  # a back swipe: the widgets under it let go
        elif verdict is False:
            gesture.set_state(Gtk.EventSequenceState.DENIED)

    def _drag_end(self, _gesture: Gtk.GestureDrag, dx: float, dy: float) -> None:
        self.swipe.end(dx, dy)

    def _content_width(self) -> float:
        return float(self.frame.get_width() or self.window.get_width() or self.window.get_default_size()[0])

    def _swipe_version(self) -> int | None:
        """The version shown, when a back swipe may begin in the main window: something is shown there and no
        modal window is on top of it (its back would be the modal's)."""
        if self.graph is None or self.window.get_child() is not self.frame or self.topmost() is not self.window:
            return None
        return self.graph.version

    def _swipe_changed(self) -> None:
        self.frame.set_offset(self.swipe.offset)
        if self._on_screen_changed is not None:
            self._on_screen_changed()

    def topmost(self) -> Gtk.Window:
        """The window the user sees on top: the last open modal in graph order, else the main window."""
        graph = self.graph
        if graph is not None:
            for model_id in reversed(list(graph.presented())):
                modal = self.modals.get(model_id)
                if modal is not None and modal.get_visible():
                    return modal
        return self.window

    def _close_request(self, _window: Gtk.Window) -> bool:
        if self.closing:
            return False
        self.reporter.closed()
        return True  # closes on InterfacesRemoved

    def destroy(self) -> None:
        self.closing = True
        self.swipe.cancel()
        self.keeper.stop()
        self.animator.finish()
        self.content.close()
        for modal in list(self.modals.values()):
            modal.closing = True
        self.modals.clear()
        self.window.destroy()


def _modal_interactive(modal: ModalWindow | DialogWindow, interactive: bool) -> None:
    """A sheet's or dialog's controls follow the view's :attr:`NavWindowView.interactive` (a mirror's are
    insensitive, and its content takes no input)."""
    if isinstance(modal, DialogWindow):
        for button in modal.buttons.values():
            button.set_sensitive(interactive)
    else:
        modal.close_button.set_sensitive(interactive)
        if not interactive:
            modal.back_button.set_sensitive(False)
        modal.revealer.set_can_target(interactive)


def _move_item(label: str, model: int, to_window: int) -> Gio.MenuItem:
    item = Gio.MenuItem.new(label, None)
    item.set_action_and_target_value(f"{ACTIONS}.move-model", GLib.Variant("(tt)", (model, to_window)))
    return item
