"""Guard providers in Python (``Session.provide_guards``): the demo's guard ``account`` covers ``profile`` (entering
and leaving; Docs/guards.md), and what a provider answers is what ``can_go_back``, ``begin_back``/``commit_back``,
``check`` and the change itself get.

The daemon serves the demo manifest with the guard's deadline at 10 s (the most a guard may wait), so an answer is
never late on a busy machine. The provider runs in a thread of its own, with its own connection and main context
(:class:`ProviderThread`): the test thread's calls are blocking (``call_sync``), and a blocking call does not
dispatch the calls the daemon makes to its own connection meanwhile, so a provider on the test's connection could
not answer the questions those calls wait for (one test shows the provider on the test's connection, answering
from the main loop while the call is asynchronous).
"""

import json
import subprocess
import threading

import pytest
from gi.repository import GLib

import navsession
from navsession import commands as c
from navsession import errors
from navsession.testing import find_daemon

from loop_thread import LoopThread

GUARD = "account"
#: How long a test waits for something that is only eventually true (a property after a background question):
#: generous, never a latency claim.
BOUND = 30.0


@pytest.fixture(scope="module")
def navsession_manifest(tmp_path_factory):
    """The demo manifest with the ``account`` guard's deadline at 10 s."""
    text = subprocess.run([find_daemon(), "--print-demo-manifest"], check=True, capture_output=True, text=True,
                          timeout=60).stdout
    manifest = json.loads(text)
    assert manifest["guards"][GUARD]["covers"]["screens"] == ["profile"]
    manifest["guards"][GUARD]["timeoutMs"] = 10_000
    path = tmp_path_factory.mktemp("manifest") / "demo-long-deadline.json"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return str(path)


class ProviderThread(LoopThread):
    """A guard provider of ``account`` in a thread of its own: its own connection (``navsession.connect``) and main
    context, running a ``GLib.MainLoop``. It answers ``decide(question)`` when given, else ``answer`` as it is when
    asked (``"allow"``, else a deny reason), and records every question."""

    def __init__(self, daemon, answer="allow", decide=None):
        super().__init__("navsession-guard-provider", BOUND)
        self.address = daemon.address
        self.name = daemon.name
        self.answer = answer
        self.decide = decide
        self.questions = []
        self._changed = threading.Condition()
        self._session = None
        self.provider = None

    def _decide(self, question):
        with self._changed:
            self.questions.append(question)
            self._changed.notify_all()
        if self.decide is not None:
            return self.decide(question)
        answer = self.answer
        return navsession.Allow() if answer == "allow" else navsession.Deny(answer)

    def serve(self):
        self._session = navsession.connect(self.address, self.name, start=False)
        self.provider = self._session.provide_guards([GUARD], self._decide)

    def release(self):
        if self._session is not None:
            self._session.close()  # closes the provider too (UnregisterGuard)

    def run(self, function):
        """``function()`` on the provider's thread (its main loop); returns its result or raises its exception."""
        done = threading.Event()
        outcome = {}

        def call(*_args):
            try:
                outcome["value"] = function()
            except BaseException as error:  # noqa: BLE001 - raised on the test thread
                outcome["error"] = error
            done.set()
            return GLib.SOURCE_REMOVE

        source = GLib.idle_source_new()
        source.set_callback(call)
        source.attach(self._context)
        assert done.wait(BOUND), "the provider's main loop did not run the call"
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("value")

    def refresh(self):
        """The provider's ``refresh()`` (``RefreshGuard``), from its own thread."""
        self.run(self.provider.refresh)

    def leaving_profile(self):
        with self._changed:
            return [q for q in self.questions if q.leaves("profile")]

    def wait_for_question(self, predicate):
        with self._changed:
            assert self._changed.wait_for(lambda: any(predicate(q) for q in self.questions), BOUND), \
                f"the provider was never asked such a question (asked: {self.questions})"



@pytest.fixture
def provider(navsession_daemon):
    """``provider(answer, decide=None)``: starts a :class:`ProviderThread`; stopped after the test."""
    started = []

    def start(answer="allow", decide=None):
        thread = ProviderThread(navsession_daemon, answer, decide).start()
        started.append(thread)
        return thread

    yield start
    for thread in reversed(started):
        thread.stop()


def logged_in_on_settings(window):
    """Logs in (``SwitchModel main``) and selects the settings tab."""
    window.switch_model("main")
    window.select_tab("settings")
    assert window.active_screen == "settings"
    return window


def profile_window(window):
    """A logged-in main window on the settings tab with ``profile`` pushed (no provider yet: onAbsent allows)."""
    logged_in_on_settings(window)
    window.push("profile")
    assert window.active_screen == "profile"
    return window


def test_a_provider_denying_to_leave_profile_makes_can_go_back_false_and_begin_back_raise_denied(
        navsession_window, provider):
    window = profile_window(navsession_window)
    assert window.can_go_back
    provider("unsaved profile")
    window.wait_for(lambda w: not w.can_go_back, timeout=BOUND)
    version = window.version
    with pytest.raises(errors.Denied) as raised:
        window.begin_back()
    assert raised.value.name == "org.navsession.Error.Denied"
    assert "unsaved profile" in raised.value.message
    assert window.state()["version"] == version
    assert window.version == version
    assert window.active_screen == "profile"


def test_with_an_allowing_provider_begin_back_names_profile_and_commit_back_goes_back_to_settings(
        navsession_window, provider):
    window = profile_window(navsession_window)
    profile = window.active_model
    provider("allow")
    version, finished = window.begin_back()
    assert version == window.version
    assert finished == [profile]
    assert window.commit_back(version) == version + 1
    assert window.active_screen == "settings"


