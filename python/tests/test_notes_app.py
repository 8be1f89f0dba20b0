"""The Notes application (``python -m navsession.examples.notes``, Docs/notes-app.md) driven as a user.

The application runs as a program of its own under a private Xvfb, on the test's private bus, against a daemon
serving its manifest (``navsession/examples/notes/org.navsession.Notes.json``), with its own SQLite file and
``NAVSESSION_GTK_TEST_REPORT``: it appends what it shows just before it reports a version settled, so the test waits
for the window's ``SettledVersion`` (a D-Bus event) and reads the line. It acts as the user through the binding's
``org.navsession.gtk.TestProbe1`` (Type, Click, ActivateRow) and checks the daemon's state through the Python client
and the notes through the database. Nothing sleeps: every wait iterates the GLib main context — woken by the
daemon's signals, the application's exit or a bound — until a condition holds, within ``BOUND`` seconds.

The store's own tests need no display; the rest is skipped without Xvfb, GTK 4 or libadwaita for Python.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

import gtk_support
from gi.repository import Gio, GLib

import navsession
from navsession import errors
from navsession.examples.notes import MANIFEST
from navsession.examples.notes.store import NotesStore, database_path
from navsession.testing import TestBus, TestDaemon

REPOSITORY = Path(__file__).resolve().parents[2]
BOUND = 60.0  # seconds: generous, for a loaded machine; nothing waits this long when things work
PROBE_PATH = "/org/navsession/gtk/TestProbe"
PROBE_IFACE = "org.navsession.gtk.TestProbe1"


# -- the store (no display) ---------------------------------------------------------------------------------

def test_the_database_is_per_instance_under_xdg_data_home_unless_named(tmp_path: Path) -> None:
    environ = {"HOME": "/home/ann", "XDG_DATA_HOME": str(tmp_path)}
    assert database_path(None, None, environ) == tmp_path / "navsession-notes" / "default" / "notes.db"
    assert database_path("work", None, environ) == tmp_path / "navsession-notes" / "work" / "notes.db"
    assert database_path("work", None, {"HOME": "/home/ann"}) == Path(
        "/home/ann/.local/share/navsession-notes/work/notes.db")
    assert database_path("work", None, {**environ, "NOTES_DB": "/tmp/x.db"}) == Path("/tmp/x.db")
    assert database_path("work", "/tmp/y.db", {**environ, "NOTES_DB": "/tmp/x.db"}) == Path("/tmp/y.db")
    with pytest.raises(ValueError):
        database_path("../escape", None, environ)


def test_the_store_seeds_searches_every_word_and_keeps_long_drafts(tmp_path: Path) -> None:
    store = NotesStore(tmp_path / "sub" / "notes.db")
    assert [b.name for b in store.notebooks()] == ["Personal", "Work"]
    [welcome] = store.notes()
    work = next(b for b in store.notebooks() if b.name == "Work")
    trip = store.add_note("Holiday plans", "Lisbon in May, 100% sure", work.id)
    assert [n.id for n in store.search("lisbon MAY")] == [trip.id]
    assert store.search("100%") == [trip] and store.search("1_0") == [] and store.search("  ") == []
    assert {n.id for n in store.notes()} == {welcome.id, trip.id} and store.notes(work.id) == [trip]
    heard: list[int] = []
    stop = store.subscribe(lambda: heard.append(1))
    store.update_note(trip.id, "Holiday", "Porto")
    stop()
    store.delete_note(welcome.id)
    updated = store.note(trip.id)
    assert heard == [1] and store.note(welcome.id) is None and updated is not None and updated.body == "Porto"
    with pytest.raises(ValueError):
        store.add_notebook(" work ")  # names are unique regardless of case (and trimmed): "Work" exists
    store.keep_draft("1/9", "T", "x" * 10_000)
    assert store.draft("1/9").body == "x" * 10_000  # type: ignore[union-attr]
    store.drop_draft("1/9")
    assert store.draft("1/9") is None
    store.close()


# -- the display ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private X server (python/tests/gtk_support.py)."""
    with gtk_support.display(("Gtk", "Adw"), BOUND, "needs Xvfb, GTK 4 and libadwaita for Python (apt-get install xvfb "
                      "python3-gi gir1.2-gtk-4.0 gir1.2-adw-1)") as name:
        yield name


# -- waiting ------------------------------------------------------------------------------------------------

