"""navsession.gtk moves tabs between windows (Session1 ``MoveModel``) from a tab's context menu, under Xvfb.

A small application on the binding (a ``detail`` page with a text field, every other screen the placeholder) runs
as a program of its own on the test's private bus, the daemon serving a manifest whose one scene opens many windows
of a tab container ("a" and "b", each a stack), with ``NAVSESSION_GTK_TEST_REPORT``: it appends what it shows to a
file just before it reports a version settled, so the test waits for the window's ``SettledVersion`` and reads the
line. It acts as the user through the application's ``org.navsession.gtk.TestProbe1``: ``TabMenu`` opens a tab's
context menu as a right-click does and chooses an item. Nothing sleeps: every wait iterates the GLib main context
until a condition holds, woken by the daemon's signals or the application's exit, within ``BOUND`` seconds.
Skipped without Xvfb or GTK 4 for Python.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import gtk_support
from gi.repository import Gio, GLib

import navsession

BOUND = 60.0  # seconds: generous, for a loaded machine; nothing waits this long when things work

MANIFEST = {
    "format": 1, "id": "org.navsession.MoveTest", "title": "Move",
    "screens": [{"name": "list", "title": "List"}, {"name": "detail", "title": "Detail", "optional": ["id"]},
                {"name": "inbox", "title": "Inbox"}],
    "scenes": [{"name": "browser", "title": "Browser", "default": True, "instances": "multiple", "root": {
        "kind": "tabs", "selectedTab": "a", "tabs": [
            {"id": "a", "title": "A", "model": {"kind": "stack", "path": [{"screen": "list"}]}},
            {"id": "b", "title": "B", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}}]}}],
}

APP = '''
import sys

import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk

from navsession.gtk import NavigationApp


def detail(ctx):
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
    box.append(Gtk.Label(label=f"Detail {ctx.params.get('id', '')}"))
    box.append(Gtk.Entry())  # its text is the page's renderer state ("draft"), kept in the daemon
    return box


app = NavigationApp(application_id="org.navsession.MoveTestApp", bus_name="org.navsession.MoveTest",
                    pages={"detail": detail}, discard_dialog=None)
sys.exit(app.run())
'''


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private X server (python/tests/gtk_support.py)."""
    with gtk_support.display(("Gtk",), BOUND, "needs Xvfb and GTK 4 for Python (apt-get install xvfb python3-gi "
                             "gir1.2-gtk-4.0)") as name:
        yield name


@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    """The manifest above, served by the plugin's ``navsession_daemon``."""
    path = tmp_path / "move.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


class MoveApp(gtk_support.AppRun):
    """The application above, run as a program under Xvfb with its report file."""

    def __init__(self, script: Path, display: str, report: Path, log: Path,
                 connection: Gio.DBusConnection) -> None:
        super().__init__([str(script)], display, report, log, os.environ["DBUS_SESSION_BUS_ADDRESS"], connection,
                         BOUND)

    def until(self, condition: Callable[[], Any], what: str) -> Any:
        """Iterates the main context (the daemon's signals, the application's exit wake it) until ``condition()``
        is true; fails after ``BOUND`` seconds or when the application exited."""
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
                if self.exited:
                    pytest.fail(f"the application exited before {what}:\n{self.output}")
                if expired[0]:
                    pytest.fail(f"not within {BOUND} s: {what}\napplication log:\n{self.output}")
                context.iteration(True)
        finally:
            source.destroy()

    def shown(self, window: navsession.Window, version: int) -> dict[str, Any]:
        """What the application shows of ``window`` once it settled ``version`` (or a later one): its report line."""
        self.until(lambda: window.settled_by and window.settled_version >= version,
                   f"{window.path} settled at version {version}")
        lines = [line for line in self.lines() if line["window"] == window.path and line["version"] >= version]
        assert lines, f"no report line for {window.path} at version {version} or later: {self.lines()}"
        return lines[-1]

    def probe(self, bus: str, method: str, signature: str, args: tuple) -> tuple:
        """Calls the application's TestProbe1 (acting as the user); its reply, unpacked."""
        reply = self.connection.call_sync(bus, "/org/navsession/gtk/TestProbe", "org.navsession.gtk.TestProbe1",
                                          method, GLib.Variant(signature, args), None, Gio.DBusCallFlags.NONE,
                                          int(BOUND * 1000), None)
        return tuple(reply.unpack()) if reply is not None else ()

    def tab_menu(self, bus: str, window: navsession.Window, tab: str, choose: str = "") -> list[str]:
        """The labels of the context menu of ``tab`` (of the window's root tab container); ``choose``: click one."""
        (labels,) = self.probe(bus, "TabMenu", "(otss)", (window.path, window.state()["root"], tab, choose))
        return json.loads(labels)


