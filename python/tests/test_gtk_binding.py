"""navsession.gtk against a real daemon: the example of Docs/python.md ("Your own widgets: navsession.gtk"), taken
from the document itself (so the documentation is what runs), under Xvfb.

The example application runs as a program of its own — GTK wants its main thread and a display from its start —
on the test's private bus (the ``navsession_*`` fixtures, serving the document's manifest) with
``NAVSESSION_GTK_TEST_REPORT``: it appends what it shows to a file just before it reports a version settled, so
the test waits for the window's ``SettledVersion`` (a D-Bus event) and then reads the line; it acts as the user
through the application's ``org.navsession.gtk.TestProbe1``. Nothing sleeps: every wait iterates the GLib main
context until a condition holds, woken by the daemon's signals or the application's exit, within ``BOUND``
seconds. Skipped without Xvfb or GTK 4 for Python.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

import gtk_support
from gi.repository import Gio, GLib

import navsession
from navsession import errors

REPOSITORY = Path(__file__).resolve().parents[2]
DOC = REPOSITORY / "Docs" / "python.md"
SECTION = "## Your own widgets: navsession.gtk"
BOUND = 60.0  # seconds: generous, for a loaded machine; nothing waits this long when things work


# -- the example, from the document ---------------------------------------------------------------------------

def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else len(text)]


def block(language: str) -> str:
    """The first ```language block of the section."""
    found = re.search(rf"^```{language}\n(.*?)^```$", section(), re.S | re.M)
    assert found, f"no ```{language} block in {DOC.name}'s section {SECTION!r}"
    return found.group(1)


def test_the_section_has_a_manifest_and_an_application_of_about_sixty_lines() -> None:
    manifest = json.loads(block("json"))
    assert {s["name"] for s in manifest["screens"]} == {"notes", "note"}
    assert "discardChanges" in manifest["dialogs"]
    app = block("python")
    assert 40 <= len(app.splitlines()) <= 70
    assert '"notes": note_list' in app and '"note": NotePage' in app


def test_import_navsession_does_not_import_gtk() -> None:
    code = ("import sys, navsession; "
            "print(sorted(m for m in ('navsession.gtk', 'gi.repository.Gtk') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND,
                         env={**os.environ, "PYTHONPATH": str(REPOSITORY / "python")}, check=True).stdout
    assert out.strip() == "[]"


# -- the display --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private X server (python/tests/gtk_support.py)."""
    with gtk_support.display(("Gtk",), BOUND, "needs Xvfb and GTK 4 for Python (apt-get install xvfb python3-gi "
                      "gir1.2-gtk-4.0)") as name:
        yield name


# -- the daemon and the application -------------------------------------------------------------------------

@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    """The document's manifest, served by the plugin's ``navsession_daemon``."""
    path = tmp_path / "notes.json"
    path.write_text(block("json"), encoding="utf-8")
    return str(path)


class NotesApp(gtk_support.AppRun):
    """The document's application, run as a program under Xvfb with its report file."""

    def __init__(self, script: Path, display: str, report: Path, log: Path,
                 connection: Gio.DBusConnection) -> None:
        super().__init__([str(script)], display, report, log, os.environ["DBUS_SESSION_BUS_ADDRESS"], connection,
                         BOUND)

    def until(self, condition: Callable[[], Any], what: str, running: bool = True) -> Any:
        """Iterates the main context (the daemon's signals, the application's exit wake it) until ``condition()``
        is true; fails after ``BOUND`` seconds, or when the application exited unless ``running`` is false."""
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
                if self.exited and running:
                    pytest.fail(f"the example application exited before {what}:\n{self.output}")
                if expired[0]:
                    pytest.fail(f"not within {BOUND} s: {what}\napplication log:\n{self.output}")
                context.iteration(True)
        finally:
            source.destroy()

    def shown(self, window: navsession.Window, version: int) -> dict[str, Any]:
        """What the application shows of ``window`` once it settled ``version`` (or a later one): its report line."""
        # SettledBy names the renderer that reported (empty before any report: version 0 is "settled" then).
        self.until(lambda: window.settled_by and window.settled_version >= version,
                   f"{window.path} settled at version {version}")
        lines = [line for line in self.lines() if line["window"] == window.path and line["version"] >= version]
        assert lines, f"no report line for {window.path} at version {version} or later: {self.lines()}"
        return lines[-1]

    def first_window(self, session: navsession.Session) -> navsession.Window:
        """The window the application opens when it starts (the manifest's first scene)."""
        found: list[navsession.Window] = []
        stop = session.follow_windows(found.append, lambda _path: None)
        try:
            return self.until(lambda: found[0] if found else None, "a window opened")
        finally:
            stop()

    def probe(self, bus: str, method: str, signature: str, args: tuple) -> None:
        """Calls the application's TestProbe1 (acting as the user)."""
        self.connection.call_sync(bus, "/org/navsession/gtk/TestProbe", "org.navsession.gtk.TestProbe1", method,
                                  GLib.Variant(signature, args), None, Gio.DBusCallFlags.NONE, int(BOUND * 1000), None)