def until(condition: Callable[[], Any], what: str, *, alive: Optional[Callable[[], Optional[str]]] = None,
          log: Callable[[], str] = lambda: "") -> Any:
    """Iterates the main context (woken by D-Bus messages, child exits, the bound) until ``condition()`` is true;
    fails after ``BOUND`` seconds, or when ``alive()`` names a reason to stop (the application exited)."""
    context = GLib.MainContext.default()
    expired = [False]
    source = GLib.timeout_source_new(int(BOUND * 1000))
    source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
    source.attach(context)
    try:
        while True:
            value = condition()
            if value:
                return value
            problem = alive() if alive is not None else None
            if problem:
                pytest.fail(f"{problem} before {what}:\n{log()}")
            if expired[0]:
                pytest.fail(f"not within {BOUND} s: {what}\napplication log:\n{log()}")
            context.iteration(True)
    finally:
        source.destroy()


# -- the application ------------------------------------------------------------------------------------------

class NotesRun(gtk_support.AppRun):
    """One run of ``python -m navsession.examples.notes`` under Xvfb with its report file."""

    def __init__(self, display: str, database: Path, report: Path, log: Path, address: str,
                 connection: Gio.DBusConnection) -> None:
        super().__init__(["-m", "navsession.examples.notes", "--database", str(database), "--verbose"], display,
                         report, log, address, connection, BOUND, {"XDG_DATA_HOME": str(database.parent / "data")})

    def until(self, condition: Callable[[], Any], what: str, running: bool = True) -> Any:
        return until(condition, what, alive=(lambda: "the application exited" if self.exited else None)
                     if running else None, log=lambda: self.output)

    def shown(self, window: navsession.Window, version: Optional[int] = None) -> dict[str, Any]:
        """What the application shows of ``window`` once it settled ``version`` (default: the window's version now)
        or a later one: its report line."""
        wanted = window.version if version is None else version
        self.until(lambda: window.settled_by == self.bus_name() and window.settled_version >= wanted,
                   f"{window.path} settled at version {wanted}")
        lines = [line for line in self.lines() if line["window"] == window.path and line["version"] >= wanted]
        assert lines, f"no report line for {window.path} at version {wanted} or later: {self.lines()}"
        return lines[-1]

    def bus_name(self) -> Optional[str]:
        """The application's unique name on the bus (from its first report line)."""
        lines = self.lines()
        return lines[0]["bus"] if lines else None

    def first_window(self, session: navsession.Session) -> navsession.Window:
        """The window the application opens (or finds) when it starts, once it has shown it."""
        found: list[navsession.Window] = []
        stop = session.follow_windows(found.append, lambda _path: None)
        try:
            window = self.until(lambda: found[0] if found else None, "a window opened")
        finally:
            stop()
        self.until(self.bus_name, "the first report line")
        return window

    def probe(self, method: str, signature: str, args: tuple) -> None:
        """Calls the application's TestProbe1 (acting as the user)."""
        bus = self.until(self.bus_name, "the first report line")
        self.connection.call_sync(bus, PROBE_PATH, PROBE_IFACE, method, GLib.Variant(signature, args), None,
                                  Gio.DBusCallFlags.NONE, int(BOUND * 1000), None)

    def type(self, window: navsession.Window, model: int, key: str, text: str) -> None:
        self.probe("Type", "(otss)", (window.path, model, key, text))

    def click(self, window: navsession.Window, model: int, name: str) -> None:
        self.probe("Click", "(ots)", (window.path, model, name))

    def activate_row(self, window: navsession.Window, model: int, index: int) -> None:
        self.probe("ActivateRow", "(otu)", (window.path, model, index))

    def kill(self) -> None:
        """SIGKILL: a crash."""
        if not self.exited:
            self.process.force_exit()
            assert self.wait_exit(), "the application survived SIGKILL"



@pytest.fixture
def navsession_manifest() -> str:
    """The application's own manifest, served by the plugin's ``navsession_daemon``."""
    return str(MANIFEST)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "notes.db"


