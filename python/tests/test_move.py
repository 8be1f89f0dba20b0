"""Session.move_model and the moveModel command (Session1 ``MoveModel``: a browser's tab tear-off and merge) against
the real daemon, serving a manifest whose one scene opens many windows of a tab container ("a" and "b", each a
stack): ids kept in a new window, fresh in an existing one; params and renderer state go along; both windows'
``Changed`` carry the same ``moved`` cause; the errors are their Python classes; and the method as ``gdbus call``
sees it. Every wait is on a condition (the package's ``wait_for``), never a sleep.
"""

import json
import re
import shutil
import subprocess

import pytest

from navsession import commands as c
from navsession import errors, protocol

MANIFEST = {
    "format": 1, "id": "org.navsession.MoveTest", "title": "Move",
    "screens": [{"name": "list", "title": "List"}, {"name": "detail", "title": "Detail", "optional": ["id"]},
                {"name": "inbox", "title": "Inbox"}],
    "scenes": [{"name": "browser", "title": "Browser", "default": True, "instances": "multiple", "root": {
        "kind": "tabs", "selectedTab": "a", "tabs": [
            {"id": "a", "title": "A", "model": {"kind": "stack", "path": [{"screen": "list"}]}},
            {"id": "b", "title": "B", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}}]}}],
}
#: How long a test waits for something that is only eventually true (a signal): generous, never a latency claim.
BOUND = 30.0


@pytest.fixture
def navsession_manifest(tmp_path):
    """The manifest above, served by the plugin's ``navsession_daemon``."""
    path = tmp_path / "move.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


# -- helpers -------------------------------------------------------------------------------------------------

def models(window):
    return {m["id"]: m for m in window.state()["models"]}


def tab_model(window, tab):
    """The model id of tab ``tab`` of the window's root tab container."""
    state = window.state()
    root = next(m for m in state["models"] if m["id"] == state["root"])
    return next(t["model"] for t in root["tabs"] if t["id"] == tab)


def tab_ids(window):
    state = window.state()
    root = next(m for m in state["models"] if m["id"] == state["root"])
    return [t["id"] for t in root["tabs"]], root.get("selectedTab")


def screens(window, screen):
    return [m for m in window.state()["models"] if m.get("screen") == screen and m["kind"] == "screen"]


def record_changed(window):
    """Every ``Changed`` of ``window`` as the D-Bus signal carries it, its ``cause_json`` parsed."""
    seen = []
    window.connect_signal("Changed", lambda version, previous, cause, *_: seen.append(
        {"version": version, "previous": previous, "cause": json.loads(cause)}))
    return seen


def moved(seen, window):
    """The ``moved`` cause of the first ``Changed`` recorded that has one (waiting for it)."""
    window.wait_for(lambda _: any("moved" in s["cause"] for s in seen), timeout=BOUND)
    return next(s["cause"]["moved"] for s in seen if "moved" in s["cause"])


# -- the tests -----------------------------------------------------------------------------------------------

def test_a_tab_torn_off_and_its_detail_moved_back_keep_params_and_renderer_state_in_one_copy(
        navsession_session, navsession_window):
    session, first = navsession_session, navsession_window
    first.push("detail", {"id": "42"})
    detail = first.active_model
    first.apply(c.set_renderer_state(detail, {"draft": "hello"}))
    tab_a = tab_model(first, "a")
    first_changes = record_changed(first)

    # Tear-off: tab "a" (its stack, list and the pushed detail) becomes a new window, its ids kept.
    torn, version = session.move_model(first, tab_a)
    assert torn.number == 2 and version == torn.version
    assert [w.number for w in session.windows()] == [1, 2]
    state = torn.state()
    assert state["root"] == tab_a
    kept = {m["id"]: m for m in state["models"]}
    assert kept[detail]["params"] == {"id": "42"} and kept[detail]["rendererState"] == {"draft": "hello"}
    assert tab_ids(first) == (["b"], "b")
    tear_off = moved(first_changes, first)
    assert (tear_off["from"], tear_off["to"], tear_off["model"]) == (1, 2, tab_a)
    assert tear_off["ids"][str(detail)] == detail  # kept in a new window

    # Merge: the detail (a pushed screen) back into window 1, onto tab "b"'s stack, with a fresh id.
    stack_b = tab_model(first, "b")
    torn_changes = record_changed(torn)
    first_changes.clear()
    target, version = session.move_model(torn, detail, first.number, {"stack": stack_b})
    assert target is first and version == first.version
    [back] = screens(first, "detail")
    assert back["id"] != detail and back["parent"] == stack_b
    assert back["params"] == {"id": "42"} and back["rendererState"] == {"draft": "hello"}
    assert first.active_screen == "detail"
    # One copy: the torn-off window keeps its list only.
    assert screens(torn, "detail") == [] and [m["screen"] for m in screens(torn, "list")] == ["list"]

    into_first, out_of_torn = moved(first_changes, first), moved(torn_changes, torn)
    assert into_first == out_of_torn
    assert into_first["transaction"] and (into_first["from"], into_first["to"]) == (2, 1)
    assert into_first["model"] == detail and into_first["ids"] == {str(detail): back["id"]}


