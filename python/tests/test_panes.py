"""Adaptive panes (a scene's ``panes``, Window1 ``ReportWidthClass`` and ``VisibleModels``; Docs/panes.md) through the
Python package, against the real daemon: a list-detail scene on a tagged stack shows the detail alone when compact or
medium and the list and the detail when expanded; three columns show two when medium and three when expanded; a
presentation on top is listed after the panes; a scene without panes shows one page whatever the width; each change
of the visible models comes as ``PropertiesChanged`` carrying ``VisibleModels``; a width class is not navigation (no
version, no ``Changed``); a bad width class is InvalidArgs and the window's policy applies.

Every wait is on a condition (a reply, a signal), never a sleep; the bounds are generous and claim nothing about
latency.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import navsession
from navsession import errors

#: How long a test waits for something that is only eventually true: generous, never a latency claim.
BOUND = 30.0

MANIFEST: Dict[str, Any] = {
    "format": 1, "id": "org.navsession.PanesTest", "title": "Panes",
    "screens": [{"name": "inbox", "title": "Inbox"}, {"name": "message", "title": "Message", "optional": ["id"]},
                {"name": "reply", "title": "Reply"}, {"name": "folders", "title": "Folders"},
                {"name": "settings", "title": "Settings"}],
    "scenes": [
        {"name": "mail", "title": "Mail", "default": True, "instances": "multiple",
         "panes": {"strategy": "list-detail", "stack": "messages"},
         "root": {"kind": "stack", "tag": "messages", "path": [{"screen": "inbox"}]}},
        {"name": "columns", "title": "Columns", "instances": "multiple", "panes": {"strategy": "three-column"},
         "root": {"kind": "stack", "path": [{"screen": "folders"}]}},
        {"name": "support", "title": "Support", "instances": "multiple", "panes": {"strategy": "supporting-pane"},
         "root": {"kind": "stack", "path": [{"screen": "inbox"}]}},
        {"name": "plain", "title": "Plain", "instances": "multiple",
         "root": {"kind": "stack", "path": [{"screen": "settings"}]}},
    ],
}


@pytest.fixture
def navsession_manifest(tmp_path: Path) -> str:
    path = tmp_path / "panes.json"
    path.write_text(json.dumps(MANIFEST), encoding="utf-8")
    return str(path)


def stack_path(window: navsession.Window) -> List[int]:
    """The model ids of the window's root stack, bottom first."""
    state = window.state()
    root = next(m for m in state["models"] if m["id"] == state["root"])
    return [element["model"] for element in root["path"]]


class Seen:
    """The window's ``VisibleModels`` as each ``PropertiesChanged`` carried it, and its ``Changed`` versions."""

    def __init__(self, window: navsession.Window) -> None:
        self.visible: List[List[int]] = []
        self.changed: List[int] = []
        self._stop = [window.connect_properties(self._properties),
                      window.connect_changed(lambda change: self.changed.append(change.version))]

    def _properties(self, changed: Dict[str, Any]) -> None:
        if "VisibleModels" in changed:
            self.visible.append([int(m) for m in changed["VisibleModels"]])

    def stop(self) -> None:
        for stop in self._stop:
            stop()


# -- list-detail ------------------------------------------------------------------------------------------------

def test_list_detail_shows_the_detail_alone_until_expanded_then_the_list_beside_it(navsession_session):
    window = navsession_session.open_window("mail")
    inbox = window.active_model
    assert window.visible_models == [inbox]  # one page: nothing pushed, and compact until a renderer reports
    window.push("message", {"id": "7"})
    message = window.active_model
    assert stack_path(window) == [inbox, message]
    assert window.visible_models == [message]  # compact: the detail alone

    seen = Seen(window)
    try:
        version = window.version
        window.report_width_class("expanded")
        # When the call returns the cached property shows it (the PropertiesChanged came before the reply).
        assert window.visible_models == [inbox, message]
        assert seen.visible[-1] == [inbox, message]

        window.report_width_class("medium")  # list-detail: one pane below expanded
        assert window.visible_models == [message]
        window.report_width_class("compact")
        assert window.visible_models == [message]
        assert seen.visible == [[inbox, message], [message]]  # the same list again is not announced again

        # Not navigation: no version, no Changed, nothing journaled in the window's history.
        assert window.version == version and window.state()["version"] == version
        assert seen.changed == []
    finally:
        seen.stop()