@pytest.fixture
def notes_app(display: str, navsession_daemon: Any, navsession_session: navsession.Session,
              tmp_path: Path) -> Iterator[Callable[[], NotesApp]]:
    """Starts the document's application (each call another run of it); stops every run afterwards."""
    script = tmp_path / "notes_app.py"
    script.write_text(block("python"), encoding="utf-8")
    runs: list[NotesApp] = []

    def start() -> NotesApp:
        n = len(runs) + 1
        app = NotesApp(script, display, tmp_path / f"report-{n}.jsonl", tmp_path / f"app-{n}.log",
                       navsession_session.connection)
        runs.append(app)
        return app

    try:
        yield start
    finally:
        for app in runs:
            app.stop()


def mark(window: navsession.Window, model: int) -> Optional[dict[str, Any]]:
    return next((m for m in window.protected or [] if m.get("model") == model), None)


def renderer_state(window: navsession.Window, model: int) -> dict[str, Any]:
    model_json = next((m for m in window.state()["models"] if m["id"] == model), {})
    return dict(model_json.get("rendererState") or {})


# -- the tests ----------------------------------------------------------------------------------------------

def test_the_example_shows_its_own_widgets_and_a_typed_draft_survives_as_renderer_state(
        notes_app: Callable[[], NotesApp], navsession_session: navsession.Session) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    shown = app.shown(window, window.version)
    page = shown["page"]
    # The list screen: the widget the plain function built, in the window.
    assert (page["screen"], page["page"], page["factory"]) == ("notes", "WidgetPage", "note_list")
    assert page["widget"] == "GtkScrolledWindow" and page["inWindow"] is True
    assert shown["dialogs"] == [] and shown["modals"] == []

    # The user activates the second row: the function's ctx.navigate pushes that note.
    app.probe(shown["bus"], "ActivateRow", "(otu)", (window.path, page["model"], 1))
    app.until(lambda: window.active_screen == "note", "the note pushed")
    page = app.shown(window, window.version)["page"]
    assert (page["screen"], page["page"], page["factory"]) == ("note", "NotePage", "NotePage")
    assert page["widget"] == "GtkBox" and page["inWindow"] is True
    assert page["params"] == {"id": "2"} and page["state"] == {} and page["protected"] is False
    note = page["model"]

    # Typed into the page's Gtk.Entry: the draft is kept in the daemon (SetRendererState, seen in GetState), and
    # the page protected its model with the manifest's dialog.
    app.probe(shown["bus"], "Type", "(otss)", (window.path, note, "", "Dear Ann,"))
    app.until(lambda: renderer_state(window, note) == {"draft": "Dear Ann,"}, "the draft in GetState")
    protection = app.until(lambda: mark(window, note), "the note protected")
    assert (protection["reason"], protection["dialog"], protection["owner"]) == (
        "unsaved text", "discardChanges", shown["bus"])
    # The list kept its selection too (the row the user activated), without code of the application.
    assert renderer_state(window, shown["page"]["model"]) == {"selection": 1}

    # The application quits: its mark goes with its connection; the draft stays in the daemon.
    app.stop()
    app.until(lambda: mark(window, note) is None, "the mark gone with the application", running=False)
    assert renderer_state(window, note) == {"draft": "Dear Ann,"}

    # Started again, it shows the note with the draft typed back, which protects the note again.
    again = notes_app()
    protection = again.until(lambda: mark(window, note), "the note protected again")
    page = again.shown(window, window.version)["page"]
    assert (page["model"], page["page"], page["state"], page["protected"]) == (
        note, "NotePage", {"draft": "Dear Ann,"}, True)
    assert protection["owner"] != shown["bus"]


