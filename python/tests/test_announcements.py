"""Announcements for assistive technologies (Window1 ``Announcement`` and ``GetAnnouncement``; Docs/announcements.md)
through the Python package, against the real daemon: a push, a sheet and its dismissal, a tab switch, an alert and a
confirmation dialog each announce what happened and where keyboard focus goes (the window's ``ActiveModel`` after the
change), in the manifest's locale, and ``get_announcement`` says the newest one again in the language asked for
(Accept-Language); a change that leaves focus where it was announces nothing; a manifest with a bad ``locale``,
phrase kind or template is refused with the key named, by ``navsessiond --check-manifest``, at start and by
``CheckManifest``.

Every wait is on a condition (a signal, a reply, the process's exit), never a sleep; the bounds are generous and
claim nothing about latency. Absence is proven by order: the signals of one window come in the daemon's order, so
once the announcement of a later change has arrived, an earlier change's announcement would have arrived before it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Callable, List, Tuple

import pytest

import navsession
from navsession import commands as c
from navsession import errors, specs
from navsession.testing import TestDaemon, TestSetupError, find_daemon, until

#: How long a test waits for something that is only eventually true: generous, never a latency claim.
BOUND = 30.0

#: A mail window: tabs "inbox" and "settings", each a stack; a message screen with a template in two locales; a
#: compose sheet; French phrases for every kind.
MANIFEST: dict = {
    "format": 1, "id": "org.navsession.AnnounceTest", "title": "Announce", "locale": "en",
    "announcements": {"fr": {
        "opened": "{title}", "sheet": "{title}, feuille", "back": "Retour à {title}",
        "tab": "{title}, onglet {index} sur {count}", "alert": "Alerte : {title}. {message}",
        "dialog": "{title}, dialogue. {message}"}},
    "screens": [
        {"name": "inbox", "title": "Inbox"},
        {"name": "message", "title": "Message", "required": ["id"], "optional": ["flag"],
         "announce": {"en": "Message {id}", "fr": "Message n° {id}"}},
        {"name": "compose", "title": "Compose", "style": "sheet"},
        {"name": "settings", "title": "Settings"},
    ],
    "scenes": [{"name": "mail", "title": "Mail", "default": True, "instances": "multiple", "root": {
        "kind": "tabs", "selectedTab": "inbox", "tabs": [
            {"id": "inbox", "title": "Inbox", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}},
            {"id": "settings", "title": "Settings", "model": {"kind": "stack", "path": [{"screen": "settings"}]}}]}}],
}

DELETE = specs.alert("Delete?", [specs.Action("delete", "Delete", "destructive"),
                                 specs.Action("keep", "Keep", "cancel")], "It cannot be undone.")
LEAVE = specs.confirmation_dialog("Leave?", [specs.Action("leave", "Leave", "destructive"),
                                             specs.Action("stay", "Stay", "cancel")])


@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    path = tmp_path / "announce.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


# -- helpers -------------------------------------------------------------------------------------------------


class Heard:
    """The window's ``Changed`` and ``Announcement`` signals in the order they were delivered, each announcement with
    the cached ``ActiveModel`` and ``Version`` inside its callback."""

    def __init__(self, window: navsession.Window) -> None:
        self.window = window
        self.events: List[Tuple[str, int]] = []
        self.said: List[Tuple[navsession.Announcement, int, int]] = []
        self._stop = [window.connect_changed(lambda change: self.events.append(("Changed", change.version))),
                      window.connect_announcement(self._announced)]

    def _announced(self, announcement: navsession.Announcement) -> None:
        self.events.append(("Announcement", announcement.version))
        self.said.append((announcement, self.window.active_model, self.window.version))

    def at(self, version: int) -> navsession.Announcement:
        """The announcement about ``version``, once it arrived; checks that focus is the window's ActiveModel after
        the change and that it came after that change's ``Changed``."""
        found = until(lambda: [s for s in self.said if s[0].version == version],
                      f"the Announcement of version {version}")
        assert len(found) == 1, f"announced twice: {found}"
        announcement, active_model, cached_version = found[0]
        assert cached_version == version, "the callback ran before the cached properties showed the change"
        assert announcement.focus_model == active_model != 0
        events = self.events
        assert events.index(("Changed", version)) < events.index(("Announcement", version)), events
        return announcement

    def versions(self) -> List[int]:
        return [announcement.version for announcement, _, _ in self.said]

    def stop(self) -> None:
        for stop in self._stop:
            stop()


@pytest.fixture
def heard(navsession_window: navsession.Window):
    listener = Heard(navsession_window)
    yield listener
    listener.stop()


def model(window: navsession.Window, model_id: int) -> dict:
    return next(m for m in window.state()["models"] if m["id"] == model_id)


