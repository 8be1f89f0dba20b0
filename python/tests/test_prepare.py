"""Prepared models (Window1 ``Prepare``, the ``Prepared`` property, the ``prepare`` command; React Navigation's
``preload``) against the real daemon serving the demo, logged in: a screen made ahead takes its id now, stays out of
the graph (no back, no routes, no undo entry, no history entry) and is shown under that id by a later push of the
same screen and params; ``Window.prepared`` follows the property; the refusals are their Python error classes; the
method as ``gdbus call`` sees it; and, under Xvfb, ``navsession.gtk`` makes the page of a prepared model ahead and
shows that page when the push comes.
"""

import json
import re
import shutil
import subprocess

import pytest

import gtk_support
from gi.repository import GLib

import navsession
from navsession import commands as c
from navsession import errors, protocol
from navsession import specs as s

#: How long a test waits for a subprocess: generous, never a latency claim.
BOUND = 30.0


def logged_in(window):
    """The demo's window after its login: the home stack of the main tabs, the active screen ``home``."""
    window.switch_model("main")
    return window


def test_a_prepared_screen_takes_its_id_now_and_stays_out_of_the_graph(navsession_window):
    window = logged_in(navsession_window)
    before = (window.version, window.active_model, window.can_go_back, window.routes(), len(window.history()))
    model = window.prepare("detail", {"id": "42"})
    assert window.version == before[0] + 1
    assert window.prepared == [{"model": model, "params": {"id": "42"}, "screen": "detail"}]
    # Not a navigation: what is shown, back, the routes and the history are as they were.
    assert (window.active_model, window.can_go_back, window.routes(), len(window.history())) == (
        before[1], before[2], before[3], before[4])
    assert model not in {m["id"] for m in window.state()["models"]}
    with pytest.raises(errors.UnknownModel):  # no command reaches it before it is shown
        window.set_params(model, {"id": "1"})
    assert window.state()["prepared"] == [
        {"id": model, "screen": "detail", "params": {"id": "42"}, "version": before[0] + 1}]


def test_pushing_the_same_screen_and_params_shows_the_prepared_model_under_its_id(navsession_window):
    window = logged_in(navsession_window)
    model = window.prepare("detail", {"id": "42"})
    changes = window.changes(timeout=BOUND)
    version, started = window.apply([c.push("detail", {"id": "42"})])
    assert started == [model]
    assert window.active_model == model and window.active_screen == "detail"
    assert window.prepared == [] and "prepared" not in window.state()
    change = next(changes)
    assert change.version == version and change.started == (model,)
    assert change.steps[0]["kind"] == "push"


def test_other_params_make_another_model_and_leave_the_prepared_one(navsession_window):
    window = logged_in(navsession_window)
    model = window.prepare("detail", {"id": "42"})
    window.push("detail", {"id": "7"})
    assert window.active_model != model
    assert [entry["model"] for entry in window.prepared] == [model]


def test_preparing_the_same_screen_and_params_again_answers_its_id_and_changes_nothing(navsession_window):
    window = logged_in(navsession_window)
    model = window.prepare("detail", {"id": "42"})
    version = window.version
    assert window.prepare("detail", {"id": "42"}) == model
    assert window.version == version and len(window.prepared) == 1


def test_a_prepare_is_a_change_with_no_steps_and_not_an_undo_entry(navsession_window):
    window = logged_in(navsession_window)
    label = window.undo_label
    changes = window.changes(timeout=BOUND)
    window.prepare("about")
    change = next(changes)
    assert change.version == window.version and change.steps == [] and change.started == ()
    assert window.undo_label == label  # the login is still what Undo takes back


def test_at_most_eight_are_kept_the_oldest_dropped(navsession_window):
    window = logged_in(navsession_window)
    models = [window.prepare("detail", {"id": str(n)}) for n in range(9)]
    assert [entry["model"] for entry in window.prepared] == models[1:]


def test_a_prepared_model_expires_after_64_changes_of_the_window(navsession_window):
    window = logged_in(navsession_window)
    model = window.prepare("detail", {"id": "42"})
    for n in range(63):  # 63 more changes: a push, a pop, a push…
        if n % 2 == 0:
            window.push("about")
        else:
            window.pop()
    assert [entry["model"] for entry in window.prepared] == [model]
    window.push("about")
    assert window.prepared == []


