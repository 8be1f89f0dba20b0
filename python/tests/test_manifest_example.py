"""Docs/manifest.md, "A complete small app": the manifest in that section is what is tested here. Its JSON block is
read from the page, validated against the repository's manifest JSON Schema and by ``navsessiond
--check-manifest``, served by the real daemon on a private bus (the plugin's fixtures, with ``navsession_manifest``
overridden below) and walked through the Python client as the section describes; the section's shell walk runs
too, verbatim, and its ``ctl list`` comments must be what ``navsessionctl`` prints.

The guard provider of ``drafts`` runs in a thread of its own with its own connection and main context
(:class:`DraftStore`): the test thread's calls block (``call_sync``), and a blocking call does not dispatch the
daemon's questions to its own connection meanwhile (Docs/python.md, "Providing guards").
"""

import json
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import pytest

import navsession
from navsession import errors
from navsession.testing import find_daemon

from loop_thread import LoopThread

REPOSITORY = Path(__file__).resolve().parents[2]
PAGE = REPOSITORY / "Docs" / "manifest.md"
HEADING = "## A complete small app"
#: How long anything that is only eventually true may take: generous, never a latency claim.
BOUND = 60.0


def section() -> str:
    """The section's text: from its heading to the next second-level heading."""
    text = PAGE.read_text(encoding="utf-8")
    assert text.count("\n" + HEADING + "\n") == 1, f"{PAGE} has no single section {HEADING!r}"
    start = text.index("\n" + HEADING + "\n") + 1
    end = text.find("\n## ", start + len(HEADING))
    return text[start:] if end < 0 else text[start:end + 1]


def blocks(language: str) -> list:
    """The section's fenced blocks of ``language``, with the line before each (its schema tag, if any)."""
    return re.findall(r"(?m)^([^\n]*)\n```" + language + r"\n(.*?)^```$", section(), re.S)


def manifest_text() -> str:
    found = blocks("json")
    assert len(found) == 1, f"the section should hold one JSON block, the manifest (found {len(found)})"
    tag, text = found[0]
    assert tag.strip() == "<!-- schema: manifest -->", "the manifest block is tagged for scripts/validate-documents"
    return text


def shell_text() -> str:
    found = blocks("sh")
    assert len(found) == 1, f"the section should hold one shell block, the walk (found {len(found)})"
    return found[0][1]


def manifest_schema_validator():
    """A draft 2020-12 validator of the repository's ``schemas/manifest.json``, its ``$ref``s resolved among
    ``schemas/*.json`` (with ``referencing`` when this jsonschema has it, else ``RefResolver``, as
    navsession.protocol does)."""
    jsonschema = pytest.importorskip("jsonschema")
    store = {}
    for path in sorted((REPOSITORY / "schemas").glob("*.json")):
        if path.name != "kinds.json":
            schema = json.loads(path.read_text(encoding="utf-8"))
            store[schema["$id"]] = schema
    manifest = next(schema for uri, schema in store.items() if uri.endswith("/manifest.json"))
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
    except ImportError:
        resolver = jsonschema.RefResolver(base_uri=manifest["$id"], referrer=manifest, store=store)
        return jsonschema.Draft202012Validator(manifest, resolver=resolver)
    registry = Registry().with_resources(
        (uri, Resource.from_contents(schema, default_specification=DRAFT202012)) for uri, schema in store.items())
    return jsonschema.Draft202012Validator(manifest, registry=registry)


@pytest.fixture(scope="module")
def manifest_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("mail") / "mail.json"
    path.write_text(manifest_text() + "\n", encoding="utf-8")
    return path


@pytest.fixture
def navsession_manifest(manifest_path):
    """The plugin's daemon serves the section's manifest."""
    return str(manifest_path)


# --- helpers ------------------------------------------------------------------------------------------------------

def model(window, model_id):
    return next(m for m in window.state()["models"] if m["id"] == model_id)


def active(window):
    """The active model's snapshot entry."""
    return model(window, window.active_model)


def routes(window):
    """``GetRoutes`` as (style, screen, params)."""
    return [(route.style, route.screen, dict(route.params)) for route in window.routes()]


def choose(window, dialog, action):
    """``ReportActionChosen``: the user chose ``action`` in the alert ``dialog``; the properties describe the
    change when it returns."""
    version = window.report_action_chosen(dialog, action)
    assert window.version == version
    return version


def marks(window):
    return {mark["model"]: (mark["reason"], mark.get("dialog", "")) for mark in window.protected or []}