# -- what each change says -------------------------------------------------------------------------------------

def test_nothing_is_announced_before_the_first_change_that_moves_focus(navsession_window):
    assert navsession_window.get_announcement() == navsession.Announcement(0, "", 0)
    assert navsession_window.get_announcement("fr") == (0, "", 0)


def test_a_push_says_the_screens_template_and_focus_goes_to_the_pushed_screen(navsession_window, heard):
    window = navsession_window
    version = window.push("message", {"id": "7"})
    said = heard.at(version)
    assert said.text == "Message 7"
    assert model(window, said.focus_model)["screen"] == "message"
    # Again, in the languages asked for: the French template (the "opened" phrase is "{title}"), else the manifest's.
    assert window.get_announcement() == said
    assert window.get_announcement("fr") == (version, "Message n° 7", said.focus_model)
    version_, text, focus = window.get_announcement("fr-CA,fr;q=0.9,en;q=0.5")
    assert (version_, text, focus) == (version, "Message n° 7", said.focus_model)
    assert window.get_announcement("de").text == "Message 7"


def test_a_sheet_says_sheet_and_its_dismissal_goes_back_to_the_screen_under_it(navsession_window, heard):
    window = navsession_window
    under = heard.at(window.push("message", {"id": "7"}))
    version = window.show("compose")
    sheet = heard.at(version)
    assert sheet.text == "Compose, sheet" and sheet.focus_model != under.focus_model
    assert model(window, sheet.focus_model)["screen"] == "compose"
    assert window.get_announcement("fr").text == "Compose, feuille"

    version = window.dismiss()
    back = heard.at(version)
    assert back.text == "Message 7" and back.focus_model == under.focus_model
    assert window.get_announcement("fr") == (version, "Retour à Message n° 7", under.focus_model)


def test_a_tab_switch_says_the_tabs_place(navsession_window, heard):
    window = navsession_window
    version = window.select_tab("settings")
    said = heard.at(version)
    assert said.text == "Settings, tab 2 of 2"
    assert model(window, said.focus_model)["screen"] == "settings"
    assert window.get_announcement("fr").text == "Settings, onglet 2 sur 2"

    # Back to the first tab, whose stack shows a message: the template inside the tab phrase.
    window.select_tab("inbox")
    heard.at(window.version)
    window.push("message", {"id": "3"})
    heard.at(window.version)
    window.select_tab("settings")
    heard.at(window.version)
    version = window.select_tab("inbox")
    assert heard.at(version).text == "Message 3, tab 1 of 2"
    assert window.get_announcement("fr").text == "Message n° 3, onglet 1 sur 2"


def test_an_alert_and_a_confirmation_dialog_say_their_title_and_message(navsession_window, heard):
    window = navsession_window
    version, _started = window.apply([c.present(DELETE)])
    alert = heard.at(version)
    assert alert.text == "Alert: Delete? It cannot be undone."
    assert model(window, alert.focus_model)["kind"] == "alert"  # assertive: Docs/announcements.md
    assert window.get_announcement("fr").text == "Alerte : Delete? It cannot be undone."

    # Its cancel action dismisses it: focus goes back to the screen under it.
    version = window.report_action_chosen(alert.focus_model, "keep")
    back = heard.at(version)
    assert back.text == "Inbox" and model(window, back.focus_model)["screen"] == "inbox"

    version, _started = window.apply([c.present(LEAVE)])
    dialog = heard.at(version)
    assert dialog.text == "Leave?, dialog."  # no message: nothing after the phrase's stop
    assert model(window, dialog.focus_model)["kind"] == "confirmationDialog"
    assert window.get_announcement("fr").text == "Leave?, dialogue."


def test_a_change_that_leaves_focus_where_it_was_announces_nothing(navsession_window, heard):
    window = navsession_window
    pushed = heard.at(window.push("message", {"id": "7"}))
    changed = window.set_params(0, {"flag": "red"})
    titled = window.set_title(0, "Flagged")
    kept = window.call("SetRendererState", "(ts)", (0, json.dumps({"scroll": 300})))[0]
    marked = window.protect("unsaved")
    unmarked = window.unprotect()
    assert changed < titled < kept < marked < unmarked
    until(lambda: ("Changed", unmarked) in heard.events, "the Changed of the last change")
    # The next change that moves focus is announced; every change before it was delivered before it.
    version = window.pop()
    back = heard.at(version)
    assert heard.versions() == [pushed.version, version]
    assert back.text == "Inbox"
    # GetAnnouncement still says the newest one.
    assert window.get_announcement().version == version