def test_the_prepare_command_prepares_in_a_batch(navsession_window):
    window = logged_in(navsession_window)
    command = c.prepare("detail", {"id": "42"}, title="Forty-two")
    assert command.to_json() == {"command": "prepare",
                                 "model": {"screen": "detail", "params": {"id": "42"}, "title": "Forty-two"}}
    assert c.prepare(s.Screen("about")).to_json() == {"command": "prepare", "model": {"screen": "about"}}
    window.apply([command])
    [entry] = window.prepared
    assert (entry["screen"], entry["params"], entry["title"]) == ("detail", {"id": "42"}, "Forty-two")
    window.push("detail", {"id": "42"})
    assert window.active_model == entry["model"]


@pytest.mark.skipif(protocol.jsonschema_module() is None, reason="needs python3-jsonschema")
def test_the_prepare_builders_json_validates_against_the_batch_schema():
    batch = protocol.validator("batch.json")
    assert batch.is_valid([c.prepare("detail", {"id": "42"}, title="Forty-two").to_json()])
    assert not batch.is_valid([{"command": "prepare"}])


def test_an_unknown_screen_and_a_spec_that_is_not_a_plain_screen_are_refused(navsession_window):
    window = logged_in(navsession_window)
    version = window.version
    with pytest.raises(errors.UnknownScreen):
        window.prepare("nope")
    with pytest.raises(errors.InvalidSpec):
        window.prepare("detail")  # lacks its required id
    with pytest.raises(errors.InvalidSpec):
        window.prepare("detail", {"id": "1", "colour": "red"})  # a param the screen does not declare
    with pytest.raises(errors.InvalidSpec):
        window.apply([c.prepare(s.Screen("about", tag="top"))])
    assert window.version == version and window.prepared == []


def test_the_prepared_property_follows_its_properties_changed(navsession_window, navsession_daemon):
    window = logged_in(navsession_window)
    with navsession.connect(navsession_daemon.address, navsession_daemon.name, start=False) as second:
        model = second.window(window.path).prepare("about")
    window.wait_for(lambda w: bool(w.prepared), timeout=BOUND)
    assert window.prepared == [{"model": model, "params": {}, "screen": "about"}]


@pytest.mark.skipif(shutil.which("gdbus") is None, reason="needs gdbus (Debian: libglib2.0-bin)")
def test_gdbus_call_prepares_and_reads_the_prepared_property(navsession_daemon, navsession_window):
    window = logged_in(navsession_window)

    def gdbus(method, *args):
        out = subprocess.run(
            ["gdbus", "call", "--address", navsession_daemon.address, "--dest", navsession_daemon.name,
             "--object-path", window.path, "--method", method, *args], capture_output=True, text=True,
            timeout=BOUND)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    reply = gdbus("org.navsession.Window1.Prepare", "detail", "{'id': '42'}")
    match = re.fullmatch(r"\(uint64 (\d+),\)", reply)
    assert match, reply
    model = int(match.group(1))
    prepared = gdbus("org.freedesktop.DBus.Properties.Get", "org.navsession.Window1", "Prepared")
    text = re.fullmatch(r"\(<'(.*)'>,\)", prepared)
    assert text, prepared
    assert json.loads(text.group(1)) == [{"model": model, "params": {"id": "42"}, "screen": "detail"}]


# -- navsession.gtk: the page of a prepared model is made ahead and shown by the push -----------------------------
#
# A small application on the binding (a ``detail`` page whose widget is named after how many detail pages the
# application has made) follows the demo's windows as a program of its own under Xvfb (python/tests/gtk_support.py)
# on the test's private bus, with NAVSESSION_GTK_TEST_REPORT: it appends what it shows — and the pages it made
# ahead — to a file just before it reports a version settled, so the test waits for the window's SettledVersion and
# reads the line. Nothing sleeps. Skipped without Xvfb or GTK 4 for Python.

GTK_BOUND = 60.0  # seconds: generous, for a loaded machine; nothing waits this long when things work

