"""Renderer roles (Window1 ``RegisterRenderer``, ``UnregisterRenderer``, the ``Steps`` signal and the ``Renderers``
property; Docs/renderers.md) through the Python package, against the real daemon, with two clients on connections of
their own: a primary that can dismiss several layers at once and a mirror that cannot get different ``Steps`` for one
jump home over three stacked sheets (each addressed to its own connection only); a mirror's reports are AccessDenied
while a client that registered nothing reports as before; each renderer's ``ReportSettled`` moves its own
``settled``; one primary per window; registrations end with ``UnregisterRenderer`` (only the registrant's) and with
the connection; bad roles and capabilities are InvalidArgs.

Every wait is on a condition (a signal, a reply), never a sleep; the bounds are generous and claim nothing about
latency. Absence is proven by order: one connection's signals from the daemon come in the order it sent them, so once
a later change's ``Changed`` arrived, an earlier change's ``Steps`` would have arrived before it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

import navsession
from navsession import errors

#: How long a test waits for something that is only eventually true: generous, never a latency claim.
BOUND = 30.0
ACCESS_DENIED = "org.freedesktop.DBus.Error.AccessDenied"

MANIFEST: Dict[str, Any] = {
    "format": 1, "id": "org.navsession.RolesTest", "title": "Roles",
    "screens": [{"name": "home", "title": "Home"}, {"name": "detail", "title": "Detail", "optional": ["id"]},
                {"name": "sheet", "title": "Sheet", "optional": ["n"]}, {"name": "inbox", "title": "Inbox"}],
    "scenes": [
        {"name": "main", "title": "Main", "default": True, "instances": "multiple",
         "root": {"kind": "stack", "path": [{"screen": "home"}]}},
        {"name": "tabs", "title": "Tabs", "instances": "multiple", "root": {
            "kind": "tabs", "selectedTab": "a", "tabs": [
                {"id": "a", "title": "A", "model": {"kind": "stack", "path": [{"screen": "home"}]}},
                {"id": "b", "title": "B", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}}]}},
    ],
}


@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    path = tmp_path / "roles.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


@pytest.fixture
def other_session(navsession_daemon) -> Iterator[Any]:
    """``other_session()``: another client of the daemon — its own connection, on this thread's main context."""
    sessions: List[navsession.Session] = []

    def connect() -> navsession.Session:
        session = navsession.connect(navsession_daemon.address, navsession_daemon.name, start=False)
        sessions.append(session)
        return session

    yield connect
    for session in sessions:
        session.close()


def by_id(window: navsession.Window) -> Dict[str, Dict[str, Any]]:
    return {entry["id"]: entry for entry in window.renderers}


def unique_name(session: navsession.Session) -> str:
    return session.connection.get_unique_name()


class Heard:
    """A window's ``Changed`` versions and ``Steps`` signals, in the order they were delivered."""

    def __init__(self, window: navsession.Window) -> None:
        self.window = window
        self.events: List[Any] = []
        self._stop = [window.connect_changed(lambda change: self.events.append(("Changed", change.version))),
                      window.connect_steps(self.events.append)]

    def steps(self, version: int) -> List[navsession.RendererSteps]:
        return [e for e in self.events if isinstance(e, navsession.RendererSteps) and e.version == version]

    def changed(self, version: int) -> bool:
        return ("Changed", version) in self.events

    def stop(self) -> None:
        for stop in self._stop:
            stop()


# -- Steps per capabilities ------------------------------------------------------------------------------------

def test_a_primary_and_a_mirror_get_the_steps_planned_for_their_capabilities(navsession_session, other_session):
    primary_session, mirror_session = navsession_session, other_session()
    primary = primary_session.open_window("main")
    mirror = mirror_session.window(primary.path)
    primary_id = primary.register_renderer("primary", {"multiDismiss": True})
    mirror_id = mirror.register_renderer("mirror", {"multiDismiss": False})
    assert primary_id != mirror_id
    primary_heard, mirror_heard = Heard(primary), Heard(mirror)
    try:
        sheets = []
        for n in ("1", "2", "3"):
            primary.present("sheet", "sheet", {"n": n})
            sheets.append(primary.active_model)
        version = primary.go_back_to_root()
        primary.wait_for(lambda _w: primary_heard.steps(version) and mirror_heard.steps(version), timeout=BOUND)

        # The primary can dismiss several layers at once: one step, the layers above nested in it.
        [mine] = primary_heard.steps(version)
        assert mine.renderer_id == primary_id
        [dismiss] = mine.steps
        assert dismiss["kind"] == "dismiss" and dismiss["model"] == sheets[0]
        assert [layer["model"] for layer in dismiss["nested"]] == sheets[1:]
        # The mirror cannot: one step per layer, the top one first.
        [theirs] = mirror_heard.steps(version)
        assert theirs.renderer_id == mirror_id
        assert [(s["kind"], s["model"]) for s in theirs.steps] == [("dismiss", m) for m in reversed(sheets)]

        # Each connection received its own steps only, after the change's Changed.
        for heard in (primary_heard, mirror_heard):
            assert heard.events.index(("Changed", version)) < heard.events.index(heard.steps(version)[0])
            assert {s.renderer_id for s in heard.events if isinstance(s, navsession.RendererSteps)} == \
                {primary_id if heard is primary_heard else mirror_id}
        # Changed stays for everyone, planned for the window's capabilities (the manifest says none: one by one).
        assert primary.active_model == stack_root(primary)
    finally:
        primary_heard.stop()
        mirror_heard.stop()


