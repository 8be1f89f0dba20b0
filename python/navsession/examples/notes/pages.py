"""The Notes application's pages: one :class:`navsession.gtk.Page` per screen of its manifest.

=============  ===========================================================================================
screen         page
=============  ===========================================================================================
``notebooks``  :class:`NotebooksPage` — the split's first column: "All Notes" and every notebook
``notes``      :class:`NotesListPage` — the split's second column: the notes of a notebook (``notebook``)
``note``       :class:`NotePage` — the editor of note ``id``, pushed onto the second column
``compose``    :class:`ComposePage` — the new-note sheet
``search``     :class:`SearchPage` — the Search tab: a search field and the matching notes (``q``)
``settings``   :class:`SettingsPage` — the Settings tab: notebooks, new notes, appearance, storage
=============  ===========================================================================================

Pages never move anything themselves: they send commands (:meth:`navsession.gtk.Page.navigate`) or open a deep
link, and the daemon's change shows the result. Every command a page sends names the model it runs from
(``.from_(self.model_id)``), so it does what the page means whichever column of the split has the focus.

The two text pages (:class:`NotePage`, :class:`ComposePage`) protect their model while their text is not saved
(:meth:`~navsession.gtk.Page.protect`): the daemon then refuses whatever would close them — back, a deep link, the
sheet's Done button — and asks with the manifest's ``discardChanges`` dialog. Their text is kept as renderer state
by the binding (the fields are named ``title`` and ``body``: keys ``draft:title``, ``draft:body``), so it comes
back after the application or the daemon restarts, even after a crash; a draft too long for the renderer state's
4 096 bytes is kept in the database instead (:class:`DraftPage`).
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, cast

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gtk, Pango  # noqa: E402

from navsession import NavSessionError  # noqa: E402
from navsession import commands as c  # noqa: E402
from navsession.gtk import Page, PageContext, PageFactory  # noqa: E402

from .store import COLOR_SCHEMES, SORT_ORDERS, Note, NotesStore  # noqa: E402

if TYPE_CHECKING:
    from .app import NotesApp

log = logging.getLogger("navsession.examples.notes")

#: The renderer state a text page keeps itself, in compact JSON bytes; a longer draft goes to the database.
STATE_BUDGET = 3500
#: The tag of the split's second column (the manifest's): where notes are pushed.
LIST_COLUMN = "tag:list"


def _when(seconds: float) -> str:
    """A modification time as a list shows it: the time today, else the date."""
    then, now = time.localtime(seconds), time.localtime()
    if then[:3] == now[:3]:
        return time.strftime("%H:%M", then)
    return time.strftime("%-d %b %Y" if then.tm_year != now.tm_year else "%-d %b", then)


def _status(icon: str, title: str, description: str = "") -> Adw.StatusPage:
    return Adw.StatusPage(icon_name=icon, title=title, description=description, vexpand=True)


def _note_row(note: Note, *, show_notebook: bool = False) -> Adw.ActionRow:
    """A note in a list: its title, the start of its text and when it changed (and its notebook)."""
    subtitle = note.snippet() or "Empty note"
    if show_notebook:
        subtitle = f"{note.notebook} · {subtitle}"
    row = Adw.ActionRow(title=note.display_title, subtitle=subtitle, activatable=True, subtitle_lines=1,
                        title_lines=1, use_markup=False)
    stamp = Gtk.Label(label=_when(note.modified), valign=Gtk.Align.CENTER)
    stamp.add_css_class("dim-label")
    stamp.add_css_class("caption")
    row.add_suffix(stamp)
    row.add_suffix(Gtk.Image(icon_name="go-next-symbolic"))
    return row


def _clear(box: Gtk.ListBox) -> None:
    child = box.get_first_child()
    while child is not None:
        following = child.get_next_sibling()
        box.remove(child)
        child = following


class NotesPage(Page):
    """What every Notes page shares: the application's store, and a refresh whenever it changes."""

    def __init__(self, context: PageContext) -> None:
        super().__init__(context)
        self._unsubscribe: Optional[Callable[[], None]] = None

    @property
    def notes_app(self) -> "NotesApp":
        return cast("NotesApp", self.app)

    @property
    def store(self) -> NotesStore:
        return self.notes_app.store

    def follow_store(self) -> None:
        """Calls :meth:`refresh` after every write to the database (until the page closes)."""
        if self._unsubscribe is None:
            self._unsubscribe = self.store.subscribe(self.refresh)

    def refresh(self) -> None:
        """The database changed: show it again. The default does nothing."""

    def closed(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def failed(self, what: str) -> Callable[[NavSessionError], None]:
        """An ``on_error`` that logs a refused command (the daemon's state stays what the screen shows)."""
        return lambda error: log.info("%s refused: %s: %s", what, error.name, error.message)


# -- the split: notebooks and notes -------------------------------------------------------------------------

class NotebooksPage(NotesPage):
    """The ``notebooks`` screen, the split's first column: "All Notes" and each notebook with its number of notes.
    Activating one pushes ``notes`` from this column, which — the split's rule — replaces the second column with
    that notebook's list and focuses it."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.rows = Gtk.ListBox(css_classes=["navigation-sidebar"])
        self.rows.connect("row-activated", self._activated)
        self.ids: list[Optional[int]] = []
        self.refresh()
        self.follow_store()
        return Gtk.ScrolledWindow(child=self.rows, vexpand=True, hscrollbar_policy=Gtk.PolicyType.NEVER)

    def refresh(self) -> None:
        selected = self.rows.get_selected_row()
        index = selected.get_index() if selected is not None else -1
        _clear(self.rows)
        books = self.store.notebooks()
        self.ids = [None] + [b.id for b in books]
        entries = [("All Notes", sum(b.count for b in books), "view-list-symbolic")]
        entries += [(b.name, b.count, "folder-symbolic") for b in books]
        for name, count, icon in entries:
            line = Gtk.Box(spacing=12, margin_top=6, margin_bottom=6, margin_start=6, margin_end=6)
            line.append(Gtk.Image(icon_name=icon))
            line.append(Gtk.Label(label=name, xalign=0, hexpand=True, ellipsize=Pango.EllipsizeMode.END))
            number = Gtk.Label(label=str(count))
            number.add_css_class("dim-label")
            line.append(number)
            self.rows.append(line)
        if 0 <= index < len(self.ids):
            self.rows.select_row(self.rows.get_row_at_index(index))

    def _activated(self, _rows: Gtk.ListBox, row: Gtk.ListBoxRow) -> None:
        notebook = self.ids[row.get_index()] if row.get_index() < len(self.ids) else None
        params = {"notebook": str(notebook)} if notebook is not None else {}
        self.navigate(c.push("notes", params).from_(self.model_id), on_error=self.failed("opening a notebook"))


class NotesListPage(NotesPage):
    """The ``notes`` screen, the split's second column: the notes of notebook ``notebook`` (all without it), newest
    first or by title (Settings). Activating a note pushes its editor onto this column; "New Note" shows the
    ``compose`` sheet (its manifest style)."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.heading = Gtk.Label(xalign=0, hexpand=True, ellipsize=Pango.EllipsizeMode.END)
        self.heading.add_css_class("title-2")
        add = Gtk.Button(icon_name="list-add-symbolic", tooltip_text="New Note (Ctrl+N)", name="new-note")
        add.add_css_class("flat")
        add.connect("clicked", lambda _b: self.compose())
        top = Gtk.Box(spacing=6, margin_top=12, margin_bottom=6, margin_start=18, margin_end=12)
        top.append(self.heading)
        top.append(add)
        # Selection none: a boxed list of activatable rows (which note is open is the navigation's, not the list's).
        self.rows = Gtk.ListBox(selection_mode=Gtk.SelectionMode.NONE, css_classes=["boxed-list"],
                                valign=Gtk.Align.START)
        self.rows.connect("row-activated", self._activated)
        clamp = Adw.Clamp(child=self.rows, maximum_size=720, margin_top=6, margin_bottom=18, margin_start=12,
                          margin_end=12)
        self.empty = _status("accessories-text-editor-symbolic", "No Notes", "Create one with the + button.")
        self.content = Gtk.Stack(vexpand=True)
        self.content.add_named(Gtk.ScrolledWindow(child=clamp, hscrollbar_policy=Gtk.PolicyType.NEVER), "list")
        self.content.add_named(self.empty, "empty")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.append(top)
        box.append(self.content)
        self.notes: list[Note] = []
        self.update(params)
        self.follow_store()
        return box

    @property
    def notebook(self) -> Optional[int]:
        value = self.params.get("notebook", "")
        return int(value) if value.isdigit() else None

    def update(self, params: dict[str, str]) -> None:
        self.refresh()

    def refresh(self) -> None:
        book = self.store.notebook(self.notebook) if self.notebook is not None else None
        self.heading.set_label(book.name if book is not None else "All Notes")
        self.notes = self.store.notes(book.id if book is not None else None)
        _clear(self.rows)
        for note in self.notes:
            self.rows.append(_note_row(note, show_notebook=book is None))
        self.content.set_visible_child_name("list" if self.notes else "empty")

    def _activated(self, _rows: Gtk.ListBox, row: Gtk.ListBoxRow) -> None:
        if row.get_index() < len(self.notes):
            note = self.notes[row.get_index()]
            self.navigate(c.push("note", {"id": str(note.id)}).from_(self.model_id),
                          on_error=self.failed("opening a note"))

    def compose(self) -> None:
        params = {"notebook": str(self.notebook)} if self.notebook is not None else {}
        self.navigate(c.show("compose", params).from_(self.model_id), on_error=self.failed("New Note"))


# -- the two text pages --------------------------------------------------------------------------------------

class DraftPage(NotesPage):
    """A page with a title field and a body (``Gtk.Entry`` named ``title``, ``Gtk.TextView`` named ``body``) whose
    text may differ from what is stored. While it does, the page protects its model with ``reason``.

    Its renderer state is the binding's default (the fields' drafts and the scroll position) without the drafts
    that equal the stored text — so a clean page keeps nothing and a restored one never overwrites newer stored
    text. A state longer than :data:`STATE_BUDGET` is kept in the database's ``drafts`` table under the model's
    key and the renderer state says ``{"spilled": true}`` (the binding's renderer state holds at most 4 096 bytes)."""

    reason = "unsaved changes"

    def __init__(self, context: PageContext) -> None:
        super().__init__(context)
        self.baseline = ("", "")  # (title, body) as stored
        # False until the kept state is restored: filling the fields while building is not editing.
        self.watching = False

    def text_fields(self, title_placeholder: str) -> tuple[Gtk.Entry, Gtk.ScrolledWindow]:
        """Makes the two fields (watched for changes) and the scrolled area around the body."""
        self.title_field = Gtk.Entry(name="title", placeholder_text=title_placeholder, has_frame=False)
        self.title_field.add_css_class("title-2")
        self.body_field = Gtk.TextView(name="body", wrap_mode=Gtk.WrapMode.WORD_CHAR, vexpand=True, top_margin=12,
                                       bottom_margin=12, left_margin=12, right_margin=12, accepts_tab=False)
        self.title_field.connect("changed", lambda *_: self.edited())
        self.body_field.get_buffer().connect("changed", lambda *_: self.edited())
        scroller = Gtk.ScrolledWindow(child=self.body_field, vexpand=True, hscrollbar_policy=Gtk.PolicyType.NEVER)
        scroller.add_css_class("card")
        return self.title_field, scroller

    @property
    def title_text(self) -> str:
        return str(self.title_field.get_text())

    @property
    def body_text(self) -> str:
        buffer = self.body_field.get_buffer()
        return str(buffer.get_text(buffer.get_start_iter(), buffer.get_end_iter(), False))

    def set_texts(self, title: str, body: str) -> None:
        if self.title_text != title:
            self.title_field.set_text(title)
        if self.body_text != body:
            self.body_field.get_buffer().set_text(body, -1)

    @property
    def dirty(self) -> bool:
        return (self.title_text, self.body_text) != self.baseline

    def edited(self) -> None:
        """The text changed: protect the model while it differs from the stored text."""
        if not self.watching:
            return
        if self.dirty:
            self.protect(self.reason)
        else:
            self.unprotect()
        self.dirty_changed()

    def dirty_changed(self) -> None:
        """Whether the text differs from the stored text may have changed (buttons follow it)."""

    @property
    def draft_key(self) -> str:
        """The key of this model's spilled draft: ``<window number>/<model id>``."""
        return f"{self.window.path.rsplit('/', 1)[-1]}/{self.model_id}"

    def save_state(self) -> dict[str, Any]:
        state = super().save_state()
        # Only what differs from the stored text is a draft (an emptied field too: "" is kept then).
        for key, current, stored in (("draft:title", self.title_text, self.baseline[0]),
                                     ("draft:body", self.body_text, self.baseline[1])):
            if current == stored:
                state.pop(key, None)
            else:
                state[key] = current
        if len(json.dumps(state, separators=(",", ":")).encode()) > STATE_BUDGET:
            self.store.keep_draft(self.draft_key, self.title_text, self.body_text)
            state = {key: value for key, value in state.items() if not key.startswith("draft")}
            state["spilled"] = True
        return state

    def restore_state(self, state: dict[str, Any]) -> None:
        if state.get("spilled") is True:
            draft = self.store.draft(self.draft_key)
            if draft is not None:
                self.set_texts(draft.title, draft.body)
        super().restore_state(state)
        self.watching = True
        self.edited()

    def stored(self, title: str, body: str) -> None:
        """The text is stored: it is the new baseline, the mark goes, a spilled draft is dropped."""
        self.baseline = (title, body)
        self.store.drop_draft(self.draft_key)
        self.edited()
        self.state_changed()

    def closed(self) -> None:
        # The model finished (saved, discarded, popped): its spilled draft goes too. When the application quits the
        # models stay in the daemon, and so does the draft.
        if not self.notes_app.quitting:
            self.store.drop_draft(self.draft_key)
        super().closed()


class NotePage(DraftPage):
    """The ``note`` screen: the editor of note ``id``, pushed onto the split's second column. Save (the button or
    Ctrl+S) stores the text; Delete removes the note and goes back. Unsaved text protects the note: back, a deep
    link that resets the column, or choosing another notebook meets the ``discardChanges`` dialog."""

    reason = "unsaved changes"

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.note = self.store.note(int(params["id"])) if params.get("id", "").isdigit() else None
        if self.note is None:
            return _status("dialog-question-symbolic", "No Such Note",
                           f"Note {params.get('id', '')} does not exist; it may have been deleted.")
        self.baseline = (self.note.title, self.note.body)
        self.where = Gtk.Label(xalign=0, hexpand=True, ellipsize=Pango.EllipsizeMode.END)
        self.where.add_css_class("dim-label")
        delete = Gtk.Button(icon_name="user-trash-symbolic", tooltip_text="Delete Note", name="delete")
        delete.add_css_class("flat")
        delete.connect("clicked", lambda _b: self.delete())
        self.save_button = Gtk.Button(label="Save", name="save", tooltip_text="Save (Ctrl+S)")
        self.save_button.add_css_class("suggested-action")
        self.save_button.connect("clicked", lambda _b: self.save())
        top = Gtk.Box(spacing=6)
        top.append(self.where)
        top.append(delete)
        top.append(self.save_button)
        title, body = self.text_fields("Title")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=12, margin_bottom=12,
                      margin_start=12, margin_end=12)
        for widget in (top, title, body):
            box.append(widget)
        shortcuts = Gtk.ShortcutController(scope=Gtk.ShortcutScope.MANAGED)
        shortcuts.add_shortcut(Gtk.Shortcut.new(Gtk.ShortcutTrigger.parse_string("<Control>s"),
                                                Gtk.CallbackAction.new(lambda *_: (self.save(), True)[1])))
        box.add_controller(shortcuts)
        self.set_texts(*self.baseline)
        self.show_where()
        return box

    def show_where(self) -> None:
        if self.note is not None:
            self.where.set_label(f"{self.note.notebook} · edited {_when(self.note.modified)}")

    def dirty_changed(self) -> None:
        if self.note is not None:
            self.save_button.set_sensitive(self.dirty)

    def edited(self) -> None:
        if self.note is not None:
            super().edited()

    def save_state(self) -> dict[str, Any]:
        return super().save_state() if self.note is not None else {}

    def restore_state(self, state: dict[str, Any]) -> None:
        if self.note is not None:
            super().restore_state(state)

    def save(self) -> None:
        if self.note is None or not self.dirty:
            return
        title, body = self.title_text, self.body_text
        self.note = self.store.update_note(self.note.id, title, body) or self.note
        self.show_where()
        self.stored(title, body)

    def delete(self) -> None:
        if self.note is None:
            return
        self.store.delete_note(self.note.id)
        self.baseline = (self.title_text, self.body_text)  # nothing left to protect
        self.unprotect()
        self.navigate(c.go_back(), on_error=self.failed("going back from a deleted note"))


