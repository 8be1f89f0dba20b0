"""navsession.gtk as a primary renderer and a mirror of the same window (Window1 ``RegisterRenderer``, ``Steps``,
``ReportWidthClass``, ``VisibleModels``; Docs/renderers.md, Docs/panes.md), under Xvfb.

Two runs of ``python3 -m navsession.gtk`` on the test's private bus — one plain (the primary), one ``--mirror`` —
follow the window the test opens, the daemon serving a manifest whose scene shows its tagged stack as list-detail
panes, with ``NAVSESSION_GTK_TEST_REPORT``: each appends what it shows to its own file just before it reports a
version settled, so the test waits for each renderer's ``settled`` in the window's ``Renderers`` and reads its line;
it acts as the user through each application's ``org.navsession.gtk.TestProbe1`` (``Back``, ``Resize``,
``Describe``). Both show the same screen after a push; ``Renderers`` lists one primary (with the binding's
capabilities) and one mirror; widening the primary's window reports ``expanded``, ``VisibleModels`` lists the list
and the detail, and both renderers show them side by side (narrowing takes the panes down); the mirror's back sends
nothing and its controls are insensitive, the primary's goes back; three stacked sheets closed in one change are one
step for each (the ``Steps`` planned for what the binding can animate); the mirror leaves ``Renderers`` when it quits.
A second plain run, refused as a second primary, follows the window as a mirror and takes the primary's role when
the first one quits.

Nothing sleeps: every wait iterates the GLib main context until a condition holds, woken by the daemon's signals,
the applications' exits or (for what only ``Describe`` tells: a layout that changed without a version) a periodic
wake-up, within ``BOUND`` seconds — generous, and no claim about latency. Skipped without Xvfb or GTK 4 for Python.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

import gtk_support
from gi.repository import Gio, GLib

import navsession
from navsession.gtk.app import CAPABILITIES, width_class

BOUND = 60.0  # seconds: generous, for a loaded machine; nothing waits this long when things work

MANIFEST = {
    "format": 1, "id": "org.navsession.GtkRolesTest", "title": "Roles",
    "screens": [{"name": "inbox", "title": "Inbox"}, {"name": "message", "title": "Message", "optional": ["id"]}],
    "scenes": [{"name": "mail", "title": "Mail", "default": True, "instances": "multiple",
                "panes": {"strategy": "list-detail", "stack": "messages"},
                "root": {"kind": "stack", "tag": "messages", "path": [{"screen": "inbox"}]}}],
}


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private X server (python/tests/gtk_support.py)."""
    with gtk_support.display(("Gtk",), BOUND, "needs Xvfb and GTK 4 for Python (apt-get install xvfb python3-gi "
                             "gir1.2-gtk-4.0)") as name:
        yield name


@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    path = tmp_path / "roles.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


def until(condition: Callable[[], Any], what: str, apps: tuple = (), poll: bool = False) -> Any:
    """Iterates the default main context until ``condition()`` is true (its value is returned); fails after
    ``BOUND`` seconds or when one of ``apps`` exited. ``poll``: also wake every 100 ms, for a condition no signal of
    this process announces (an application's layout, asked with ``Describe``)."""
    context = GLib.MainContext.default()
    expired = [False]
    source = GLib.timeout_source_new(int(BOUND * 1000))
    source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
    source.attach(context)
    ticker = None
    if poll:
        ticker = GLib.timeout_source_new(100)
        ticker.set_callback(lambda *_: True)
        ticker.attach(context)
    try:
        while True:
            value = condition()
            if value:
                return value
            for app in apps:
                if app.exited:
                    pytest.fail(f"the {app.role} renderer exited before {what}:\n{app.output}")
            if expired[0]:
                logs = "\n".join(f"{app.role} renderer log:\n{app.output}" for app in apps)
                pytest.fail(f"not within {BOUND} s: {what}\n{logs}")
            context.iteration(True)
    finally:
        source.destroy()
        if ticker is not None:
            ticker.destroy()