def test_a_change_under_an_alert_leaves_focus_on_the_alert_and_announces_nothing(navsession_window, heard):
    window = navsession_window
    version, _started = window.apply([c.present(DELETE)])
    alert = heard.at(version)
    kept = window.call("SetRendererState", "(ts)", (0, json.dumps({"scroll": 300})))[0]
    until(lambda: ("Changed", kept) in heard.events, "the Changed of the renderer state")
    version = window.report_action_chosen(alert.focus_model, "keep")
    heard.at(version)
    assert heard.versions() == [alert.version, version]


def test_accept_language_picks_the_best_locale_the_manifest_speaks(navsession_window, heard):
    window = navsession_window
    version = window.select_tab("settings")
    heard.at(version)
    for accept, text in [
        ("", "Settings, tab 2 of 2"),
        ("fr", "Settings, onglet 2 sur 2"),
        ("FR-ca", "Settings, onglet 2 sur 2"),          # the language of a tag the manifest lacks, any case
        ("de, fr;q=0.1", "Settings, onglet 2 sur 2"),   # German unknown: the next one it knows
        ("de;q=1, fr;q=0.4, en;q=0.5", "Settings, tab 2 of 2"),  # weights, not order
        ("fr;q=0, en", "Settings, tab 2 of 2"),         # q=0: not wanted
        ("*", "Settings, tab 2 of 2"),                   # anything: the manifest's own
        ("x-unknown, , ;q=abc", "Settings, tab 2 of 2"),
    ]:
        assert window.get_announcement(accept) == (version, text, window.active_model), accept


def test_get_announcement_of_a_closed_window_is_UnknownObject_and_its_argument_a_str(navsession_session):
    window = navsession_session.open_window("mail")
    with pytest.raises(TypeError):
        window.get_announcement(None)  # type: ignore[arg-type]
    navsession_session.dismiss_window(window)
    with pytest.raises(errors.UnknownObject) as raised:
        window.get_announcement("fr")
    assert raised.value.detail["method"] == "GetAnnouncement"


# -- manifests refused -----------------------------------------------------------------------------------------

def with_change(change: Callable[[dict], None]) -> dict:
    manifest = json.loads(json.dumps(MANIFEST))
    change(manifest)
    return manifest


BAD = [
    pytest.param(lambda m: m.update(locale="english!"), "locale", id="locale-not-a-tag"),
    pytest.param(lambda m: m.update(locale=""), "locale", id="locale-empty"),
    pytest.param(lambda m: m["announcements"]["fr"].update(popped="x"), "announcements.fr.popped", id="unknown-kind"),
    pytest.param(lambda m: m["announcements"]["fr"].update(opened="{title"), "announcements.fr.opened",
                 id="brace-never-closed"),
    pytest.param(lambda m: m["announcements"].update({"f r": {"opened": "x"}}), "announcements.f r",
                 id="phrase-locale-not-a-tag"),
    pytest.param(lambda m: m["screens"][1].update(announce="Message {}"), "screens[1].announce",
                 id="empty-placeholder"),
    pytest.param(lambda m: m["screens"][1].update(announce={"fr": "{id"}), "screens[1].announce.fr",
                 id="template-brace-never-closed"),
]


@pytest.mark.parametrize("change, key", BAD)
def test_check_manifest_refuses_a_bad_announcement_key_naming_it(tmp_path, change, key):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_change(change), indent=2), encoding="utf-8")
    out = subprocess.run([find_daemon(), "--check-manifest", str(path)], capture_output=True, text=True, timeout=BOUND)
    assert out.returncode == 65, out
    assert f"error: {key}:" in out.stderr, out.stderr
    assert out.stderr.startswith(f"{path}:"), out.stderr


@pytest.mark.parametrize("change, key", BAD[:1])
def test_the_daemon_does_not_start_with_a_bad_locale(navsession_bus, tmp_path, change, key):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_change(change)), encoding="utf-8")
    daemon = TestDaemon(navsession_bus.address, str(path))
    try:
        with pytest.raises(TestSetupError) as raised:
            daemon.start()
    finally:
        daemon.close()
    assert "exited" in str(raised.value) and f"{key}:" in str(raised.value)


@pytest.mark.parametrize("change, key", BAD)
def test_check_manifest_over_the_bus_is_InvalidManifest_naming_the_key(navsession_session, change, key):
    with pytest.raises(errors.InvalidManifest) as raised:
        navsession_session.check_manifest(with_change(change))
    assert key in raised.value.message


def test_the_manifest_with_announcements_is_valid(navsession_manifest):
    out = subprocess.run([find_daemon(), "--check-manifest", navsession_manifest], capture_output=True, text=True,
                         timeout=BOUND)
    assert out.returncode == 0, out.stderr