GTK_APP = '''
import itertools
import sys

import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk

import navsession
from navsession.gtk import NavigationApp, Page

made = itertools.count(1)


class Detail(Page):
    def build(self, params, state):
        self.name = f"detail-{next(made)}"  # which detail page this is: the report's "name"
        label = Gtk.Label(label=f"Detail {params['id']}")
        label.set_name(self.name)
        return label

    def closed(self):
        print(f"closed {self.name} of model {self.model_id}", flush=True)


app = NavigationApp(application_id="org.navsession.PrepareTestApp", bus_name=navsession.DEMO_NAME,
                    pages={"detail": Detail}, open_window=False, start_daemon=False)
sys.exit(app.run())
'''


@pytest.fixture
def gtk_app(navsession_daemon, navsession_session, tmp_path):
    """The application above under a private X server, following the daemon's windows (stopped afterwards)."""
    with gtk_support.display(("Gtk",), GTK_BOUND, "needs Xvfb and GTK 4 for Python (apt-get install xvfb "
                             "python3-gi gir1.2-gtk-4.0)") as display:
        script = tmp_path / "prepare_app.py"
        script.write_text(GTK_APP, encoding="utf-8")
        app = gtk_support.AppRun([str(script)], display, tmp_path / "report.jsonl", tmp_path / "app.log",
                                 navsession_daemon.address, navsession_session.connection, GTK_BOUND)
        try:
            yield app
        finally:
            app.stop()


def shown(app, window, version):
    """What the application shows of ``window`` once it settled ``version`` (or a later one): its report line.
    Waits by iterating the main context (the daemon's signals and the application's exit wake it)."""
    context = GLib.MainContext.default()
    expired = [False]
    source = GLib.timeout_source_new(int(GTK_BOUND * 1000))
    source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
    source.attach(context)
    try:
        while not (window.settled_by and window.settled_version >= version):
            if app.exited:
                pytest.fail(f"the application exited before {window.path} settled at {version}:\n{app.output}")
            if expired[0]:
                pytest.fail(f"not within {GTK_BOUND} s: {window.path} settled at {version}\n{app.output}")
            context.iteration(True)
    finally:
        source.destroy()
    lines = [line for line in app.lines() if line["window"] == window.path and line["version"] >= version]
    assert lines, f"no report line for {window.path} at version {version} or later: {app.lines()}"
    return lines[-1]


def closed(app):
    """The pages the application closed so far (its ``Detail.closed`` lines)."""
    return [line for line in app.output.splitlines() if line.startswith("closed ")]


def test_the_gtk_binding_makes_a_prepared_page_ahead_and_the_push_shows_that_page(gtk_app, navsession_window):
    app, window = gtk_app, logged_in(navsession_window)
    assert shown(app, window, window.version)["prepared"] == []

    # Prepared: the application made the page at once (its factory's first detail page), in no window yet.
    model = window.prepare("detail", {"id": "42"})
    [ahead] = shown(app, window, window.version)["prepared"]
    assert (ahead["model"], ahead["screen"], ahead["params"], ahead["name"], ahead["inWindow"]) == (
        model, "detail", {"id": "42"}, "detail-1", False)
    assert ahead["title"] == "Detail"

    # The push names that id: the stack shows the very page made ahead (no second one is made).
    window.push("detail", {"id": "42"})
    line = shown(app, window, window.version)
    page = line["page"]
    assert (page["model"], page["name"], page["inWindow"], page["params"]) == (model, "detail-1", True, {"id": "42"})
    assert line["prepared"] == [] and closed(app) == []

    # Another detail, not prepared, is made when it is shown: the factory's second page.
    window.push("detail", {"id": "7"})
    assert shown(app, window, window.version)["page"]["name"] == "detail-2"


def test_the_gtk_binding_closes_a_page_made_ahead_once_its_prepared_model_is_dropped(gtk_app, navsession_window):
    app, window = gtk_app, logged_in(navsession_window)
    first = window.prepare("detail", {"id": "0"})
    assert [p["model"] for p in shown(app, window, window.version)["prepared"]] == [first]
    # Eight more: the oldest is dropped, and so is the page made for it.
    later = [window.prepare("detail", {"id": str(n)}) for n in range(1, 9)]
    ahead = shown(app, window, window.version)["prepared"]
    assert sorted(p["model"] for p in ahead) == later and all(p["inWindow"] is False for p in ahead)
    assert closed(app) == [f"closed detail-1 of model {first}"]  # the first page, never shown