@pytest.fixture
def move_app(display: str, navsession_daemon: Any, navsession_session: navsession.Session,
             tmp_path: Path) -> Iterator[MoveApp]:
    """The application, started (and stopped afterwards)."""
    script = tmp_path / "move_app.py"
    script.write_text(APP, encoding="utf-8")
    app = MoveApp(script, display, tmp_path / "report.jsonl", tmp_path / "app.log", navsession_session.connection)
    try:
        yield app
    finally:
        app.stop()


def tabs_of(window: navsession.Window) -> list[str]:
    state = window.state()
    root = next(m for m in state["models"] if m["id"] == state["root"])
    return [t["id"] for t in root.get("tabs", [])]


def model(window: navsession.Window, model_id: int) -> dict[str, Any]:
    return next(m for m in window.state()["models"] if m["id"] == model_id)


def test_a_tab_torn_off_from_its_context_menu_opens_in_a_new_window_and_another_merges_into_the_first(
        move_app: MoveApp, navsession_session: navsession.Session) -> None:
    app, session = move_app, navsession_session
    opened: list[navsession.Window] = []
    stop = session.follow_windows(opened.append, lambda _path: None)
    try:
        first = app.until(lambda: opened[0] if opened else None, "the application's window opened")
        bus = app.shown(first, first.version)["bus"]

        # Tab "a" shows a pushed detail with a draft typed into it (the page's renderer state, in the daemon).
        first.push("detail", {"id": "42"})
        detail = first.active_model
        assert app.shown(first, first.version)["page"]["model"] == detail
        app.probe(bus, "Type", "(otss)", (first.path, detail, "", "hello"))
        app.until(lambda: model(first, detail).get("rendererState") == {"draft": "hello"}, "the draft in GetState")

        # The only window: the menu offers a new window only.
        assert app.tab_menu(bus, first, "a") == ["Move Tab to New Window"]
        tab_a = model(first, first.state()["root"])["tabs"][0]["model"]
        app.tab_menu(bus, first, "a", "Move Tab to New Window")

        # The daemon opened window 2 holding the tab (its ids kept); the application follows it and shows the
        # detail with the draft typed back; window 1 keeps tab "b", rebuilt from its state.
        torn = app.until(lambda: next((w for w in opened if w.number == 2), None), "the torn-off window")
        assert torn.state()["root"] == tab_a and tabs_of(first) == ["b"]
        shown = app.shown(torn, torn.version)
        assert shown["page"]["model"] == detail and shown["page"]["screen"] == "detail"
        assert shown["page"]["state"] == {"draft": "hello"} and shown["page"]["inWindow"] is True
        app.until(lambda: first.selected_tab == "b", "window 1 on tab b")
        assert app.shown(first, first.version)["page"]["screen"] == "inbox"
        # The last tab cannot move: no menu.
        assert app.tab_menu(bus, first, "b") == []

        # A third window: its tab "b" merges into window 1's tabs (window 2's base has no tabs: not offered).
        third = session.open_window("browser")
        app.shown(third, third.version)
        labels = app.tab_menu(bus, third, "b")
        assert labels == ["Move Tab to New Window", "Move Tab to Window 1"]
        version = first.version
        app.tab_menu(bus, third, "b", "Move Tab to Window 1")
        app.until(lambda: first.version > version, "window 1 changed by the merge")
        assert tabs_of(first) == ["b", "b-2"] and tabs_of(third) == ["a"]
        assert first.selected_tab == "b-2"
        merged = app.shown(first, first.version)["page"]
        assert merged["screen"] == "inbox" and merged["inWindow"] is True
        assert [w.number for w in session.windows()] == [1, 2, 3]
    finally:
        stop()