class ComposePage(DraftPage):
    """The ``compose`` sheet: a new note — notebook, title and text. Save stores it, closes the sheet and opens the
    note in the Notes tab; Cancel (or the sheet's Done button, or Escape) closes the sheet, which the daemon refuses
    while there is text, showing the ``discardChanges`` dialog (Discard / Keep editing) instead."""

    reason = "unsaved text"

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.saved: Optional[Note] = None
        self.books = self.store.notebooks()
        self.notebook_choice = Gtk.DropDown.new_from_strings([b.name for b in self.books])
        self.notebook_choice.set_name("notebook")
        self.notebook_choice.set_tooltip_text("Notebook")
        cancel = Gtk.Button(label="Cancel", name="cancel")
        cancel.connect("clicked", lambda _b: self.cancel())
        self.save_button = Gtk.Button(label="Save", name="save", sensitive=False)
        self.save_button.add_css_class("suggested-action")
        self.save_button.connect("clicked", lambda _b: self.save())
        bottom = Gtk.Box(spacing=6)
        bottom.append(self.notebook_choice)
        bottom.append(Gtk.Box(hexpand=True))
        bottom.append(cancel)
        bottom.append(self.save_button)
        title, body = self.text_fields("Title of the new note")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=12, margin_bottom=12,
                      margin_start=12, margin_end=12)
        for widget in (title, body, bottom):
            box.append(widget)
        shortcuts = Gtk.ShortcutController(scope=Gtk.ShortcutScope.MANAGED)
        shortcuts.add_shortcut(Gtk.Shortcut.new(Gtk.ShortcutTrigger.parse_string("<Control>s"),
                                                Gtk.CallbackAction.new(lambda *_: (self.save(), True)[1])))
        box.add_controller(shortcuts)
        self.update(params)
        return box

    def update(self, params: dict[str, str]) -> None:
        wanted = params.get("notebook", "")
        default = self.store.default_notebook()
        target = int(wanted) if wanted.isdigit() else (default.id if default is not None else None)
        index = next((i for i, b in enumerate(self.books) if b.id == target), 0)
        if self.books:
            self.notebook_choice.set_selected(index)

    def dirty_changed(self) -> None:
        self.save_button.set_sensitive(bool(self.title_text.strip() or self.body_text.strip()))

    def save(self) -> None:
        title, body = self.title_text, self.body_text
        if not (title.strip() or body.strip()):
            return
        position = self.notebook_choice.get_selected()
        notebook = self.books[position].id if 0 <= position < len(self.books) else None
        # A second Save (the sheet did not close: another mark refused it) updates the note made by the first.
        if self.saved is None:
            self.saved = self.store.add_note(title, body, notebook)
        else:
            self.saved = self.store.update_note(self.saved.id, title, body) or self.saved
        self.stored(title, body)
        note = str(self.saved.id)
        # One change: the sheet goes, the Notes tab and its list column (focused, should the split show one
        # column) get the new note on top.
        batch = [c.dismiss().from_(self.model_id)]
        if self.window.selected_tab != "notes":
            batch.append(c.select_tab("notes").from_(LIST_COLUMN))
        batch += [c.select_child(LIST_COLUMN).from_(LIST_COLUMN), c.push("note", {"id": note}).from_(LIST_COLUMN)]

        def refused(error: NavSessionError) -> None:
            # The note is stored whatever happens to the navigation; if opening it is refused, the sheet still
            # closes.
            log.info("opening the new note %s refused (%s: %s); closing the sheet", note, error.name, error.message)
            self.navigate(c.dismiss().from_(self.model_id), on_error=self.failed("closing the sheet"))

        self.navigate(*batch, on_error=refused)

    def cancel(self) -> None:
        self.navigate(c.dismiss().from_(self.model_id), on_error=self.failed("Cancel"))