def test_the_moved_cause_reaches_change_callbacks_as_a_typed_change(navsession_session, navsession_window):
    session, first = navsession_session, navsession_window
    second = session.open_window("browser")
    changes, failures = [], []
    first.connect_changed(changes.append, failures.append)
    second.connect_changed(changes.append, failures.append)
    session.move_model(first, tab_model(first, "b"), second)
    first.wait_for(lambda _: len(changes) + len(failures) >= 2, timeout=BOUND)
    # The package validates cause_json against its copy of schemas/cause.json: the "moved" cause must be in it.
    assert failures == []
    first_change, second_change = sorted(changes, key=lambda change: change.window)
    assert first_change.window == first.path and second_change.window == second.path
    assert first_change.cause["moved"] == second_change.cause["moved"]
    # Tab "b" is taken in the target: the moved tab gets a free id, which the cause names.
    assert first_change.cause["moved"]["tab"] == "b-2" and tab_ids(second) == (["a", "b", "b-2"], "b-2")
    assert [step["kind"] for step in second_change.steps] == ["replaceRoot"]


def test_the_builder_writes_the_moveModel_batch_entry():
    assert c.move_model().to_json() == {"command": "moveModel", "toWindow": 0}
    assert c.move_model(7, 2, {"tabs": 3, "tab": "draft", "select": False}).to_json() == {
        "command": "moveModel", "model": 7, "toWindow": 2, "placement": {"tabs": 3, "tab": "draft", "select": False}}
    assert c.move_model("tag:inbox", placement={"scene": "browser"}).to_json() == {
        "command": "moveModel", "model": "tag:inbox", "toWindow": 0, "placement": {"scene": "browser"}}
    if protocol.jsonschema_module() is not None:
        batch = protocol.validator("batch.json")
        assert batch.is_valid([c.move_model(7, 2, {"stack": 4, "position": 1}).to_json()])


def test_the_batch_command_moves_a_tab_into_another_window_unselected_and_tears_off_the_active_model(
        navsession_session, navsession_window):
    session, first = navsession_session, navsession_window
    second = session.open_window("browser")
    root = second.state()["root"]

    version, started = first.apply(c.move_model(tab_model(first, "b"), second, {"tabs": root, "tab": "b-moved",
                                                                                "select": False}))
    assert version == first.version and started == []
    assert tab_ids(first) == (["a"], "a")
    assert tab_ids(second) == (["a", "b", "b-moved"], "a")
    assert [m["screen"] for m in screens(second, "inbox")] == ["inbox", "inbox"]

    # No model: the active one (the detail just pushed), into a new window (toWindow 0).
    first.push("detail", {"id": "7"})
    first.apply(c.move_model())
    third = session.windows()[-1]
    assert third.number == 3 and third.active_screen == "detail"
    assert first.active_screen == "list"


def test_the_batch_command_must_be_alone_in_its_batch(navsession_window):
    window = navsession_window
    window.push("detail", {"id": "1"})
    version = window.version
    with pytest.raises(errors.InvalidSpec, match="alone"):
        window.apply([c.move_model(to_window=0), c.pop()])
    assert window.version == version and window.active_screen == "detail"


@pytest.mark.parametrize("case", ["window root", "stack root", "last tab", "wrong container", "unknown model",
                                  "no such window", "same window"])
def test_a_refused_move_raises_its_error_class_and_changes_nothing(navsession_session, navsession_window, case):
    session, window = navsession_session, navsession_window
    tab_a, tab_b = tab_model(window, "a"), tab_model(window, "b")
    root = window.state()["root"]
    list_model = screens(window, "list")[0]["id"]
    second = session.open_window("browser")
    if case == "last tab":
        session.move_model(window, tab_b, second)
    version, windows = window.version, len(session.windows())
    call, error = {
        "window root": ((window, root), errors.InvalidSpec),
        "stack root": ((window, list_model, second), errors.InvalidSpec),
        "last tab": ((window, tab_a), errors.InvalidSpec),
        "wrong container": ((window, tab_a, second, {"stack": second.state()["root"]}), errors.InvalidSpec),
        "unknown model": ((window, 999), errors.UnknownModel),
        "no such window": ((99, tab_a), errors.UnknownObject),
        "same window": ((window, tab_a, window.number), errors.InvalidArgs),
    }[case]
    with pytest.raises(error) as raised:
        session.move_model(*call)
    assert raised.value.name == error.error_name and raised.value.detail["method"] == "MoveModel"
    assert isinstance(raised.value, errors.DBusError) == error.error_name.startswith("org.freedesktop.")
    assert window.version == version and len(session.windows()) == windows


def test_a_path_that_names_no_window_is_refused_before_the_call(navsession_session):
    with pytest.raises(ValueError, match="not a window's object path"):
        navsession_session.move_model("/org/navsession/Session1", 2)


@pytest.mark.skipif(shutil.which("gdbus") is None, reason="needs gdbus (Debian: libglib2.0-bin)")
def test_gdbus_call_moves_a_tab_into_a_new_window_and_prints_its_number_and_version(
        navsession_daemon, navsession_session, navsession_window):
    window = navsession_window
    tab_a = tab_model(window, "a")
    out = subprocess.run(
        ["gdbus", "call", "--address", navsession_daemon.address, "--dest", navsession_daemon.name,
         "--object-path", "/org/navsession/Session1", "--method", "org.navsession.Session1.MoveModel",
         f"uint64 {window.number}", f"uint64 {tab_a}", "uint64 0", "''"],
        capture_output=True, text=True, timeout=BOUND)
    assert out.returncode == 0, out.stderr
    assert re.fullmatch(r"\(uint64 2, uint64 \d+\)", out.stdout.strip()), out.stdout
    new = navsession_session.window("/org/navsession/Session1/window/2")
    assert new.state()["root"] == tab_a and new.active_screen == "list"
    window.wait_for(lambda w: w.selected_tab == "b", timeout=BOUND)