def stack_root(window: navsession.Window) -> int:
    state = window.state()
    root = next(m for m in state["models"] if m["id"] == state["root"])
    return root["path"][0]["model"]


def test_a_client_that_registered_nothing_gets_no_Steps(navsession_session, other_session):
    window = navsession_session.open_window("main")
    window.register_renderer("primary")
    bystander = other_session().window(window.path)
    heard = Heard(bystander)
    try:
        window.push("detail")
        later = window.push("detail")
        bystander.wait_for(lambda _w: heard.changed(later), timeout=BOUND)
        # Its Changed of the later change came: the earlier change's Steps would have come before it.
        assert [e for e in heard.events if isinstance(e, navsession.RendererSteps)] == []
    finally:
        heard.stop()


def test_steps_for_one_registration_can_be_asked_by_id(navsession_session):
    window = navsession_session.open_window("main")
    renderer = window.register_renderer("mirror", "")  # the window's capabilities
    assert by_id(window)[renderer]["capabilities"] == {"multiDismiss": False, "pushesInOne": False}
    got: List[navsession.RendererSteps] = []
    other: List[navsession.RendererSteps] = []
    stops = [window.connect_steps(got.append, renderer_id=renderer),
             window.connect_steps(other.append, renderer_id="r999")]
    try:
        version = window.push("detail")
        window.wait_for(lambda _w: any(s.version == version for s in got), timeout=BOUND)
        [steps] = got
        assert steps.steps == [{"kind": "push", "stack": stack_of(window), "models": [window.active_model]}]
        assert steps.window == window.path and json.loads(steps.steps_json) == steps.steps
        assert other == []
    finally:
        for stop in stops:
            stop()


def stack_of(window: navsession.Window) -> int:
    state = window.state()
    return next(m["id"] for m in state["models"] if m["kind"] == "stack")


# -- reports -------------------------------------------------------------------------------------------------------

def test_a_mirrors_reports_are_AccessDenied_and_the_primarys_change_the_window(navsession_session, other_session):
    primary = navsession_session.open_window("main")
    primary.register_renderer("primary")
    mirror_session = other_session()
    mirror = mirror_session.window(primary.path)
    mirror.register_renderer("mirror")
    primary.push("detail", {"id": "1"})
    stack, version = stack_of(primary), primary.version

    with pytest.raises(errors.AccessDenied) as raised:
        mirror.report_popped(stack, 0)
    assert raised.value.name == ACCESS_DENIED and raised.value.detail["method"] == "ReportPopped"
    assert "mirror" in raised.value.message
    for report in (lambda: mirror.report_dismissed(primary.active_model), mirror.report_closed,
                   lambda: mirror.report_action_chosen(primary.active_model, "ok")):
        with pytest.raises(errors.AccessDenied):
            report()
    assert primary.state()["version"] == version and primary.active_screen == "detail"
    assert [w.path for w in navsession_session.windows()] == [primary.path]  # ReportClosed closed nothing

    # The mirror navigates with methods if it must (roles restrict reports only); the primary's report goes through.
    mirror.push("detail", {"id": "2"})
    version = primary.report_popped(stack, 0)
    primary.wait_for(version=version, timeout=BOUND)
    assert primary.active_screen == "home"


def test_a_client_that_registered_nothing_reports_as_before(navsession_session, other_session):
    window = navsession_session.open_window("main")
    window.register_renderer("primary")
    window.push("detail")
    plain = other_session().window(window.path)
    version = plain.report_popped(stack_of(window), 0)
    window.wait_for(version=version, timeout=BOUND)
    assert window.active_screen == "home"


def test_an_assistive_renderers_reports_are_refused_too(navsession_session, other_session):
    window = navsession_session.open_window("tabs")
    voice = other_session().window(window.path)
    voice.register_renderer("assistive")
    tabs = next(m["id"] for m in window.state()["models"] if m["kind"] == "tabs")
    with pytest.raises(errors.AccessDenied):
        voice.report_tab_selected(tabs, "b")
    voice.select_tab("b")  # methods, not reports
    window.wait_for(lambda w: w.selected_tab == "b", timeout=BOUND)


# -- settled, one primary, lifetime ---------------------------------------------------------------------------