def logged_in(session):
    window = session.open_window("main")
    window.switch_model("main")
    assert window.active_screen == "inbox"
    return window


def message_42(session, window):
    assert session.open_url("mail://message/42").path == window.path
    window.wait_for(lambda w: w.active_screen == "message", timeout=BOUND)


class DraftStore(LoopThread):
    """The mail store as the provider of the guard ``drafts``, on a thread of its own: it answers ``answer``
    (``"allow"``, else a deny reason; ``None``: it hangs until ``released``) and records every question."""

    def __init__(self, daemon, answer):
        super().__init__("mail-draft-store", BOUND)
        self.address = daemon.address
        self.name = daemon.name
        self.answer = answer
        self.questions = []
        self.released = threading.Event()
        self._lock = threading.Lock()
        self._session = None

    def _decide(self, question):
        with self._lock:
            self.questions.append(question)
        if self.answer is None:  # a store that hangs: answers once released, long after the deadline
            assert self.released.wait(BOUND)
        return navsession.Allow() if self.answer in ("allow", None) else navsession.Deny(self.answer)

    def serve(self):
        self._session = navsession.connect(self.address, self.name, start=False)
        self._session.provide_guards(["drafts"], self._decide)  # RegisterGuard, answered before start() returns

    def release(self):
        if self._session is not None:
            self._session.close()  # UnregisterGuard, then the connection closes

    def asked_about_leaving_compose(self):
        with self._lock:
            return [q for q in self.questions if q.leaves("compose")]


@pytest.fixture
def draft_store(navsession_daemon):
    started = []

    def start(answer):
        store = DraftStore(navsession_daemon, answer).start()
        started.append(store)
        return store

    yield start
    for store in reversed(started):
        store.released.set()
        store.stop()


# --- the manifest -------------------------------------------------------------------------------------------------

def test_the_sections_manifest_is_valid_for_the_schema_and_the_daemon(manifest_path):
    document = json.loads(manifest_text())
    validator = manifest_schema_validator()
    problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
    assert problems == []
    # The schema is strict: a misspelt key is refused, so the check above means something.
    misspelt = json.loads(manifest_text())
    misspelt["scenes"][0]["intialState"] = misspelt["scenes"][0].pop("initialState")
    assert not validator.is_valid(misspelt)
    checked = subprocess.run([find_daemon(), "--check-manifest", str(manifest_path)], capture_output=True,
                             text=True, timeout=BOUND)
    assert checked.returncode == 0, checked.stderr
    # What the section's prose relies on.
    assert document["id"] == "org.example.Mail"
    assert [s["name"] for s in document["screens"]] == ["login", "inbox", "message", "settings", "compose"]
    assert document["guards"]["drafts"]["covers"]["screens"] == ["compose"]
    assert document["guards"]["drafts"]["onAbsent"] == "allow"
    assert [a["id"] for a in document["dialogs"]["discardDraft"]["actions"]] == ["discard", "keep"]


def test_the_daemon_serves_the_manifests_scene_screens_and_guard(navsession_session):
    assert navsession_session.application_id == "org.example.Mail"
    assert navsession_session.scenes == ["main"]
    assert navsession_session.screens == ["login", "inbox", "message", "settings", "compose"]
    assert navsession_session.guards() == {"drafts": ""}


# --- the walk -----------------------------------------------------------------------------------------------------