def test_a_protected_page_makes_the_daemon_refuse_a_pop_and_the_manifests_dialog_shows(
        notes_app: Callable[[], NotesApp], navsession_session: navsession.Session) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    bus = app.shown(window, window.version)["bus"]
    window.push("note", {"id": "1"})
    note = window.active_model
    page = app.shown(window, window.version)["page"]
    assert (page["model"], page["page"], page["widget"]) == (note, "NotePage", "GtkBox")

    app.probe(bus, "Type", "(otss)", (window.path, note, "", "half a thought"))
    app.until(lambda: mark(window, note), "the note protected")
    with pytest.raises(errors.Prevented):
        window.pop()
    # Refused: the note stays; the daemon presented the manifest's dialog in its place, and the application shows it.
    shown = app.shown(window, window.version)
    assert shown["page"]["model"] == note and shown["page"]["protected"] is True
    [dialog] = shown["dialogs"]
    assert (dialog["kind"], dialog["title"], dialog["actions"], dialog["visible"]) == (
        "alert", "Discard changes?", ["discard", "keep"], True)

    # "Discard" re-applies the refused pop: the note goes (its page closes), the list is shown again.
    (version,) = window.call("ReportActionChosen", "(ts)", (dialog["model"], "discard"))
    shown = app.shown(window, version)
    assert shown["page"]["screen"] == "notes" and shown["dialogs"] == []
    assert mark(window, note) is None


WIDGET_STATE_SCRIPT = r'''
import json
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk
from navsession.gtk.widget_state import WidgetState

def page():
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    inner = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    box.append(Gtk.ScrolledWindow(child=inner))
    inner.append(Gtk.Entry())
    subject = Gtk.Entry()
    subject.set_name("subject")
    inner.append(subject)
    inner.append(Gtk.Entry())
    inner.append(Gtk.PasswordEntry())
    inner.append(Gtk.Entry(visibility=False))
    inner.append(Gtk.Entry(editable=False))
    inner.append(Gtk.SpinButton.new_with_range(0, 10, 1))
    inner.append(Gtk.TextView())
    rows = Gtk.ListBox(selection_mode=Gtk.SelectionMode.MULTIPLE)
    for n in range(4):
        rows.append(Gtk.Label(label=str(n)))
    inner.append(rows)
    inner.append(Gtk.DropDown.new_from_strings(["a", "b", "c"]))
    return box

def fields(root):
    found, pending = [], [root]
    while pending:
        widget = pending.pop(0)
        found.append(widget)
        child = widget.get_first_child()
        while child is not None:
            pending.append(child)
            child = child.get_next_sibling()
    return found

first = page()
state = WidgetState(lambda: None, lambda: None)
state.watch(first)
widgets = fields(first)
entries = [w for w in widgets if type(w) is Gtk.Entry]
for entry, text in zip(entries, ["Dear Ann,", "Lunch", "P.S.", "secret", "read only"]):
    entry.set_text(text)
[w for w in widgets if isinstance(w, Gtk.PasswordEntry)][0].set_text("hunter2")
[w for w in widgets if isinstance(w, Gtk.TextView)][0].get_buffer().set_text("a longer text", -1)
rows = [w for w in widgets if isinstance(w, Gtk.ListBox)][0]
rows.select_row(rows.get_row_at_index(1))
rows.select_row(rows.get_row_at_index(3))
[w for w in widgets if isinstance(w, Gtk.DropDown)][0].set_selected(2)
saved = state.save(first)

second = page()
restored = WidgetState(lambda: None, lambda: None)
restored.watch(second)
restored.restore(second, saved)
print(json.dumps({"saved": saved, "again": restored.save(second)}, sort_keys=True))
'''


def test_the_default_state_keeps_drafts_and_selections_by_key_and_never_a_password(display: str) -> None:
    out = subprocess.run([sys.executable, "-c", WIDGET_STATE_SCRIPT], capture_output=True, text=True, timeout=BOUND,
                         env={**os.environ, "DISPLAY": display, "GDK_BACKEND": "x11", "GTK_A11Y": "none",
                              "NO_AT_BRIDGE": "1", "PYTHONPATH": str(REPOSITORY / "python")})
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    # The first unnamed field of a kind is keyed by the kind, the next by their order; a named one by its name.
    # Passwords, hidden and read-only entries and spin buttons are not kept; nothing scrolled, nothing kept.
    assert result["saved"] == {"draft": "Dear Ann,", "draft:subject": "Lunch", "draft#2": "P.S.",
                               "draft#3": "a longer text", "selection": [1, 3], "selection#2": 2}
    assert result["again"] == result["saved"]


