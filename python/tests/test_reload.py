"""Session.check_manifest and Session.reload_manifest (Session1 ``CheckManifest``, ``ReloadManifest``: changing the
application's manifest without losing anyone's place) against the real daemon, serving a manifest whose one scene
opens many windows of a stack [list]; each window pushes ``detail`` with its own ``id``. The next manifest renames
``detail`` to ``item``: the check answers the plan and changes nothing; the reload migrates every window in one
change each (cause ``{"reloaded": true}``, one ``replaceRoot`` step), the models keeping their ids and params; a
manifest the daemon refuses is ``InvalidManifest`` and changes nothing; and ``CheckManifest`` as ``gdbus call`` sees
it. Every wait is on a condition (the package's ``wait_for``), never a sleep.
"""

import copy
import json
import shutil
import subprocess

import pytest
from gi.repository import GLib

from navsession import errors

MANIFEST = {
    "format": 1, "id": "org.navsession.ReloadTest", "title": "Reload",
    "screens": [{"name": "list", "title": "List"}, {"name": "detail", "title": "Detail", "optional": ["id"]}],
    "scenes": [{"name": "browser", "title": "Browser", "default": True, "instances": "multiple",
                "root": {"kind": "stack", "path": [{"screen": "list"}]}}],
}
#: The next version of the application: ``detail`` is now ``item``.
RENAMED = {**copy.deepcopy(MANIFEST),
           "screens": [{"name": "list", "title": "List"}, {"name": "item", "title": "Item", "optional": ["id"]}],
           "renamed": {"detail": "item"}}
#: How long a test waits for something that is only eventually true (a signal): generous, never a latency claim.
BOUND = 30.0


@pytest.fixture
def navsession_manifest(tmp_path):
    """The manifest above, served by the plugin's ``navsession_daemon``."""
    path = tmp_path / "reload.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


# -- helpers -------------------------------------------------------------------------------------------------

def three_windows(session, first):
    """Windows 1–3, each with ``detail`` ``id`` = its number pushed: [(window, the detail's model id)]."""
    windows = [first, session.open_window("browser"), session.open_window("browser")]
    opened = []
    for window in windows:
        window.push("detail", {"id": str(window.number)})
        opened.append((window, window.active_model))
    return opened


def model(window, model_id):
    return next(m for m in window.state()["models"] if m["id"] == model_id)


def record_changes(windows):
    """Every ``Changed`` of the windows, as typed :class:`navsession.Change` (cause_json checked against the
    package's copy of schemas/cause.json), and what could not be decoded."""
    changes, failures = [], []
    for window in windows:
        window.connect_changed(changes.append, failures.append)
    return changes, failures


# -- the tests -----------------------------------------------------------------------------------------------

def test_check_manifest_answers_the_plan_of_every_window_and_changes_nothing(navsession_session, navsession_window):
    session = navsession_session
    opened = three_windows(session, navsession_window)
    versions = [window.version for window, _ in opened]
    changes, failures = record_changes([window for window, _ in opened])

    report = session.check_manifest(RENAMED)

    assert report == {
        "applicationID": "org.navsession.ReloadTest",
        "windows": [{"window": window.number, "scene": "browser", "action": "migrate",
                     "renamed": [{"model": detail, "from": "detail", "to": "item"}]} for window, detail in opened],
        "closedWindows": [],
        "sessions": [],
    }
    # The text form answers the same.
    assert session.check_manifest(json.dumps(RENAMED)) == report
    # Nothing changed: no version, no signal, the same manifest.
    session._sync()
    assert [window.version for window, _ in opened] == versions
    assert changes == [] and failures == []
    assert session.screens == ["list", "detail"]
    for window, detail in opened:
        assert window.active_screen == "detail"
        assert model(window, detail)["screen"] == "detail"