def test_log_in_open_a_message_by_deep_link_and_compose_a_protected_draft(navsession_session):
    session = navsession_session
    window = session.open_window("main")
    assert session.open_window("main").path == window.path  # "instances": "single"

    # Logged out: the switched root shows the state login.
    assert (window.active_screen, window.title, window.version) == ("login", "Log in", 0)
    root = model(window, window.state()["root"])
    assert root["kind"] == "switched" and model(window, root["switchedModel"])["screen"] == "login"

    # Log in: the state main, tabs inbox and settings, each a stack with its root screen.
    assert window.switch_model("main") == 1
    tabs = model(window, model(window, window.state()["root"])["switchedModel"])
    assert (tabs["kind"], tabs["screen"], tabs["selectedTab"]) == ("tabs", "main", "inbox")
    assert [(t["id"], t["title"]) for t in tabs["tabs"]] == [("inbox", "Inbox"), ("settings", "Settings")]
    for tab, screen in (("inbox", "inbox"), ("settings", "settings")):
        stack = model(window, next(t["model"] for t in tabs["tabs"] if t["id"] == tab))
        assert stack["kind"] == "stack"
        assert [model(window, e["model"])["screen"] for e in stack["path"]] == [screen]
    assert (window.active_screen, window.title, window.selected_tab) == ("inbox", "Inbox", "inbox")
    window.select_tab("settings")
    assert (window.active_screen, window.title) == ("settings", "Settings")

    # Only declared screens, with their required parameters.
    with pytest.raises(errors.UnknownScreen):
        window.push("inboxx")
    with pytest.raises(errors.InvalidSpec):
        window.push("message")

    # The deep link selects the inbox tab and pushes the message with its id, as one change.
    version = window.version
    message_42(session, window)
    assert window.version == version + 1
    assert (window.selected_tab, window.title) == ("inbox", "Message")
    assert active(window)["params"] == {"id": "42"}
    assert routes(window) == [("push", "message", {"id": "42"})]
    with pytest.raises(errors.BadParameter):
        session.open_url("mail://message/abc")

    # compose's style: Show presents it as a sheet.
    window.show("compose", {"to": "ann@example.org"})
    compose = window.active_model
    assert (window.active_screen, window.title) == ("compose", "New message")
    assert active(window)["attachment"] == {"type": "presented", "style": {"kind": "sheet", "detents": []}}
    assert active(window)["params"] == {"to": "ann@example.org"}

    # The compose page marks its model while the draft has text, naming the manifest's dialog.
    assert window.can_dismiss
    window.protect("unsaved draft", model=compose, dialog="discardDraft")
    assert marks(window) == {compose: ("unsaved draft", "discardDraft")}
    assert not window.can_dismiss and not window.can_go_back

    # A dismissal is refused with Prevented, and the dialog is presented on compose in its place.
    version = window.version
    with pytest.raises(errors.Prevented) as refused:
        window.dismiss()
    assert refused.value.name == "org.navsession.Error.Prevented"
    assert "unsaved draft" in refused.value.message and "discardDraft" in refused.value.message
    assert window.version == version + 1
    assert (window.active_screen, window.title) == ("alert", "Discard draft?")
    alert = active(window)
    assert alert["parent"] == compose
    assert alert["dialog"]["message"] == "The message has not been sent."
    assert [(a["id"], a["title"]) for a in alert["dialog"]["actions"]] == [("discard", "Discard"),
                                                                           ("keep", "Keep editing")]

    # "Keep editing": everything as it was, the mark included.
    choose(window, alert["id"], "keep")
    assert window.active_model == compose
    assert marks(window) == {compose: ("unsaved draft", "discardDraft")}

    # Logging out would finish compose too: refused the same way; this time "Discard" re-applies it once.
    with pytest.raises(errors.Prevented):
        window.switch_model("login")
    assert window.title == "Discard draft?"
    choose(window, window.active_model, "discard")
    assert (window.active_screen, window.title) == ("login", "Log in")
    assert marks(window) == {}


def test_a_link_that_arrives_while_logged_out_waits_and_lands_after_the_login(navsession_session):
    window = navsession_session.open_window("main")
    assert navsession_session.open_url("mail://message/7").path == window.path
    assert window.active_screen == "login"
    assert window.pending_deep_link == "mail://message/7"
    window.switch_model("main")
    window.wait_for(lambda w: w.active_screen == "message", timeout=BOUND)
    assert active(window)["params"] == {"id": "7"}
    assert window.pending_deep_link == ""


def test_the_compose_link_presents_over_the_message_and_a_resetting_link_is_prevented(navsession_session):
    session = navsession_session
    window = logged_in(session)
    message_42(session, window)
    session.open_url("mail://compose?to=ann@example.org")
    window.wait_for(lambda w: w.active_screen == "compose", timeout=BOUND)
    assert routes(window) == [("push", "message", {"id": "42"}), ("sheet", "compose", {"to": "ann@example.org"})]
    compose = window.active_model
    window.protect("unsaved draft", dialog="discardDraft")
    # A message link resets the landing branch: it would dismiss the draft.
    with pytest.raises(errors.Prevented):
        session.open_url("mail://message/43")
    assert window.title == "Discard draft?"
    choose(window, window.active_model, "keep")
    assert window.active_model == compose
    # A renderer's report of the sheet swiped down is refused too, without the dialog.
    version = window.version
    with pytest.raises(errors.Prevented):
        window.call("ReportDismissed", "(t)", (compose,))
    assert (window.version, window.active_model) == (version, compose)
    # Without "to" the parameter is left out.
    window.unprotect(model=compose)
    window.dismiss()
    session.open_url("mail://compose")
    window.wait_for(lambda w: w.active_screen == "compose", timeout=BOUND)
    assert active(window)["params"] == {}