def test_closing_the_last_window_closes_it_in_the_daemon_and_quits_the_application(
        notes_app: Callable[[], NotesApp], navsession_session: navsession.Session) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    bus = app.shown(window, window.version)["bus"]
    app.probe(bus, "Close", "(o)", (window.path,))
    # ReportClosed: the daemon dismisses the window; its removal was the user's last window, so the app quits.
    app.until(lambda: app.exited and window.closed, "the window closed and the application quit", running=False)
    assert navsession_session.windows() == []


def test_the_probe_clicks_a_dialogs_action_and_a_pages_button(
        notes_app: Callable[[], NotesApp], navsession_session: navsession.Session) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    bus = app.shown(window, window.version)["bus"]
    window.push("note", {"id": "3"})
    note = window.active_model
    assert app.shown(window, window.version)["page"]["model"] == note
    app.probe(bus, "Type", "(otss)", (window.path, note, "", "a gift"))
    app.until(lambda: mark(window, note), "the note protected")
    with pytest.raises(errors.Prevented):
        window.pop()
    [dialog] = app.shown(window, window.version)["dialogs"]

    # Click on a dialog's action (by its id): "Keep editing" closes the dialog, the note and its text stay.
    app.probe(bus, "Click", "(ots)", (window.path, dialog["model"], "keep"))
    app.until(lambda: window.active_screen == "note", "the dialog gone")
    shown = app.shown(window, window.version)
    assert shown["dialogs"] == [] and shown["page"]["state"] == {"draft": "a gift"}
    with pytest.raises(GLib.Error, match="no button 'Send'"):
        app.probe(bus, "Click", "(ots)", (window.path, note, "Send"))

    # Click on a page's button (by its label): the example's Save empties the field (unprotecting) and goes back.
    app.probe(bus, "Click", "(ots)", (window.path, note, "Save"))
    app.until(lambda: window.active_screen == "notes", "back on the list after Save")
    assert mark(window, note) is None
    app.stop()  # its output is written out when it exits (a file is block-buffered)
    assert "note 3: a gift" in app.output


def test_an_announcement_moves_focus_to_the_page_or_dialog_of_its_model_and_is_the_windows_status(
        notes_app: Callable[[], NotesApp], navsession_session: navsession.Session) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    app.shown(window, window.version)
    heard: list[navsession.Announcement] = []
    stop = window.connect_announcement(heard.append)
    try:
        # A push: the daemon says the note's title and that focus goes to the note.
        version = window.push("note", {"id": "2"})
        said = app.until(lambda: next((a for a in heard if a.version == version), None), "the push's Announcement")
        note = window.active_model
        assert (said.text, said.focus_model) == ("Note", note)
        shown = app.shown(window, version)
        # The renderer's status label has the text (its accessible role: status), and the focused widget is in
        # the note's page (its text field: the first widget of the page that takes focus).
        assert shown["announcement"] == {"version": version, "text": "Note", "focusModel": note, "status": "Note",
                                         "role": "status"}
        assert shown["focus"] == {"model": note, "widget": "GtkText", "window": "main"}

        # A refused pop presents the manifest's alert in its place: focus goes to its cancel action, in the alert.
        app.probe(shown["bus"], "Type", "(otss)", (window.path, note, "", "draft"))
        app.until(lambda: mark(window, note), "the note protected")
        with pytest.raises(errors.Prevented):
            window.pop()
        alert = window.active_model
        said = app.until(lambda: next((a for a in heard if a.focus_model == alert), None), "the alert's Announcement")
        assert said.text == "Alert: Discard changes?"
        shown = app.shown(window, said.version)
        assert shown["announcement"]["status"] == said.text and shown["announcement"]["focusModel"] == alert
        assert shown["focus"] == {"model": alert, "widget": "GtkButton", "window": alert}

        # Keep editing: back on the note, where focus was (the text field).
        (version,) = window.call("ReportActionChosen", "(ts)", (alert, "keep"))
        said = app.until(lambda: next((a for a in heard if a.version == version), None), "the Announcement of keep")
        assert (said.text, said.focus_model) == ("Note", note)
        shown = app.shown(window, version)
        assert shown["announcement"]["status"] == "Note"
        assert shown["focus"] == {"model": note, "widget": "GtkText", "window": "main"}
    finally:
        stop()
