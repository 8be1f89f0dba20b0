"""Built-in analytics (Session1 ``GetStats``; Docs/analytics.md) through the Python package, against the real daemon:
visits per screen after pushes and pops, time per screen that never goes backwards (and, for a visit that ended,
never changes), the windows showing each screen, a manifest's funnel counting the windows that reached each step in
order, a guard provider's refusals by verdict, the ``screens`` filter, the OpenMetrics text form, malformed queries
refused naming the key, and every count the same after SIGKILL and a restart (counted again from the journal).

Nothing here asserts a duration: times are only compared with each other (never negative, never decreasing; a finished
visit's time is fixed) — the daemon's clock is the wall clock. Every wait is on a condition (a reply, a signal, the
process's exit), never a sleep; the bounds are generous and claim nothing about latency.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest

import navsession
from navsession import errors
from navsession.testing import TestDaemon, find_daemon

from loop_thread import LoopThread

#: How long a test waits for something that is only eventually true: generous, never a latency claim.
BOUND = 30.0

#: A shop: a home stack, a list and its detail, and a checkout path (cart → address → done) declared as a funnel.
MANIFEST: Dict[str, Any] = {
    "format": 1, "id": "org.navsession.StatsTest", "title": "Stats",
    "screens": [{"name": "home", "title": "Home"}, {"name": "list", "title": "List"},
                {"name": "detail", "title": "Detail", "optional": ["id"]}, {"name": "cart", "title": "Cart"},
                {"name": "address", "title": "Address"}, {"name": "done", "title": "Done"}],
    "scenes": [{"name": "shop", "title": "Shop", "default": True, "instances": "multiple",
                "root": {"kind": "stack", "path": [{"screen": "home"}]}}],
    "funnels": {"checkout": ["cart", "address", "done"]},
}


def write_manifest(folder: Path, manifest: Dict[str, Any] = MANIFEST) -> str:
    path = folder / "stats.json"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return str(path)


@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    return write_manifest(tmp_path)


def screens(stats: Dict[str, Any]) -> Dict[str, Dict[str, int]]:
    return stats["screens"]


def visits(stats: Dict[str, Any]) -> Dict[str, int]:
    return {name: entry["visits"] for name, entry in stats["screens"].items()}


def showing(stats: Dict[str, Any]) -> Dict[str, int]:
    return {name: entry["showing"] for name, entry in stats["screens"].items() if entry["showing"]}


def assert_well_formed(stats: Dict[str, Any]) -> None:
    assert set(stats) <= {"funnels", "guards", "now", "screens", "since"}
    assert {"funnels", "guards", "now", "screens"} <= set(stats)
    for entry in stats["screens"].values():
        assert entry["milliseconds"] >= 0 and entry["visits"] >= 0 and entry["showing"] >= 0
    if "since" in stats:
        assert stats["since"] <= stats["now"]


def assert_not_backwards(before: Dict[str, Any], after: Dict[str, Any]) -> None:
    """Nothing counted goes back: visits, time and ``now`` only grow; a screen no window showed in ``before`` kept
    exactly its time (a visit that ended is counted once, with the times journaled)."""
    assert after["now"] >= before["now"]
    for name, entry in before["screens"].items():
        later = after["screens"][name]
        assert later["visits"] >= entry["visits"], name
        assert later["milliseconds"] >= entry["milliseconds"], name
        if entry["showing"] == 0 and later["visits"] == entry["visits"]:
            assert later["milliseconds"] == entry["milliseconds"], name


# -- visits and time ----------------------------------------------------------------------------------------

def test_a_fresh_window_counts_its_root_screen_as_one_visit_showing_now(navsession_session):
    session = navsession_session
    assert session.get_stats()["screens"] == {}  # nothing counted before a window opened
    session.open_window("shop")
    stats = session.get_stats()
    assert_well_formed(stats)
    home = screens(stats)["home"]
    assert screens(stats) == {"home": {"visits": 1, "showing": 1, "milliseconds": home["milliseconds"]}}
    assert "since" in stats


def test_pushes_and_pops_count_a_visit_each_time_a_screen_becomes_the_active_one(navsession_session):
    session = navsession_session
    window = session.open_window("shop")
    window.push("list")
    window.push("detail", {"id": "1"})
    window.pop()  # back on list: a second visit of list
    window.push("detail", {"id": "2"})  # a second visit of detail (another model, the same screen)
    window.set_params(0, {"id": "3"})  # the same screen stays active: not a visit
    stats = session.get_stats()
    assert_well_formed(stats)
    assert visits(stats) == {"home": 1, "list": 2, "detail": 2}
    assert showing(stats) == {"detail": 1}

    # A second window: its own visits; both windows' active screens are showing.
    other = session.open_window("shop")
    other.push("list")
    stats = session.get_stats()
    assert visits(stats) == {"home": 2, "list": 3, "detail": 2}
    assert showing(stats) == {"detail": 1, "list": 1}

    # A window's close ends its visit: nothing shows there any more.
    session.dismiss_window(other)
    assert showing(session.get_stats()) == {"detail": 1}


def test_time_per_screen_is_never_negative_never_decreases_and_a_finished_visit_keeps_its_time(navsession_session):
    session = navsession_session
    window = session.open_window("shop")
    window.push("list")
    window.push("detail")
    first = session.get_stats()
    # Asked again and again with nothing changing: the running visit (detail) may grow, the finished ones are fixed.
    later = session.get_stats()
    assert_not_backwards(first, later)
    for name in ("home", "list"):
        assert screens(later)[name]["milliseconds"] == screens(first)[name]["milliseconds"]
    window.pop()
    after_pop = session.get_stats()
    assert_not_backwards(later, after_pop)
    # detail's visit ended with the pop: from now on its time is fixed; list's second visit runs.
    assert screens(after_pop)["detail"]["showing"] == 0
    again = session.get_stats()
    assert screens(again)["detail"]["milliseconds"] == screens(after_pop)["detail"]["milliseconds"]
    assert_not_backwards(after_pop, again)
    assert_well_formed(again)


def test_the_screens_filter_answers_only_those_screens(navsession_session):
    session = navsession_session
    window = session.open_window("shop")
    window.push("list")
    window.push("detail")
    stats = session.get_stats({"screens": ["list", "nowhere"]})
    assert set(screens(stats)) == {"list"}  # a screen never counted is not listed
    assert set(screens(session.get_stats({"screens": []}))) == set()
    # The funnels and guards are not filtered; "{}" and "" are everything.
    assert set(stats["funnels"]) == {"checkout"}
    assert set(screens(session.get_stats("{}"))) == set(screens(session.get_stats(""))) == {"home", "list", "detail"}


# -- funnels --------------------------------------------------------------------------------------------------

def test_a_funnel_counts_the_windows_that_reached_each_step_in_order(navsession_session):
    session = navsession_session
    assert session.get_stats()["funnels"] == {"checkout": {"reached": [0, 0, 0],
                                                           "steps": ["cart", "address", "done"]}}
    # The whole path, with detours in between that do not break it.
    first = session.open_window("shop")
    first.push("cart")
    first.push("list")
    first.push("address")
    first.push("done")
    assert session.get_stats()["funnels"]["checkout"]["reached"] == [1, 1, 1]

    # Another window starts the funnel and skips address: done is not reached in order; address later is.
    second = session.open_window("shop")
    second.push("cart")
    second.push("done")
    assert session.get_stats()["funnels"]["checkout"]["reached"] == [2, 1, 1]
    second.push("address")
    assert session.get_stats()["funnels"]["checkout"]["reached"] == [2, 2, 1]

    # A window that never shows cart starts no attempt, whatever it shows.
    third = session.open_window("shop")
    third.push("address")
    third.push("done")
    stats = session.get_stats()
    assert stats["funnels"]["checkout"] == {"reached": [2, 2, 1], "steps": ["cart", "address", "done"]}
    assert_well_formed(stats)


def test_a_manifest_funnel_must_name_two_to_sixteen_declared_screens(navsession_session):
    for funnels, named in (({"short": ["cart"]}, "short"), ({"bad": ["cart", "nowhere"]}, "nowhere")):
        manifest = dict(MANIFEST, funnels=funnels)
        with pytest.raises(errors.InvalidManifest) as raised:
            navsession_session.check_manifest(manifest)
        assert named in raised.value.message


# -- OpenMetrics ------------------------------------------------------------------------------------------------

def test_the_openmetrics_form_is_text_ending_with_EOF_and_counts_what_the_JSON_form_counts(navsession_session):
    session = navsession_session
    window = session.open_window("shop")
    window.push("list")
    window.pop()
    window.push("cart")
    text = session.get_stats({"format": "openmetrics"})
    assert isinstance(text, str) and text.endswith("# EOF\n") and text.count("# EOF") == 1
    lines = text.splitlines()
    assert 'navsession_screen_visits_total{screen="home"} 2' in lines
    assert 'navsession_screen_visits_total{screen="list"} 1' in lines
    assert 'navsession_screen_showing{screen="cart"} 1' in lines
    assert 'navsession_funnel_reached_total{funnel="checkout",step="1",screen="cart"} 1' in lines
    assert 'navsession_funnel_reached_total{funnel="checkout",step="3",screen="done"} 0' in lines
    assert "# TYPE navsession_screen_seconds counter" in lines and "# UNIT navsession_screen_seconds seconds" in lines
    # Every sample is a metric name, labels and a number; each family is typed before its samples.
    typed = set()
    for line in lines:
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
        elif not line.startswith("#"):
            match = re.fullmatch(r'([a-z_]+)\{[^}]*\} (\d+(?:\.\d{3})?)', line)
            assert match, line
            family = re.sub(r"_total$", "", match.group(1))
            assert family in typed, line
    seconds = [float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("navsession_screen_seconds_total")]
    assert seconds and all(value >= 0 for value in seconds)
    # The query may be JSON text, and the screens filter applies to this form too.
    only = session.get_stats('{"format":"openmetrics","screens":["list"]}')
    assert isinstance(only, str) and only.endswith("# EOF\n")
    assert [line for line in only.splitlines() if line.startswith("navsession_screen_visits_total")] == [
        'navsession_screen_visits_total{screen="list"} 1']


# -- malformed queries ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("query, named", [
    ({"format": "xml"}, "format"),
    ({"format": 1}, "format"),
    ({"screens": "list"}, "screens"),
    ({"screens": [1]}, "screens"),
    ({"nope": True}, "nope"),
    ("[1, 2]", "query_json"),
    ("not json", "query_json"),
])
def test_a_malformed_query_is_InvalidArgs_naming_what_is_wrong(navsession_session, query, named):
    with pytest.raises(errors.InvalidArgs) as raised:
        navsession_session.get_stats(query)
    assert named in raised.value.message
    assert raised.value.detail["method"] == "GetStats"


def test_a_query_of_another_type_is_a_TypeError_before_calling(navsession_session):
    with pytest.raises(TypeError):
        navsession_session.get_stats(["screens"])  # type: ignore[arg-type]


# -- guard decisions --------------------------------------------------------------------------------------------

class Refuser(LoopThread):
    """A guard provider of the demo's ``account`` that denies every question, on a thread and connection of its own
    (the test thread's blocking calls could not let a provider on its own connection answer)."""

    def __init__(self, daemon: TestDaemon) -> None:
        super().__init__("navsession-refuser", BOUND)
        self.daemon = daemon
        self.asked = threading.Event()
        self._session: Any = None

    def _decide(self, _question: Any) -> navsession.Verdict:
        self.asked.set()
        return navsession.Deny("unsaved profile")

    def serve(self) -> None:
        self._session = navsession.connect(self.daemon.address, self.daemon.name, start=False)
        self._session.provide_guards(["account"], self._decide)

    def release(self) -> None:
        if self._session is not None:
            self._session.close()


class TestGuardDecisions:
    """The demo's guard ``account`` (it covers ``profile``), with a deadline long enough for a busy machine."""

    @pytest.fixture
    def navsession_manifest(self, tmp_path):
        text = subprocess.run([find_daemon(), "--print-demo-manifest"], check=True, capture_output=True, text=True,
                              timeout=60).stdout
        manifest = json.loads(text)
        manifest["guards"]["account"]["timeoutMs"] = 10_000
        path = tmp_path / "demo.json"
        path.write_text(json.dumps(manifest), encoding="utf-8")
        return str(path)

    def test_a_providers_refusals_are_counted_by_guard_and_verdict(self, navsession_daemon, navsession_session):
        session = navsession_session
        window = session.open_window("main")
        window.switch_model("main")
        window.select_tab("settings")
        window.push("profile")
        assert session.get_stats()["guards"] == {}
        refuser = Refuser(navsession_daemon).start()
        try:
            for _ in range(2):
                with pytest.raises(errors.Denied):
                    window.go_back()
            assert refuser.asked.is_set()
        finally:
            refuser.stop()
        stats = session.get_stats()
        assert stats["guards"] == {"account": {"deny": 2}}
        assert window.active_screen == "profile"
        text = session.get_stats({"format": "openmetrics"})
        assert 'navsession_guard_decisions_total{guard="account",verdict="deny"} 2' in text.splitlines()


# -- kept across a crash ----------------------------------------------------------------------------------------


def test_the_counts_survive_sigkill_and_a_restart(navsession_bus, tmp_path):
    daemon = TestDaemon(navsession_bus.address, write_manifest(tmp_path), state_dir=tmp_path / "state")
    try:
        daemon.start()
        session = navsession.connect(daemon.address, daemon.name, start=False)
        try:
            window = session.open_window("shop")
            window.push("list")
            window.push("cart")
            window.push("address")
            window.pop()  # cart again
            closed = session.open_window("shop")
            closed.push("detail")
            session.dismiss_window(closed)
            before = session.get_stats()
        finally:
            session.close()
        daemon.kill()

        daemon.start()
        session = navsession.connect(daemon.address, daemon.name, start=False)
        try:
            after = session.get_stats()
            assert_well_formed(after)
            assert visits(after) == visits(before) == {"home": 2, "list": 1, "cart": 2, "address": 1, "detail": 1}
            assert showing(after) == showing(before) == {"cart": 1}
            assert after["funnels"] == before["funnels"]
            assert after["since"] == before["since"]
            # Counted again from the journal's times: the finished visits' time is exactly what it was, the running
            # one (cart, still shown) went on.
            assert_not_backwards(before, after)

            # And it goes on counting where it left off: the window's place in the funnel (at cart) came back too.
            reached = after["funnels"]["checkout"]["reached"]
            window = session.windows()[0]
            window.push("address")
            window.push("done")
            assert session.get_stats()["funnels"]["checkout"]["reached"] == [reached[0], reached[1] + 1,
                                                                             reached[2] + 1]
        finally:
            session.close()
    finally:
        daemon.close()