def test_the_drafts_provider_decides_leaving_compose_and_without_one_onAbsent_allows(
        navsession_session, draft_store):
    session = navsession_session
    window = logged_in(session)
    message_42(session, window)

    store = draft_store("the draft is being saved")
    assert session.guards()["drafts"] != ""
    # "when": ["leave"]: presenting compose is not asked, so a denying store does not stop it.
    window.show("compose", {"to": "bob@example.org"})
    compose = window.active_model
    assert window.active_screen == "compose"

    # Leaving compose is the store's to decide: a deny is Denied with its reason, nothing changes.
    version = window.version
    with pytest.raises(errors.Denied) as denied:
        window.dismiss()
    assert denied.value.name == "org.navsession.Error.Denied"
    assert "drafts" in denied.value.message and "the draft is being saved" in denied.value.message
    assert (window.version, window.active_model) == (version, compose)
    assert store.asked_about_leaving_compose()

    # Marks come first: a marked compose is Prevented, not Denied.
    window.protect("unsaved draft", model=compose)
    with pytest.raises(errors.Prevented):
        window.dismiss()
    window.unprotect(model=compose)

    # The store leaves the bus (it unregisters on the way).
    store.stop()
    assert session.guards() == {"drafts": ""}
    # No provider: "onAbsent": "allow".
    window.dismiss()
    assert window.active_screen == "message"


def test_a_store_that_does_not_answer_in_time_refuses_leaving_compose(navsession_session, draft_store):
    session = navsession_session
    window = logged_in(session)
    window.show("compose")
    compose = window.active_model
    store = draft_store(None)  # never answers while the test holds it
    version = window.version
    with pytest.raises(errors.Denied) as denied:
        window.dismiss()  # "timeoutMs": 2000, then "onTimeout": "deny"
    assert "drafts" in denied.value.message
    assert (window.version, window.active_model) == (version, compose)
    store.released.set()
    store.stop()
    assert session.guards() == {"drafts": ""}
    window.dismiss()
    assert window.active_screen == "inbox"


# --- the shell walk -----------------------------------------------------------------------------------------------

def test_the_sections_shell_walk_runs_as_written(manifest_path, tmp_path):
    """The ``sh`` block, verbatim, from a directory laid out like a checkout (``mail.json`` and ``.build/debug``
    holding the daemon and navsessionctl), in a process group of its own that is ended afterwards."""
    binaries = Path(find_daemon()).resolve().parent
    if not os.access(binaries / "navsessionctl", os.X_OK):
        pytest.skip(f"no navsessionctl next to {find_daemon()}")
    (tmp_path / "mail.json").write_text(manifest_path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / ".build").mkdir()
    (tmp_path / ".build" / "debug").symlink_to(binaries, target_is_directory=True)
    script = shell_text()
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("DBUS_SESSION_BUS_ADDRESS", "NAVSESSION_DEST")}
    process = subprocess.Popen(["bash", "-c", script], cwd=tmp_path, env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=2 * BOUND)
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)  # whatever of the walk is left (nothing, normally)
        except ProcessLookupError:
            pass
        if process.poll() is None:
            process.kill()
            process.communicate()
    log = tmp_path / "mail.log"
    daemon_log = log.read_text(errors="replace") if log.exists() else ""
    where = f"stdout:\n{stdout}\nstderr:\n{stderr}\nmail.log:\n{daemon_log}"
    assert process.returncode == 0, where

    # Every `ctl list` and `ctl open-window` comment is a line navsessionctl printed, in that order.
    expected = [comment.strip() for comment in re.findall(r"(?m)^ctl (?:list|open-window main)\s+# (.*)$", script)]
    assert len(expected) == 6
    lines = stdout.splitlines()
    position = 0
    for line in expected:
        assert line in lines[position:], f"{line!r} not printed (in order)\n{where}"
        position = lines.index(line, position) + 1
    assert "drafts -" in lines, where
    assert '"id": "42"' in stdout, where  # ctl routes 1
    # The documented refusal: the comment up to the unique bus name, which differs per run.
    refusal = re.search(r"(?m)^# (navsessionctl: org\.navsession\.Error\.Prevented: .*?) by :", script).group(1)
    assert refusal in stderr, where