def test_expanded_panes_follow_pushes_and_pops_and_a_sheet_is_listed_after_them(navsession_session):
    window = navsession_session.open_window("mail")
    inbox = window.active_model
    window.report_width_class("expanded")
    assert window.visible_models == [inbox]  # a stack of one shows one page
    window.push("message", {"id": "1"})
    first = window.active_model
    assert window.visible_models == [inbox, first]
    window.push("message", {"id": "2"})
    second = window.active_model
    assert window.visible_models == [first, second]  # the stack's top two
    window.present("sheet", "reply")
    sheet = window.active_model
    assert window.visible_models == [first, second, sheet]  # the panes stay behind the sheet
    window.dismiss()
    window.pop()
    assert window.visible_models == [inbox, first]
    window.pop()
    assert window.visible_models == [inbox]


def test_three_columns_show_two_when_medium_and_three_when_expanded(navsession_session):
    window = navsession_session.open_window("columns")
    folders = window.active_model
    window.push("inbox")
    inbox = window.active_model
    window.push("message", {"id": "3"})
    message = window.active_model
    assert window.visible_models == [message]
    window.report_width_class("medium")
    assert window.visible_models == [inbox, message]
    window.report_width_class("expanded")
    assert window.visible_models == [folders, inbox, message]
    window.report_width_class("compact")
    assert window.visible_models == [message]


def test_supporting_pane_shows_two_when_expanded_only(navsession_session):
    window = navsession_session.open_window("support")
    main = window.active_model
    window.push("message")
    support = window.active_model
    window.report_width_class("medium")
    assert window.visible_models == [support]
    window.report_width_class("expanded")
    assert window.visible_models == [main, support]


def test_a_scene_without_panes_shows_one_page_at_any_width(navsession_session):
    window = navsession_session.open_window("plain")
    window.push("inbox")
    inbox = window.active_model
    for width in ("expanded", "medium", "compact"):
        window.report_width_class(width)
        assert window.visible_models == [inbox]


def test_each_window_has_its_own_width_class(navsession_session):
    wide = navsession_session.open_window("mail")
    narrow = navsession_session.open_window("mail")
    for window in (wide, narrow):
        window.push("message")
    wide.report_width_class("expanded")
    assert len(wide.visible_models) == 2
    assert narrow.visible_models == [narrow.active_model]


# -- errors -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", ["wide", "", "Expanded", "compact "])
def test_a_bad_width_class_is_InvalidArgs_and_changes_nothing(navsession_session, width):
    window = navsession_session.open_window("mail")
    window.push("message")
    window.report_width_class("expanded")
    before = window.visible_models
    with pytest.raises(errors.InvalidArgs) as raised:
        window.report_width_class(width)
    assert raised.value.detail["method"] == "ReportWidthClass"
    assert "width class" in raised.value.message
    assert window.visible_models == before


def test_a_width_class_of_another_type_is_a_TypeError_before_calling(navsession_session):
    window = navsession_session.open_window("mail")
    with pytest.raises(TypeError):
        window.report_width_class(600)  # type: ignore[arg-type]


def test_the_windows_policy_applies_to_its_width_class(navsession_session):
    session = navsession_session
    window = session.open_window("mail")
    window.push("message")
    session.set_window_policy(window, {"change": []})  # a kiosk: no client changes it
    with pytest.raises(errors.AccessDenied):
        window.report_width_class("expanded")
    assert window.visible_models == [window.active_model]
    session.set_window_policy(window, None)
    window.report_width_class("expanded")
    assert len(window.visible_models) == 2


def test_a_manifests_panes_are_checked(navsession_session):
    for panes, named in (({"strategy": "two-up"}, "two-up"), ({"strategy": "list-detail", "side": "left"}, "side")):
        manifest = json.loads(json.dumps(MANIFEST))
        manifest["scenes"][0]["panes"] = panes
        with pytest.raises(errors.InvalidManifest) as raised:
            navsession_session.check_manifest(manifest)
        assert named in raised.value.message