def test_reload_manifest_migrates_every_window_in_one_change_keeping_ids_and_params(
        navsession_session, navsession_window):
    session = navsession_session
    opened = three_windows(session, navsession_window)
    versions = {window.path: window.version for window, _ in opened}
    changes, failures = record_changes([window for window, _ in opened])

    assert session.reload_manifest(json.dumps(RENAMED)) is None

    for window, _ in opened:
        window.wait_for(lambda w: any(c.window == w.path for c in changes), timeout=BOUND)
    assert failures == []
    # One change per window: the cause is "reloaded", the step one replaceRoot, the version one more.
    assert sorted(c.window for c in changes) == sorted(versions)
    for change in changes:
        assert change.cause == {"reloaded": True}
        assert json.loads(change.cause_json) == {"reloaded": True}
        assert [step["kind"] for step in change.steps] == ["replaceRoot"]
        assert change.version == versions[change.window] + 1 == change.previous_version + 1
        assert change.started == () and change.finished == ()
    for window, detail in opened:
        migrated = model(window, detail)  # the same model: same id, now an item, its params kept
        assert migrated["screen"] == "item" and migrated["params"] == {"id": str(window.number)}
        assert window.active_screen == "item" and window.active_model == detail
        assert window.title == "Item"
        assert not window.can_undo  # the undo history starts again
    # Session1's manifest properties are the new manifest's when the call returns (PropertiesChanged).
    assert session.screens == ["list", "item"]
    assert session.screen_titles == {"list": "List", "item": "Item"}
    # The migrated windows go on under the new manifest: the old name is unknown now.
    first, _ = opened[0]
    with pytest.raises(errors.UnknownScreen):
        first.push("detail", {"id": "9"})
    first.push("item", {"id": "9"})
    # The same manifest again changes nothing.
    before = [window.version for window, _ in opened]
    report = session.check_manifest(RENAMED)
    assert {plan["action"] for plan in report["windows"]} == {"keep"}
    session.reload_manifest(RENAMED)
    assert [window.version for window, _ in opened] == before


@pytest.mark.parametrize("case", ["malformed JSON", "another application", "old name still declared",
                                  "renamed to an undeclared screen", "fallback with required params"])
def test_a_manifest_the_daemon_refuses_raises_InvalidManifest_and_changes_nothing(
        navsession_session, navsession_window, case):
    session = navsession_session
    opened = three_windows(session, navsession_window)
    versions = [window.version for window, _ in opened]
    states = [window.state() for window, _ in opened]
    refused = {
        "malformed JSON": '{"format": 1,',
        "another application": {**RENAMED, "id": "org.navsession.Other"},
        "old name still declared": {**RENAMED, "renamed": {"list": "item"}},
        "renamed to an undeclared screen": {**RENAMED, "renamed": {"detail": "entry"}},
        "fallback with required params": {
            **RENAMED, "renamed": {}, "fallback": {"detail": "item"},
            "screens": [{"name": "list"}, {"name": "item", "required": ["id"]}]},
    }[case]
    for call in (session.check_manifest, session.reload_manifest):
        with pytest.raises(errors.InvalidManifest) as raised:
            call(refused)
        assert raised.value.name == "org.navsession.Error.InvalidManifest"
        assert raised.value.detail["method"] in ("CheckManifest", "ReloadManifest")
        assert raised.value.message  # it says where and why
    session._sync()
    assert [window.version for window, _ in opened] == versions
    assert [window.state() for window, _ in opened] == states
    assert session.screens == ["list", "detail"]


def test_a_manifest_is_its_json_text_or_a_dict(navsession_session):
    for call in (navsession_session.check_manifest, navsession_session.reload_manifest):
        with pytest.raises(TypeError, match="JSON text or a dict"):
            call(["not", "a", "manifest"])


@pytest.mark.skipif(shutil.which("gdbus") is None, reason="needs gdbus (Debian: libglib2.0-bin)")
def test_gdbus_call_CheckManifest_prints_the_report_and_changes_nothing(
        navsession_daemon, navsession_session, navsession_window):
    window = navsession_window
    window.push("detail", {"id": "42"})
    detail, version = window.active_model, window.version
    out = subprocess.run(
        ["gdbus", "call", "--address", navsession_daemon.address, "--dest", navsession_daemon.name,
         "--object-path", "/org/navsession/Session1", "--method", "org.navsession.Session1.CheckManifest",
         json.dumps(RENAMED)],
        capture_output=True, text=True, timeout=BOUND)
    assert out.returncode == 0, out.stderr
    (text,) = GLib.Variant.parse(GLib.VariantType("(s)"), out.stdout.strip(), None, None).unpack()
    report = json.loads(text)
    assert report["windows"] == [{"window": 1, "scene": "browser", "action": "migrate",
                                  "renamed": [{"model": detail, "from": "detail", "to": "item"}]}]
    assert window.version == version and window.active_screen == "detail"

    refused = subprocess.run(
        ["gdbus", "call", "--address", navsession_daemon.address, "--dest", navsession_daemon.name,
         "--object-path", "/org/navsession/Session1", "--method", "org.navsession.Session1.CheckManifest", "{"],
        capture_output=True, text=True, timeout=BOUND)
    assert refused.returncode != 0 and "org.navsession.Error.InvalidManifest" in refused.stderr
