"""The renderer state a page keeps without code of its own: scroll positions, text drafts and selections, read
from its widget tree (what :meth:`navsession.gtk.Page.save_state` and ``restore_state`` do by default).

The tree is walked in pre-order from the page's widget (itself included). Each widget of a kind this module knows
gets a key in the page's renderer-state object:

| kind | widgets | value |
|---|---|---|
| ``scroll`` | ``Gtk.ScrolledWindow`` | its vertical offset in pixels (an int; left out at 0) |
| ``draft`` | ``Gtk.Editable`` (``Gtk.Entry``, ``Gtk.SearchEntry``, ``Gtk.Text``…) and ``Gtk.TextView`` that the user may edit | the text (left out when empty) |
| ``selection`` | ``Gtk.ListBox``, ``Gtk.ListView``/``GridView``/``ColumnView`` over a ``Gtk.SingleSelection`` or ``Gtk.MultiSelection``, ``Gtk.DropDown`` | the selected position, or a list of positions for a multiple selection (left out when nothing is selected) |

The first unnamed widget of a kind is keyed by the kind alone (``"scroll"``, ``"draft"``), the next ones
``"draft#2"``, ``"draft#3"``… in tree order; a widget given a name (``widget.set_name("subject")``) is keyed
``"draft:subject"`` wherever it sits, which keeps its key stable when the page's layout changes. So the common
page — one scrolled area, one text field — keeps ``{"scroll": 300, "draft": "Dear Ann,"}``.

Passwords are never kept: ``Gtk.PasswordEntry`` and entries with hidden text (``visibility`` off) are skipped, as
are ``Gtk.SpinButton`` (a value, not a draft) and fields that are not editable. The walk does not enter text fields
(a ``Gtk.Entry``'s inner ``Gtk.Text`` is the entry's), recycling list views (their rows come and go with
scrolling), drop-downs and popovers.

Restoring sets texts and selections at once and scroll offsets once the scrolled area is tall enough to show them:
after the layout that made it so (an idle callback after the adjustment's ``changed``), never inside it — a value
set during allocation moves the scrollbar, not the content. Until then the pending offset is what ``save`` reports,
so the page's first layout (offset 0) does not overwrite the kept position.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from gi.repository import GLib, GObject, Gtk

log = logging.getLogger("navsession.gtk.state")

SCROLL, DRAFT, SELECTION = "scroll", "draft", "selection"
INVALID_POSITION = 0xFFFFFFFF  # GTK_INVALID_LIST_POSITION

Tracked = tuple[str, str, Gtk.Widget]  # (key, kind, widget)


def kind_of(widget: Gtk.Widget) -> str | None:
    """The kind of state ``widget`` holds (``scroll``, ``draft``, ``selection``), or ``None``."""
    if isinstance(widget, Gtk.ScrolledWindow):
        return SCROLL
    if isinstance(widget, Gtk.TextView):
        return DRAFT if widget.get_editable() else None
    if isinstance(widget, Gtk.Editable):
        if isinstance(widget, (Gtk.PasswordEntry, Gtk.SpinButton)):
            return None
        if isinstance(widget, Gtk.Entry) and not widget.get_visibility():
            return None
        if isinstance(widget, Gtk.Text) and not widget.get_visibility():
            return None
        return DRAFT if widget.get_editable() else None
    if isinstance(widget, (Gtk.ListBox, Gtk.DropDown)):
        return SELECTION
    if isinstance(widget, (Gtk.ListView, Gtk.GridView, Gtk.ColumnView)):
        return SELECTION if isinstance(widget.get_model(), (Gtk.SingleSelection, Gtk.MultiSelection)) else None
    return None


def _leaf(widget: Gtk.Widget) -> bool:
    """Whether the walk stays out of ``widget``'s children (their state is the widget's, or comes and goes)."""
    return isinstance(widget, (Gtk.Editable, Gtk.TextView, Gtk.ListView, Gtk.GridView, Gtk.ColumnView,
                               Gtk.DropDown, Gtk.Popover))


def tracked(root: Gtk.Widget | None) -> list[Tracked]:
    """Every widget under ``root`` (itself included) whose state is kept, with its key, in tree order."""
    found: list[Tracked] = []
    counts: dict[str, int] = {}

    def visit(widget: Gtk.Widget) -> None:
        kind = kind_of(widget)
        if kind is not None:
            name = widget.get_name()
            if name and name != widget.__gtype__.name:  # GTK answers the type name for an unnamed widget
                key = f"{kind}:{name}"
            else:
                counts[kind] = counts.get(kind, 0) + 1
                key = kind if counts[kind] == 1 else f"{kind}#{counts[kind]}"
            found.append((key, kind, widget))
        if _leaf(widget):
            return
        child = widget.get_first_child()
        while child is not None:
            visit(child)
            child = child.get_next_sibling()

    if root is not None:
        visit(root)
    return found


def _text_of(widget: Gtk.Widget) -> str:
    if isinstance(widget, Gtk.TextView):
        buffer = widget.get_buffer()
        return str(buffer.get_text(buffer.get_start_iter(), buffer.get_end_iter(), False))
    return str(widget.get_text())  # type: ignore[attr-defined]


def _set_text(widget: Gtk.Widget, text: str) -> None:
    if _text_of(widget) == text:
        return
    if isinstance(widget, Gtk.TextView):
        widget.get_buffer().set_text(text, -1)
    else:
        widget.set_text(text)  # type: ignore[attr-defined]


def _selection_of(widget: Gtk.Widget) -> int | list[int] | None:
    if isinstance(widget, Gtk.ListBox):
        rows = sorted(row.get_index() for row in widget.get_selected_rows())
        if widget.get_selection_mode() == Gtk.SelectionMode.MULTIPLE:
            return rows or None
        return rows[0] if rows else None
    if isinstance(widget, Gtk.DropDown):
        position = widget.get_selected()
        return None if position == INVALID_POSITION else int(position)
    model = widget.get_model()  # type: ignore[attr-defined]
    if isinstance(model, Gtk.SingleSelection):
        position = model.get_selected()
        return None if position == INVALID_POSITION else int(position)
    if isinstance(model, Gtk.MultiSelection):
        selected = model.get_selection()
        return [int(selected.get_nth(i)) for i in range(selected.get_size())] or None
    return None


def _positions(value: Any) -> list[int]:
    values = value if isinstance(value, list) else [value]
    return [int(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0]


def _select(widget: Gtk.Widget, value: Any) -> None:
    positions = _positions(value)
    if not positions:
        return
    if isinstance(widget, Gtk.ListBox):
        if widget.get_selection_mode() == Gtk.SelectionMode.MULTIPLE:
            widget.unselect_all()
        for position in positions:
            row = widget.get_row_at_index(position)
            if row is not None:
                widget.select_row(row)
        return
    if isinstance(widget, Gtk.DropDown):
        model = widget.get_model()
        if model is not None and positions[0] < model.get_n_items():
            widget.set_selected(positions[0])
        return
    model = widget.get_model()  # type: ignore[attr-defined]
    if isinstance(model, Gtk.SingleSelection) and positions[0] < model.get_n_items():
        model.set_selected(positions[0])
    elif isinstance(model, Gtk.MultiSelection):
        model.unselect_all()
        for position in positions:
            if position < model.get_n_items():
                model.select_item(position, False)


class WidgetState:
    """One page's default renderer state: watches its widgets, saves and restores their state.

    ``on_change()`` runs whenever a watched widget's state changed (the page then saves, debounced);
    ``on_shown()`` after a kept scroll offset was applied — what is shown changed without a D-Bus event.

    The watched widgets are held (a plain widget's Python wrapper is not kept alive by GTK, so a weak reference
    would not tell a widget seen before from a new one) together with the handlers connected to them; each
    :meth:`watch` lets go of the widgets no longer in the page, disconnecting their handlers, and :meth:`close`
    of all of them."""

    def __init__(self, on_change: Callable[[], None], on_shown: Callable[[], None]) -> None:
        self._on_change = on_change
        self._on_shown = on_shown
        self._watched: dict[Gtk.Widget, list[tuple[GObject.Object, int]]] = {}
        # Kept scroll offsets waiting for their scrolled area to be tall enough, by scrolled window.
        self._pending: dict[Gtk.Widget, float] = {}

    # -- watching -------------------------------------------------------------------------------

    def watch(self, root: Gtk.Widget | None) -> None:
        """Connects to the changes of every tracked widget under ``root`` not watched yet, and lets go of those
        no longer under it (call again after the page changed its widgets)."""
        current = tracked(root)
        alive = {id(widget) for _key, _kind, widget in current}
        for widget in [w for w in self._watched if id(w) not in alive]:
            self._unwatch(widget)
        for _key, kind, widget in current:
            if widget in self._watched:
                continue
            handlers: list[tuple[GObject.Object, int]] = []
            if kind == SCROLL:
                adjustment = widget.get_vadjustment()  # type: ignore[attr-defined]
                handlers.append((adjustment, adjustment.connect("value-changed", self._changed)))
                handlers.append((adjustment, adjustment.connect("changed", self._range_changed, widget)))
            elif kind == DRAFT and isinstance(widget, Gtk.TextView):
                buffer = widget.get_buffer()
                handlers.append((buffer, buffer.connect("changed", self._changed)))
            elif kind == DRAFT:
                handlers.append((widget, widget.connect("changed", self._changed)))
            elif isinstance(widget, Gtk.ListBox):
                handlers.append((widget, widget.connect("selected-rows-changed", self._changed)))
            elif isinstance(widget, Gtk.DropDown):
                handlers.append((widget, widget.connect("notify::selected", self._changed)))
            else:
                model = widget.get_model()  # type: ignore[attr-defined]
                handlers.append((model, model.connect("selection-changed", self._changed)))
            self._watched[widget] = handlers

    def _unwatch(self, widget: Gtk.Widget) -> None:
        for source, handler in self._watched.pop(widget, []):
            source.disconnect(handler)
        self._pending.pop(widget, None)

    def close(self) -> None:
        """Stops watching (the page closed)."""
        for widget in list(self._watched):
            self._unwatch(widget)
        self._pending.clear()

    def _changed(self, *_: object) -> None:
        self._on_change()

    # -- saving and restoring -------------------------------------------------------------------

    def save(self, root: Gtk.Widget | None) -> dict[str, Any]:
        """The state of the tracked widgets under ``root`` (keys with nothing to keep left out)."""
        state: dict[str, Any] = {}
        for key, kind, widget in tracked(root):
            value: Any
            if kind == SCROLL:
                pending = self._pending.get(widget)
                offset = pending if pending is not None else widget.get_vadjustment().get_value()  # type: ignore[attr-defined]
                value = round(offset) if offset > 0 else None
            elif kind == DRAFT:
                value = _text_of(widget) or None
            else:
                value = _selection_of(widget)
            if value is not None:
                state[key] = value
        return state

    def restore(self, root: Gtk.Widget | None, state: dict[str, Any]) -> None:
        """Gives the tracked widgets under ``root`` the state ``state`` kept for their keys (other keys are
        ignored: they may be the application's own). A scroll offset waits for :meth:`watch` to have seen its
        scrolled window (the binding watches before it restores)."""
        for key, kind, widget in tracked(root):
            if key not in state:
                continue
            value = state[key]
            try:
                if kind == SCROLL and isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                    self._pending[widget] = float(value)
                    self._range_changed(widget.get_vadjustment(), widget)  # type: ignore[attr-defined]
                elif kind == DRAFT and isinstance(value, str):
                    _set_text(widget, value)
                elif kind == SELECTION:
                    _select(widget, value)
            except (TypeError, ValueError, GLib.Error) as error:
                log.info("could not restore %s: %s", key, error)

    def _range_changed(self, adjustment: Gtk.Adjustment, scrolled: Gtk.Widget) -> None:
        """Applies a kept scroll offset once its scrolled area is tall enough to show it."""
        pending = self._pending.get(scrolled)
        if pending is not None and adjustment.get_upper() - adjustment.get_page_size() >= pending:
            # Not during the allocation that emitted "changed": a value set then moves the scrollbar, not the page.
            GLib.idle_add(self._apply_scroll, scrolled, adjustment, pending)

    def _apply_scroll(self, scrolled: Gtk.Widget, adjustment: Gtk.Adjustment, value: float) -> bool:
        if self._pending.get(scrolled) == value:
            del self._pending[scrolled]
            adjustment.set_value(value)
            scrolled.queue_allocate()
            self._on_shown()
        return GLib.SOURCE_REMOVE