@pytest.fixture
def notes_app(display: str, navsession_bus: TestBus, database: Path,
              tmp_path: Path) -> Iterator[Callable[[], NotesRun]]:
    """Starts the application (each call another run, same database); stops every run afterwards."""
    connection = Gio.DBusConnection.new_for_address_sync(
        navsession_bus.address,
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    runs: list[NotesRun] = []

    def start() -> NotesRun:
        n = len(runs) + 1
        run = NotesRun(display, database, tmp_path / f"report-{n}.jsonl", tmp_path / f"app-{n}.log",
                       navsession_bus.address, connection)
        runs.append(run)
        return run

    try:
        yield start
    finally:
        for run in runs:
            run.stop()
        connection.close_sync(None)


def mark(window: navsession.Window, model: int) -> Optional[dict[str, Any]]:
    return next((m for m in window.protected or [] if m.get("model") == model), None)


def model_of(window: navsession.Window, model: int) -> dict[str, Any]:
    return next((m for m in window.state()["models"] if m["id"] == model), {})


def row(database: Path, note: int) -> Optional[tuple[str, str, str]]:
    """The note's (title, body, notebook name), read with plain SQL."""
    with sqlite3.connect(str(database)) as db:
        return db.execute("SELECT n.title, n.body, b.name FROM notes n JOIN notebooks b ON b.id = n.notebook_id "
                          "WHERE n.id = ?", (note,)).fetchone()


def titles(database: Path) -> list[str]:
    with sqlite3.connect(str(database)) as db:
        return [r[0] for r in db.execute("SELECT title FROM notes ORDER BY id")]


def prepare(database: Path, *notes: tuple[str, str]) -> list[int]:
    """Fills the database (seeded as the application seeds it) with ``notes`` (title, body) in Personal."""
    store = NotesStore(database)
    personal = next(b for b in store.notebooks() if b.name == "Personal")
    ids = [store.add_note(title, body, personal.id).id for title, body in notes]
    store.close()
    return ids


def open_compose(app: NotesRun, window: navsession.Window) -> int:
    """The user clicks "+" in the notes list: the new-note sheet; returns its model."""
    page = app.shown(window)["page"]
    assert (page["screen"], page["page"]) == ("notes", "NotesListPage"), page
    app.click(window, page["model"], "new-note")
    app.until(lambda: window.active_screen == "compose", "the new-note sheet shown")
    [sheet] = app.shown(window)["modals"]
    assert (sheet["style"], sheet["page"]["page"], sheet["visible"]) == ("sheet", "ComposePage", True)
    return int(sheet["page"]["model"])


# -- the tests ------------------------------------------------------------------------------------------------

def test_a_note_typed_into_the_new_note_sheet_is_stored_and_opened(
        notes_app: Callable[[], NotesRun], navsession_session: navsession.Session, database: Path) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    shown = app.shown(window)
    # The split's focused column: the notes list, the application's own page, in the window.
    assert (shown["page"]["screen"], shown["page"]["inWindow"]) == ("notes", True)
    assert window.selected_tab == "notes"

    compose = open_compose(app, window)
    app.type(window, compose, "draft:title", "Shopping list")
    app.type(window, compose, "draft:body", "Milk, eggs\nand bread")
    protection = app.until(lambda: mark(window, compose), "the sheet protected")
    assert (protection["reason"], protection["dialog"]) == ("unsaved text", "discardChanges")
    [sheet] = app.shown(window)["modals"]
    assert sheet["page"]["state"]["draft:title"] == "Shopping list" and sheet["page"]["protected"] is True

    app.click(window, compose, "save")
    # Stored, the sheet closed and the new note opened in the notes column, as one change.
    app.until(lambda: window.active_screen == "note", "the new note opened")
    shown = app.shown(window)
    assert shown["modals"] == [] and shown["dialogs"] == []
    page = shown["page"]
    assert (page["screen"], page["page"], page["protected"], page["state"]) == ("note", "NotePage", False, {})
    note = int(page["params"]["id"])
    assert row(database, note) == ("Shopping list", "Milk, eggs\nand bread", "Personal")
    assert window.protected == []
    routes = [(r.style, r.screen, dict(r.params)) for r in window.current_routes]
    assert routes == [("push", "note", {"id": str(note)})]


def test_a_deep_link_meets_the_unsaved_sheet_keep_editing_then_discard(
        notes_app: Callable[[], NotesRun], navsession_session: navsession.Session, database: Path) -> None:
    [groceries] = prepare(database, ("Groceries", "Milk, eggs"))
    app = notes_app()
    window = app.first_window(navsession_session)
    compose = open_compose(app, window)
    app.type(window, compose, "draft:title", "Half a thought")
    app.until(lambda: mark(window, compose), "the sheet protected")

    # The link would close the sheet: refused, and the manifest's dialog is shown in its place.
    with pytest.raises(errors.Prevented):
        navsession_session.open_url(f"notes://note/{groceries}")
    shown = app.shown(window)
    [dialog] = shown["dialogs"]
    assert (dialog["kind"], dialog["title"], dialog["actions"], dialog["visible"]) == (
        "alert", "Discard changes?", ["discard", "keep"], True)
    assert [m["page"]["model"] for m in shown["modals"]] == [compose]

    # "Keep editing": the dialog goes; the sheet, its text and its mark stay; nothing was stored.
    app.click(window, dialog["model"], "keep")
    app.until(lambda: window.active_screen == "compose", "the dialog gone")
    shown = app.shown(window)
    [sheet] = shown["modals"]
    assert shown["dialogs"] == [] and sheet["page"]["model"] == compose
    assert sheet["page"]["state"]["draft:title"] == "Half a thought" and sheet["page"]["protected"] is True
    assert mark(window, compose) is not None and "Half a thought" not in titles(database)

    # Again, and "Discard": the refused link is applied — the sheet goes, the note opens in the Notes tab.
    with pytest.raises(errors.Prevented):
        navsession_session.open_url(f"notes://note/{groceries}")
    [dialog] = app.shown(window)["dialogs"]
    app.click(window, dialog["model"], "discard")
    app.until(lambda: window.active_screen == "note", "the link's note shown")
    shown = app.shown(window)
    assert shown["modals"] == [] and shown["dialogs"] == []
    assert (shown["page"]["screen"], shown["page"]["params"]) == ("note", {"id": str(groceries)})
    assert window.selected_tab == "notes" and window.protected == []
    assert "Half a thought" not in titles(database)


def test_cancel_and_choosing_another_notebook_meet_the_dialog_too(
        notes_app: Callable[[], NotesRun], navsession_session: navsession.Session, database: Path) -> None:
    [groceries] = prepare(database, ("Groceries", "Milk, eggs"))
    app = notes_app()
    window = app.first_window(navsession_session)
    # The sheet's Cancel with text: the application's dismiss is refused, the dialog asks; Discard closes the sheet.
    compose = open_compose(app, window)
    app.type(window, compose, "draft:body", "not worth keeping")
    app.until(lambda: mark(window, compose), "the sheet protected")
    app.click(window, compose, "cancel")
    app.until(lambda: window.active_screen == "alert", "the dialog after Cancel")
    [dialog] = app.shown(window)["dialogs"]
    app.click(window, dialog["model"], "discard")
    app.until(lambda: window.active_screen == "notes", "the sheet discarded")
    assert app.shown(window)["modals"] == [] and len(titles(database)) == 2  # the welcome note and Groceries

    # Unsaved changes in the editor: choosing a notebook would replace the list column, so the dialog asks first.
    notebooks = next(m["id"] for m in window.state()["models"] if m.get("screen") == "notebooks")
    app.activate_row(window, app.shown(window)["page"]["model"], 0)
    app.until(lambda: window.active_screen == "note", "the note opened")
    editor = window.active_model
    app.shown(window)
    app.type(window, editor, "draft:title", "Groceries for Sunday")
    app.until(lambda: mark(window, editor), "the editor protected")
    app.activate_row(window, notebooks, 2)  # All Notes, Personal, Work
    app.until(lambda: window.active_screen == "alert", "the dialog after choosing a notebook")
    [dialog] = app.shown(window)["dialogs"]
    app.click(window, dialog["model"], "keep")
    app.until(lambda: window.active_screen == "note", "back in the editor")
    page = app.shown(window)["page"]
    assert (page["model"], page["state"]["draft:title"], page["protected"]) == (editor, "Groceries for Sunday", True)
    app.click(window, editor, "save")
    app.until(lambda: mark(window, editor) is None, "saved")
    assert row(database, groceries) == ("Groceries for Sunday", "Milk, eggs", "Personal")
    # Saved, the same choice goes through: the Work notebook's list replaces the column.
    app.activate_row(window, notebooks, 2)
    app.until(lambda: window.active_screen == "notes", "the Work notebook shown")
    with sqlite3.connect(str(database)) as db:
        (work,) = db.execute("SELECT id FROM notebooks WHERE name = 'Work'").fetchone()
    assert app.shown(window)["page"]["params"] == {"notebook": str(work)}


def test_a_search_link_lists_the_matching_note(
        notes_app: Callable[[], NotesRun], navsession_session: navsession.Session, database: Path) -> None:
    groceries, holiday, birthday = prepare(database, ("Groceries", "Milk, eggs"),
                                            ("Holiday plans", "Lisbon in May"), ("Birthday", "Cake in May"))
    app = notes_app()
    window = app.first_window(navsession_session)
    search_model = next(m["id"] for m in window.state()["models"] if m.get("screen") == "search")

    navsession_session.open_url("notes://search?q=lisbon%20may")
    app.until(lambda: window.active_screen == "search", "the search shown")
    page = app.shown(window)["page"]
    # The link brought the Search tab's own search to the top with the query (its identity: same model).
    assert (page["model"], page["page"], page["params"]) == (search_model, "SearchPage",
                                                             {"q": "lisbon may", "scope": "all"})
    assert page["state"].get("draft:query") == "lisbon may"
    # One result: its row opens that note (the row after it does not exist).
    with pytest.raises(GLib.Error, match="has no row 1"):
        app.activate_row(window, search_model, 1)
    app.activate_row(window, search_model, 0)
    app.until(lambda: window.active_screen == "note", "the result opened")
    page = app.shown(window)["page"]
    assert (page["screen"], page["params"]) == ("note", {"id": str(holiday)})

    # Another query from a link replaces this one; typing sets the model's query too.
    navsession_session.open_url("notes://search?q=milk")
    app.until(lambda: window.active_screen == "search", "the second search")
    assert app.shown(window)["page"]["params"] == {"q": "milk", "scope": "all"}
    app.type(window, search_model, "draft:query", "cake")
    app.until(lambda: model_of(window, search_model).get("params", {}).get("q") == "cake", "the typed query kept")
    app.activate_row(window, search_model, 0)
    app.until(lambda: window.active_screen == "note", "the typed search's result opened")
    assert app.shown(window)["page"]["params"] == {"id": str(birthday)}
    assert groceries not in (holiday, birthday)


def test_the_editors_draft_and_the_navigation_come_back_after_a_crash(
        notes_app: Callable[[], NotesRun], navsession_bus: TestBus, database: Path, tmp_path: Path) -> None:
    [groceries] = prepare(database, ("Groceries", "Milk, eggs"))
    state_dir = tmp_path / "state"
    daemon = TestDaemon(navsession_bus.address, str(MANIFEST), state_dir=state_dir)
    daemon.start()
    try:
        session = navsession.connect(navsession_bus.address, daemon.name, start=False)
        app = notes_app()
        window = app.first_window(session)
        page = app.shown(window)["page"]
        assert page["screen"] == "notes"
        # The user opens the newest note (the first row) and types into it without saving.
        app.activate_row(window, page["model"], 0)
        app.until(lambda: window.active_screen == "note", "the note opened")
        editor = window.active_model
        page = app.shown(window)["page"]
        assert (page["model"], page["params"]) == (editor, {"id": str(groceries)})
        draft = "Milk, eggs, bread\nand the cheese Ann likes"
        app.type(window, editor, "draft:body", draft)
        app.until(lambda: (model_of(window, editor).get("rendererState") or {}).get("draft:body") == draft,
                  "the draft kept in the daemon")
        app.until(lambda: mark(window, editor), "the note protected")
        path = window.path
        session.close()

        # A crash: both processes killed, nothing saved on the way out.
        app.kill()
        daemon.kill()
        assert row(database, groceries) == ("Groceries", "Milk, eggs", "Personal")  # the draft was never saved

        # The daemon comes back from its state directory with the window where it was.
        daemon.start()
        session = navsession.connect(navsession_bus.address, daemon.name, start=False)
        assert session.restore_reason == "recover"
        window = session.window(path)
        assert (window.selected_tab, window.active_screen, window.active_model) == ("notes", "note", editor)
        assert model_of(window, editor)["params"] == {"id": str(groceries)}

        # The application comes back to the same note with the draft typed back, which protects it again.
        again = notes_app()
        again.until(lambda: mark(window, editor), "the note protected again")
        page = again.shown(window)["page"]
        assert (page["model"], page["screen"], page["params"], page["protected"]) == (
            editor, "note", {"id": str(groceries)}, True)
        assert page["state"]["draft:body"] == draft
        assert mark(window, editor)["owner"] == again.bus_name()  # type: ignore[index]
        assert row(database, groceries) == ("Groceries", "Milk, eggs", "Personal")

        # Saving it now stores the draft and removes the mark.
        again.click(window, editor, "save")
        again.until(lambda: mark(window, editor) is None, "the mark gone once saved")
        assert row(database, groceries) == ("Groceries", draft, "Personal")
        again.stop()  # before the daemon: the application would only see it go
        session.close()
    finally:
        daemon.close()


def test_a_draft_too_long_for_the_renderer_state_is_kept_in_the_database(
        notes_app: Callable[[], NotesRun], navsession_session: navsession.Session, database: Path) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    compose = open_compose(app, window)
    long_text = "\n".join(f"{n}. a line of a long letter to Ann" for n in range(200))  # ≈ 7 KB
    app.type(window, compose, "draft:title", "Letter")
    app.type(window, compose, "draft:body", long_text)
    # The renderer state only says where the draft is; the database holds it, under the window and model.
    app.until(lambda: (model_of(window, compose).get("rendererState") or {}).get("spilled") is True,
              "the spilled draft noted in the daemon")
    with sqlite3.connect(str(database)) as db:
        kept = db.execute("SELECT title, body FROM drafts WHERE key = ?", (f"1/{compose}",)).fetchone()
    assert kept == ("Letter", long_text)

    # The application crashes; started again, the sheet gets the long draft back from the database.
    app.kill()
    again = notes_app()
    again.until(lambda: mark(window, compose), "the sheet protected again")
    [sheet] = again.shown(window)["modals"]
    assert sheet["page"]["model"] == compose and sheet["page"]["state"].get("spilled") is True
    again.click(window, compose, "save")
    again.until(lambda: window.active_screen == "note", "the long note stored and opened")
    note = int(again.shown(window)["page"]["params"]["id"])
    assert row(database, note) == ("Letter", long_text, "Personal")
    with sqlite3.connect(str(database)) as db:
        assert db.execute("SELECT COUNT(*) FROM drafts").fetchone() == (0,)


def test_a_narrow_window_collapses_the_split_to_its_focused_column(
        notes_app: Callable[[], NotesRun], navsession_session: navsession.Session) -> None:
    # The window's size is its renderer state (model 0): a window kept at 420 px wide opens narrow.
    window = navsession_session.open_window("main")
    window.call("SetRendererState", "(ts)", (0, json.dumps({"height": 560, "width": 420})))
    split = next(m["id"] for m in window.state()["models"] if m.get("customKind") == "split")
    app = notes_app()
    app.until(lambda: model_of(window, split).get("collapsed") is True, "the split reported collapsed")
    page = app.shown(window)["page"]
    assert (page["screen"], page["inWindow"]) == ("notes", True)
    # Collapsed, the notebooks column is behind the list: back focuses it.
    assert window.can_go_back
    window.go_back()
    app.until(lambda: window.active_screen == "notebooks", "the notebooks column focused")
    assert app.shown(window)["page"]["page"] == "NotebooksPage"


def test_launched_with_no_daemon_running_it_starts_one_by_dbus_activation(display: str, tmp_path: Path) -> None:
    """As from its desktop entry: nothing serves org.navsession.Notes, the bus has its service file (what
    scripts/install puts in share/dbus-1/services), and the application's start activates the daemon."""
    from navsession.testing import find_bus_config, find_daemon
    services = tmp_path / "services"
    services.mkdir()
    (services / "org.navsession.Notes.service").write_text(
        "[D-BUS Service]\nName=org.navsession.Notes\n"
        f"Exec={find_daemon()} --manifest {MANIFEST} --state-dir {tmp_path / 'state'}\n", encoding="utf-8")
    config = tmp_path / "bus.conf"
    config.write_text(
        '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"\n'
        ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
        f"<busconfig><include>{find_bus_config()}</include><servicedir>{services}</servicedir></busconfig>\n",
        encoding="utf-8")
    bus = TestBus(str(config)).start()
    connection = Gio.DBusConnection.new_for_address_sync(
        bus.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    run = NotesRun(display, tmp_path / "notes.db", tmp_path / "report.jsonl", tmp_path / "app.log", bus.address,
                   connection)
    try:
        session = navsession.connect(bus.address, "org.navsession.Notes", start=False)
        window = run.first_window(session)
        assert run.shown(window)["page"] is not None
        assert session.name_owner is not None
        session.close()
    finally:
        run.stop()
        connection.close_sync(None)
        bus.stop()