class Renderer(gtk_support.AppRun):
    """``python3 -m navsession.gtk [--mirror] -v`` under Xvfb, with its report file and log."""

    def __init__(self, role: str, display: str, folder: Path, bus_name: str, connection: Gio.DBusConnection,
                 name: Optional[str] = None) -> None:
        self.role = name or role
        argv = ["-m", "navsession.gtk", "--bus-name", bus_name, "-v"] + (["--mirror"] if role == "mirror" else [])
        super().__init__(argv, display, folder / f"report-{self.role}.jsonl", folder / f"{self.role}.log",
                         os.environ["DBUS_SESSION_BUS_ADDRESS"], connection, BOUND)

    @property
    def bus(self) -> Optional[str]:
        """Its unique bus name, once it wrote a report line."""
        lines = self.lines()
        return lines[0]["bus"] if lines else None

    def registration(self, window: navsession.Window) -> Optional[dict]:
        """Its entry in the window's ``Renderers``: by its connection once known, else by its role."""
        bus = self.bus
        return next((entry for entry in window.renderers
                     if (entry["client"] == bus if bus else entry["role"] == self.role)), None)

    def shown(self, window: navsession.Window, version: int, apps: tuple) -> dict:
        """Its report line for ``window`` once it settled ``version`` (or a later one): waits for its own
        ``settled`` in ``Renderers`` (version 0, a window's first, is "settled" before any report: there the file is
        read until the line is in it)."""
        def found() -> list:
            return [line for line in self.lines() if line["window"] == window.path and line["version"] >= version]

        if version == 0:
            until(found, f"the {self.role} renderer's first line", apps, poll=True)
        until(lambda: (self.registration(window) or {}).get("settled", 0) >= version,
              f"the {self.role} renderer settled version {version}", apps)
        lines = found()
        assert lines, f"no report line of the {self.role} renderer at version {version}: {self.lines()}"
        return lines[-1]

    def probe(self, bus: str, method: str, signature: str, args: tuple) -> Any:
        reply = self.connection.call_sync(bus, "/org/navsession/gtk/TestProbe", "org.navsession.gtk.TestProbe1",
                                          method, GLib.Variant(signature, args), None, Gio.DBusCallFlags.NONE,
                                          int(BOUND * 1000), None)
        return reply.unpack() if reply is not None else ()

    def describe(self, bus: str, window: navsession.Window) -> dict:
        (text,) = self.probe(bus, "Describe", "()", ())
        return next(line for line in json.loads(text) if line["window"] == window.path)


@pytest.fixture
def renderers(display: str, navsession_daemon: Any, navsession_session: navsession.Session,
              tmp_path: Path) -> Iterator[Callable[[str], Renderer]]:
    runs: list[Renderer] = []

    def start(role: str, name: Optional[str] = None) -> Renderer:
        app = Renderer(role, display, tmp_path, navsession_daemon.name, navsession_session.connection, name)
        runs.append(app)
        return app

    try:
        yield start
    finally:
        for app in runs:
            app.stop()