def test_commit_back_with_a_stale_version_raises_version_mismatch_and_changes_nothing(navsession_window, provider):
    window = profile_window(navsession_window)
    provider("allow")
    began, _finished = window.begin_back()
    moved = window.push("about")
    assert moved == began + 1
    with pytest.raises(errors.VersionMismatch) as raised:
        window.commit_back(began)
    assert raised.value.name == "org.navsession.Error.VersionMismatch"
    assert window.state()["version"] == moved
    assert window.version == moved
    assert window.active_screen == "about"


def test_refresh_after_the_provider_flips_its_answer_flips_can_go_back(navsession_window, provider):
    window = profile_window(navsession_window)
    thread = provider("allow")
    # The question registering caused (the back move, for the properties) is answered before the answer flips.
    thread.wait_for_question(lambda q: q.leaves("profile"))
    assert window.can_go_back
    thread.answer = "the profile has unsaved changes"
    thread.refresh()
    window.wait_for(lambda w: not w.can_go_back, timeout=BOUND)
    thread.answer = "allow"
    thread.refresh()
    window.wait_for(lambda w: w.can_go_back, timeout=BOUND)
    assert window.begin_back()[0] == window.version


def test_check_and_apply_of_a_push_of_profile_raise_denied_with_a_denying_provider(navsession_window, provider):
    window = logged_in_on_settings(navsession_window)
    version = window.version
    provider("not now")
    with pytest.raises(errors.Denied) as checked:
        window.check([c.push("profile")])
    assert checked.value.name == "org.navsession.Error.Denied"
    assert "not now" in checked.value.message
    with pytest.raises(errors.Denied) as applied:
        window.apply([c.push("profile")])
    assert applied.value.name == "org.navsession.Error.Denied"
    assert window.state()["version"] == version
    assert window.active_screen == "settings"


def test_a_redirect_verdict_applies_its_batch_instead_of_the_change(navsession_window, provider):
    window = logged_in_on_settings(navsession_window)
    provider(decide=lambda q: navsession.Redirect([c.push("about")]) if q.enters("profile") else navsession.Allow())
    version = window.version
    assert window.push("profile") == version + 1
    assert window.active_screen == "about"
    assert [r.screen for r in window.routes()] == ["about"]


def test_a_decide_that_raises_answers_a_dbus_error_and_the_guards_on_timeout_decides(navsession_window):
    window = logged_in_on_settings(navsession_window)
    version = window.version
    reported = []

    def decide(_question):
        raise RuntimeError("the accounts database is locked")

    # On the test's own connection and context: the call is asynchronous, so wait_for dispatches the question.
    with window.session.provide_guards([GUARD], decide, on_error=lambda q, e: reported.append((q.guard, str(e)))):
        outcome = []
        window.call_async("Check", "(sa{ss})", (c.batch_json([c.push("profile")]), {}),
                          on_reply=outcome.append, on_error=outcome.append)
        window.wait_for(lambda _w: bool(outcome), timeout=BOUND)
    # The demo's onTimeout is deny: the daemon counts the error reply as no answer.
    assert isinstance(outcome[0], errors.Denied), outcome
    assert "org.freedesktop.DBus.Error.Failed" in outcome[0].message
    assert reported and set(reported) == {(GUARD, "the accounts database is locked")}
    assert window.version == version


def test_a_provider_on_the_tests_own_connection_answers_from_its_main_context(navsession_window):
    window = profile_window(navsession_window)
    session = window.session
    asked = []

    def decide(question):
        asked.append(question)
        return navsession.Deny("kept on profile") if question.leaves("profile") else navsession.Allow()

    with session.provide_guards(GUARD, decide) as handle:
        assert session.guards()[GUARD] == session.connection.get_unique_name()
        outcome = []
        window.call_async("BeginBack", on_reply=outcome.append, on_error=outcome.append)
        window.wait_for(lambda _w: bool(outcome), timeout=BOUND)
        assert isinstance(outcome[0], errors.Denied) and "kept on profile" in outcome[0].message
        question = next(q for q in asked if q.leaves("profile"))
        assert question.guard == GUARD and question.window == window.path
        assert question.window_number == window.number
        assert question.left == [{"model": window.active_model, "screen": "profile"}]
        assert question.entered == []
        assert isinstance(question.cause, dict)
        assert not handle.closed
    assert handle.closed
    assert session.guards()[GUARD] == ""


def test_closing_the_provider_unregisters_its_guards_and_unexports_the_object(navsession_session):
    handle = navsession_session.provide_guards([GUARD], lambda _q: navsession.Allow())
    assert navsession_session.guards()[GUARD] == navsession_session.connection.get_unique_name()
    with pytest.raises(errors.NavSessionError) as raised:
        navsession_session.provide_guards([GUARD], lambda _q: navsession.Allow())  # one per connection
    assert raised.value.name == "g-io-error-quark.exists"
    assert navsession_session.guards()[GUARD] == navsession_session.connection.get_unique_name()
    handle.close()
    assert navsession_session.guards()[GUARD] == ""
    again = navsession_session.provide_guards([GUARD], lambda _q: navsession.Allow())  # exportable again
    again.close()
    handle.close()  # closing twice is nothing


def test_providing_an_unknown_guard_raises_unknown_guard_and_leaves_nothing_registered(navsession_session):
    with pytest.raises(errors.UnknownGuard):
        navsession_session.provide_guards([GUARD, "nope"], lambda _q: navsession.Allow())
    assert navsession_session.guards()[GUARD] == ""
    navsession_session.provide_guards([GUARD], lambda _q: navsession.Allow()).close()  # the object was unexported