# -- search --------------------------------------------------------------------------------------------------

class SearchPage(NotesPage):
    """The ``search`` screen, the Search tab's root: a search field and the notes whose title or text contain every
    word. The query is the model's ``q`` both ways: typing sets it (``setParams``, once the field pauses), and
    ``notes://search?q=…`` — whose push brings this very model to the top (the manifest gives ``search`` the
    identity ``scope``) — puts it into the field. Activating a result opens ``notes://note/<id>``."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.field = Gtk.SearchEntry(name="query", placeholder_text="Search notes", hexpand=True)
        self.field.connect("search-changed", lambda *_: self.typed())
        self.results = Gtk.ListBox(selection_mode=Gtk.SelectionMode.NONE, css_classes=["boxed-list"],
                                   valign=Gtk.Align.START)
        self.results.connect("row-activated", self._activated)
        self.summary = Gtk.Label(xalign=0)
        self.summary.add_css_class("dim-label")
        column = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
        column.append(self.summary)
        column.append(self.results)
        clamp = Adw.Clamp(child=column, maximum_size=720, margin_top=6, margin_bottom=18, margin_start=12,
                          margin_end=12)
        self.content = Gtk.Stack(vexpand=True)
        self.content.add_named(Gtk.ScrolledWindow(child=clamp, hscrollbar_policy=Gtk.PolicyType.NEVER), "results")
        self.content.add_named(_status("system-search-symbolic", "Search Notes",
                                       "Type words from a note's title or text."), "start")
        self.content.add_named(_status("edit-find-symbolic", "No Results", "Try other words."), "none")
        top = Adw.Clamp(child=self.field, maximum_size=720, margin_top=12, margin_start=12, margin_end=12)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        box.append(top)
        box.append(self.content)
        self.found: list[Note] = []
        self.sent: list[str] = []  # queries sent with setParams whose change has not come back yet
        self.committed = ""  # the query the model holds (or will, once what was sent arrives)
        self.setting = False  # while update() puts the model's query into the field
        self.update(params)
        self.follow_store()
        return box

    @property
    def query(self) -> str:
        return str(self.field.get_text())

    def update(self, params: dict[str, str]) -> None:
        q = params.get("q", "")
        if q in self.sent:
            # Our own setParams coming back (or one of them): nothing new to show.
            del self.sent[: self.sent.index(q) + 1]
            return
        if q != self.committed or q != self.query:
            self.committed = q
            if self.query != q:
                # set_text empties the field first, and an empty field says search-changed at once: not typing.
                self.setting = True
                try:
                    self.field.set_text(q)
                finally:
                    self.setting = False
        self.refresh()

    def typed(self) -> None:
        """The field paused (``search-changed``): show the results and keep the query in the model."""
        if self.setting:
            return
        self.refresh()
        if self.query != self.committed:
            self.committed = self.query
            self.sent.append(self.query)
            params = {"scope": self.params.get("scope", "all")}
            if self.query:
                params["q"] = self.query
            self.navigate(c.set_params(params, model=self.model_id), on_error=self.failed("keeping the query"))

    def refresh(self) -> None:
        query = self.query
        self.found = self.store.search(query)
        _clear(self.results)
        for note in self.found:
            self.results.append(_note_row(note, show_notebook=True))
        count = len(self.found)
        self.summary.set_label(f"{count} note{'s' if count != 1 else ''} found")
        self.content.set_visible_child_name("results" if self.found else ("none" if query.strip() else "start"))

    def _activated(self, _rows: Gtk.ListBox, row: Gtk.ListBoxRow) -> None:
        if row.get_index() < len(self.found):
            self.notes_app.open_url(f"notes://note/{self.found[row.get_index()].id}")


# -- settings ------------------------------------------------------------------------------------------------

class SettingsPage(NotesPage):
    """The ``settings`` screen, the Settings tab: notebooks (and a new one), the notebook new notes go to, the
    colour scheme and the sort order (stored in the database's settings), and where the database is."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        page = Adw.PreferencesPage()
        self.books_group = Adw.PreferencesGroup(title="Notebooks")
        self.new_book = Adw.EntryRow(title="New notebook", show_apply_button=True, name="new-notebook")
        self.new_book.connect("apply", lambda *_: self.add_notebook())
        self.new_book.connect("changed", lambda *_: self.new_book.remove_css_class("error"))
        self.book_rows: list[Adw.ActionRow] = []
        page.add(self.books_group)

        notes_group = Adw.PreferencesGroup(title="Notes")
        self.default_book = Adw.ComboRow(title="New notes go to")
        self.default_book.connect("notify::selected", lambda *_: self._default_chosen())
        self.sort = self._choice("Sort notes by", SORT_ORDERS, "sort", "modified")
        notes_group.add(self.default_book)
        notes_group.add(self.sort)
        page.add(notes_group)

        looks = Adw.PreferencesGroup(title="Appearance")
        looks.add(self._choice("Style", COLOR_SCHEMES, "color-scheme", "default",
                               lambda _value: self.notes_app.apply_color_scheme()))
        page.add(looks)

        storage = Adw.PreferencesGroup(title="Storage",
                                       description="Each profile (--instance) has a database of its own.")
        database = Adw.ActionRow(title="Database", subtitle=str(self.store.path))
        profile = Adw.ActionRow(title="Profile", subtitle=self.notes_app.instance)
        storage.add(database)
        storage.add(profile)
        page.add(storage)
        self._loading = False
        self.refresh()
        self.follow_store()
        return page

    def _choice(self, title: str, options: Mapping[str, str], key: str, default: str,
                then: Optional[Callable[[str], None]] = None) -> Adw.ComboRow:
        """A combo row over ``options`` (value → label) kept in the setting ``key``."""
        values = list(options)
        row = Adw.ComboRow(title=title, model=Gtk.StringList.new([options[v] for v in values]))
        current = self.store.setting(key, default)
        row.set_selected(values.index(current) if current in values else 0)

        def chosen(*_: object) -> None:
            position = row.get_selected()
            if 0 <= position < len(values):
                self.store.set_setting(key, values[position])
                if then is not None:
                    then(values[position])

        row.connect("notify::selected", chosen)
        return row

    def refresh(self) -> None:
        self._loading = True
        try:
            for row in self.book_rows:
                self.books_group.remove(row)
            if self.new_book.get_parent() is not None:
                self.books_group.remove(self.new_book)
            self.book_rows = []
            self.books = self.store.notebooks()
            for book in self.books:
                row = Adw.ActionRow(title=book.name, subtitle=f"{book.count} note{'s' if book.count != 1 else ''}")
                self.book_rows.append(row)
                self.books_group.add(row)
            self.books_group.add(self.new_book)
            default = self.store.default_notebook()
            self.default_book.set_model(Gtk.StringList.new([b.name for b in self.books]))
            index = next((i for i, b in enumerate(self.books) if default is not None and b.id == default.id), 0)
            if self.books:
                self.default_book.set_selected(index)
        finally:
            self._loading = False

    def _default_chosen(self) -> None:
        position = self.default_book.get_selected()
        if not self._loading and 0 <= position < len(self.books):
            self.store.set_setting("default-notebook", str(self.books[position].id))

    def add_notebook(self) -> None:
        try:
            self.store.add_notebook(str(self.new_book.get_text()))
        except ValueError as error:
            self.new_book.add_css_class("error")
            self.new_book.set_tooltip_text(str(error))
            return
        self.new_book.set_text("")
        self.new_book.set_tooltip_text(None)


PAGES: Mapping[str, PageFactory] = {"notebooks": NotebooksPage, "notes": NotesListPage, "note": NotePage,
                         "compose": ComposePage, "search": SearchPage, "settings": SettingsPage}
"""The page factory of every screen of the manifest."""