def test_a_primary_and_a_mirror_show_one_window_and_only_the_primary_changes_it(
        renderers: Callable[[str], Renderer], navsession_session: navsession.Session) -> None:
    session = navsession_session
    window = session.open_window("mail")
    inbox = window.active_model
    primary, mirror = renderers("primary"), renderers("mirror")
    apps = (primary, mirror)

    # Both register on the window: one primary with what the binding can animate, one mirror.
    until(lambda: primary.registration(window) and mirror.registration(window), "both renderers registered", apps)
    assert sorted(entry["role"] for entry in window.renderers) == ["mirror", "primary"]
    assert primary.registration(window)["capabilities"] == CAPABILITIES
    first = {app.role: app.shown(window, window.version, apps) for app in apps}
    buses = {role: line["bus"] for role, line in first.items()}
    assert primary.registration(window)["client"] == buses["primary"]
    assert mirror.registration(window)["client"] == buses["mirror"]
    assert first["primary"]["renderer"]["role"] == "primary" and first["primary"]["renderer"]["interactive"]
    assert first["mirror"]["renderer"]["role"] == "mirror" and not first["mirror"]["renderer"]["interactive"]
    # The primary's 720 px window is medium; a mirror reports no width.
    assert first["primary"]["renderer"]["widthClass"] == "medium"
    assert first["mirror"]["renderer"]["widthClass"] is None

    # A push: both show the message.
    version = window.push("message", {"id": "7"})
    message = window.active_model
    for app in apps:
        line = app.shown(window, version, apps)
        assert (line["page"]["screen"], line["page"]["model"], line["page"]["inWindow"]) == ("message", message, True)
        assert line["panes"] == {}  # medium: list-detail shows the detail alone
        assert f"Steps of version {version}" in app.output  # its own steps, planned for its capabilities
    mirrored = mirror.shown(window, version, apps)["renderer"]
    assert mirrored["back"] is False and primary.shown(window, version, apps)["renderer"]["back"] is True

    # Widened, the primary reports expanded: the list and the detail are visible, side by side in both renderers.
    primary.probe(buses["primary"], "Resize", "(oii)", (window.path, 1000, 560))
    until(lambda: window.visible_models == [inbox, message], "VisibleModels with the list and the detail", apps)
    stack = next(m["id"] for m in window.state()["models"] if m["kind"] == "stack")
    for app in apps:
        line = until(lambda app=app: (lambda d: d if d["panes"] == {str(stack): [inbox, message]} else None)(
            app.describe(buses[app.role], window)), f"the {app.role} renderer showing two panes", apps, poll=True)
        assert line["version"] >= version
    assert primary.describe(buses["primary"], window)["renderer"]["widthClass"] == "expanded"
    # A width class is not navigation: the window changes only by the primary saving its new size (a renderer
    # state, SetRendererState, after a pause), which is waited for so no change is still on its way below.
    until(lambda: saved_width_class(window) == "expanded", "the primary's new size saved", apps)
    assert window.active_model == message and window.visible_models == [inbox, message]

    # Narrowed again: compact, one page.
    primary.probe(buses["primary"], "Resize", "(oii)", (window.path, 480, 560))
    until(lambda: window.visible_models == [message], "VisibleModels with the detail alone", apps)
    for app in apps:
        until(lambda app=app: app.describe(buses[app.role], window)["panes"] == {},
              f"the {app.role} renderer showing one page", apps, poll=True)
    until(lambda: saved_width_class(window) == "compact", "the primary's new size saved", apps)
    version = window.version

    # The mirror's back (its button is insensitive; the probe presses it all the same): nothing is sent.
    mirror.probe(buses["mirror"], "Back", "(o)", (window.path,))
    assert f"mirror of {window.path}: not sending BeginBack" in mirror.output
    assert window.version == version and window.active_model == message
    # The primary's back goes back: one change.
    primary.probe(buses["primary"], "Back", "(o)", (window.path,))
    until(lambda: window.active_model == inbox, "back on the inbox", apps)
    assert window.version == version + 1
    for app in apps:
        assert app.shown(window, version + 1, apps)["page"]["model"] == inbox
    assert "ReportPopped" not in mirror.output and "CommitBack at" not in mirror.output

    # Three stacked sheets, then home in one change: each renderer animates the Steps planned for what the binding
    # can animate (several layers at once: one step), and both end on the inbox with no sheet open.
    for n in ("1", "2", "3"):
        sheeted = window.present("sheet", "message", {"id": n})
    for app in apps:
        assert len(app.shown(window, sheeted, apps)["modals"]) == 3
    home = window.go_back_to_root()
    for app in apps:
        line = app.shown(window, home, apps)
        assert line["page"]["model"] == inbox and line["modals"] == []
        renderer = app.registration(window)["id"]
        assert f"Steps of version {home} for {renderer}: 1 step(s)" in app.output

    # The mirror quits: it leaves Renderers (gone with its connection); the primary stays.
    mirror.stop()
    until(lambda: [entry["role"] for entry in window.renderers] == ["primary"], "the mirror gone from Renderers",
          (primary,))


def saved_width_class(window: navsession.Window) -> Optional[str]:
    """The width class of the window size its primary renderer saved in the daemon (the window's renderer state)."""
    width = (window.state().get("rendererState") or {}).get("width")
    return width_class(width) if isinstance(width, int) else None


def test_a_second_primary_follows_as_a_mirror_and_takes_the_role_when_the_first_leaves(
        renderers: Callable[..., Renderer], navsession_session: navsession.Session) -> None:
    window = navsession_session.open_window("mail")
    inbox = window.active_model
    first = renderers("primary")
    until(lambda: first.registration(window), "the first renderer registered", (first,))
    first_line = first.shown(window, window.version, (first,))
    assert first.registration(window)["role"] == "primary"

    # Another plain run: the daemon refuses a second primary, so it follows the window as a mirror.
    second = renderers("primary", name="second")
    apps = (first, second)
    second_line = second.shown(window, window.version, apps)
    until(lambda: (second.registration(window) or {}).get("role") == "mirror", "the second one a mirror", apps)
    until(lambda: second.describe(second_line["bus"], window)["renderer"]["interactive"] is False,
          "the second one not interactive", apps, poll=True)
    assert "following it as a mirror" in second.output
    assert [entry["role"] for entry in window.renderers] == ["primary", "mirror"]

    # The first one quits: the second takes the primary's role (one registration), and its back goes back.
    first.stop()
    until(lambda: [(e["client"], e["role"]) for e in window.renderers] == [(second_line["bus"], "primary")],
          "the second renderer the primary", (second,))
    until(lambda: second.describe(second_line["bus"], window)["renderer"]["interactive"] is True,
          "the second one interactive", (second,), poll=True)
    version = window.push("message")
    second.shown(window, version, (second,))
    second.probe(second_line["bus"], "Back", "(o)", (window.path,))
    until(lambda: window.active_model == inbox, "back on the inbox", (second,))
    assert first_line["bus"] != second_line["bus"]