def test_each_renderers_ReportSettled_moves_its_own_settled(navsession_session, other_session):
    primary = navsession_session.open_window("main")
    mirror = other_session().window(primary.path)
    primary_id = primary.register_renderer("primary", {"multiDismiss": True, "pushesInOne": True})
    mirror_id = mirror.register_renderer("mirror", {"multiDismiss": False})
    entries = by_id(primary)
    assert [e["id"] for e in primary.renderers] == [primary_id, mirror_id]  # registration order
    assert entries[primary_id] == {"id": primary_id, "client": unique_name(navsession_session), "role": "primary",
                                   "capabilities": {"multiDismiss": True, "pushesInOne": True}, "settled": 0}
    assert entries[mirror_id]["role"] == "mirror" and entries[mirror_id]["client"] == unique_name(mirror.session)
    assert entries[mirror_id]["capabilities"] == {"multiDismiss": False, "pushesInOne": False}

    first = primary.push("detail")
    second = primary.push("detail")
    primary.report_settled(second)
    assert {k: v["settled"] for k, v in by_id(primary).items()} == {primary_id: second, mirror_id: 0}
    mirror.report_settled(first)  # older than the window's SettledVersion: still its own settled
    primary.wait_for(lambda w: by_id(w)[mirror_id]["settled"] == first, timeout=BOUND)
    assert by_id(primary)[primary_id]["settled"] == second
    mirror.report_settled(second)
    primary.wait_for(lambda w: by_id(w)[mirror_id]["settled"] == second, timeout=BOUND)
    mirror.report_settled(first)  # never goes back
    assert by_id(mirror)[mirror_id]["settled"] == second


def test_one_primary_per_window_and_registering_again_replaces_ones_own(navsession_session, other_session):
    window = navsession_session.open_window("main")
    first = window.register_renderer("primary")
    other = other_session().window(window.path)
    with pytest.raises(errors.AccessDenied) as raised:
        other.register_renderer("primary")
    assert first in raised.value.message
    second = window.register_renderer("primary", {"pushesInOne": True})
    assert second != first
    assert [(e["id"], e["role"], e["capabilities"]["pushesInOne"]) for e in window.renderers] == [
        (second, "primary", True)]
    # A mirror beside it, from the other client, and from this one too (one registration per role).
    theirs = other.register_renderer("mirror")
    mine = window.register_renderer("mirror")
    assert [e["id"] for e in window.renderers] == [second, theirs, mine]


def test_unregistering_is_the_registrants_own_and_the_primary_may_be_taken_after(navsession_session, other_session):
    window = navsession_session.open_window("main")
    renderer = window.register_renderer("primary")
    other = other_session().window(window.path)
    with pytest.raises(errors.AccessDenied):
        other.unregister_renderer(renderer)
    with pytest.raises(errors.InvalidArgs):
        window.unregister_renderer("r999")
    window.unregister_renderer(renderer)
    assert window.renderers == []
    taken = other.register_renderer("primary")
    window.wait_for(lambda w: [e["id"] for e in w.renderers] == [taken], timeout=BOUND)
    # This client is now one that registered nothing: it reports as before.
    window.push("detail")
    window.report_popped(stack_of(window), 0)


def test_a_mirror_disappears_from_Renderers_when_its_connection_closes(navsession_session, other_session):
    primary = navsession_session.open_window("main")
    primary_id = primary.register_renderer("primary")
    mirror_session = other_session()
    mirror_id = mirror_session.window(primary.path).register_renderer("mirror")
    primary.wait_for(lambda w: [e["id"] for e in w.renderers] == [primary_id, mirror_id], timeout=BOUND)
    seen: List[Any] = []
    stop = primary.connect_properties(lambda changed: seen.append(changed.get("Renderers")))
    try:
        mirror_session.close()
        primary.wait_for(lambda w: [e["id"] for e in w.renderers] == [primary_id], timeout=BOUND)
        assert any(value is not None and mirror_id not in value for value in seen)  # PropertiesChanged said so
    finally:
        stop()
    # And a primary that leaves frees the window for another.
    navsession_session.close()
    third = other_session()
    window = third.window(primary.path)
    window.wait_for(lambda w: w.renderers == [], timeout=BOUND)
    window.register_renderer("primary")


# -- errors -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("role, capabilities, named", [
    ("viewer", None, "viewer"),
    ("", None, "role"),
    ("mirror", {"multiDismiss": "yes"}, "capabilities_json"),
    ("mirror", {"teleports": True}, "teleports"),
    ("mirror", "[true]", "capabilities_json"),
])
def test_a_bad_role_or_capabilities_is_InvalidArgs(navsession_session, role, capabilities, named):
    window = navsession_session.open_window("main")
    with pytest.raises(errors.InvalidArgs) as raised:
        window.register_renderer(role, capabilities)
    assert named in raised.value.message
    assert raised.value.detail["method"] == "RegisterRenderer"
    assert window.renderers == []


def test_bad_arguments_are_refused_before_calling(navsession_session):
    window = navsession_session.open_window("main")
    with pytest.raises(TypeError):
        window.register_renderer("mirror", ["multiDismiss"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        window.register_renderer(1)  # type: ignore[arg-type]


def test_a_kiosk_window_refuses_a_primary_but_not_a_mirror(navsession_session):
    session = navsession_session
    window = session.open_window("main")
    session.set_window_policy(window, {"change": []})
    with pytest.raises(errors.AccessDenied):
        window.register_renderer("primary")
    mirror = window.register_renderer("mirror")
    assert [e["id"] for e in window.renderers] == [mirror]
