"""Typed commands and specs: the JSON they produce is the documented one, and the daemon takes it."""

import functools
import importlib.machinery
import importlib.util
import re
from pathlib import Path

import pytest

from navsession import commands as c
from navsession import errors, specs as s

REPOSITORY = Path(__file__).resolve().parents[2]


def test_push_writes_a_stackAppend_of_one_element_without_defaults():
    assert c.push("detail", {"id": "42"}, transition="zoom").to_json() == {
        "command": "stackAppend", "models": [{"screen": "detail", "params": {"id": "42"}, "transition": "zoom"}]}


def test_present_writes_the_presentation_with_its_model_spec():
    command = c.present(s.sheet(s.Stack([s.Screen("editor")], screen="compose"), detents=["medium"]))
    assert command.to_json() == {"command": "present", "presentation": {
        "kind": "sheet", "detents": ["medium"], "model": {"kind": "stack", "screen": "compose",
                                                          "path": [{"screen": "editor"}]}}}


def test_from_and_animated_are_batch_entry_keys():
    assert c.dismiss().from_(17).animated(False).to_json() == {"command": "dismiss", "from": 17, "animated": False}
    assert c.pop().from_(s.tag("inbox")).to_json() == {"command": "stackDropLast", "from": "tag:inbox"}


def test_a_dismissal_result_may_be_any_json_value_including_null():
    assert c.dismiss(None).to_json() == {"command": "dismiss", "result": None}
    assert c.go_back({"saved": True}).to_json() == {"command": "goBack", "result": {"saved": True}}


def test_a_batch_is_compact_json_text():
    assert c.batch_json([c.pop(2), c.go_back_to(screen="home")]) == (
        '[{"command":"stackDropLast","count":2},{"command":"goBackTo","screen":"home"}]')
    assert c.batch_json(c.go_back_to(screen="detail", params={"id": "1"})) == (
        '[{"command":"goBackTo","screen":"detail","params":{"id":"1"}}]')
    assert c.batch_json(c.go_back_to(screen="detail", params_containing={"id": "1"})) == (
        '[{"command":"goBackTo","screen":"detail","paramsContaining":{"id":"1"}}]')


def test_routes_write_withNavigation_for_presentations_only():
    assert s.Route("push", "detail", {"id": "1"}).to_json() == {"style": "push", "screen": "detail",
                                                                "params": {"id": "1"}}
    assert s.Route("sheet", "editor").to_json() == {"style": "sheet", "screen": "editor", "withNavigation": False}


def test_the_builders_cover_every_command_the_daemon_decodes():
    source = (REPOSITORY / "Sources/NavigationCore/Commands/NavigationCommand+Fields.generated.swift").read_text()
    names_block = source.split("static let names = [", 1)[1].split("]", 1)[0]
    assert c.COMMAND_NAMES == set(re.findall(r'"([A-Za-z]+)"', names_block))


# Each builder against the demo, logged in (a home stack in tabs), through Window1.Check: the daemon decodes it.
ACCEPTED = {
    "push": c.push("detail", {"id": "1"}, title="One", tag="one", transition="zoom", single_top=True),
    "push_all": c.push_all(["about", s.Screen("detail", {"id": "2"})]),
    "set_root": c.set_root("about", clear=True),
    "set_path": c.set_path([c.existing(s.tag("top")), "about"]),
    "present_sheet": c.present(s.sheet("about", detents=["medium", "large"], transition="slide")),
    "present_cover": c.present(s.cover(s.Stack([s.Screen("about")]))),
    "present_alert": c.present(s.alert("Hi", [s.Action("ok", "OK", role="cancel", commands=[c.select_tab("settings").to_json()])],
                                       message="Hello")),
    "present_browser": c.present(s.browser("https://example.org/")),
    "show": c.show("about"),
    "select_tab": c.select_tab("settings"),
    "switch_model": c.switch_model("login", save_state=True, restore_state=False),
    "clear_saved_state": c.clear_saved_state("main"),
    "open_url": c.open_url("https://example.org/"),
    "trigger": c.trigger("beep", "loud"),
    "send_message": c.send_message("hello", "there", to="self"),
    "sequence": c.sequence([c.push("about"), c.pop()]),
    "set_routes": c.set_routes([s.Route("push", "about")]),
    "set_params": c.set_params(title="Home", merge=True),
    "set_appearance": c.set_appearance({"backButton": False}),
    "protect": c.protect("unsaved", dialog=""),
    "set_renderer_state": c.set_renderer_state(0, {"width": 900}),
    "transaction": c.transaction({"animation": "spring"}),
    "schedule": c.schedule([c.pop()], 60_000, id="later", overdue="drop"),
    "set_tab_bar_rule": c.set_tab_bar_rule(True, animated=False),
    "go_back_to_root": c.go_back_to_root(),
    "go_back_to_value": c.go_back_to(screen="about", params={}),
    "go_back_to_predicate": c.go_back_to(screen="about", params_containing={}),
    "pop_to": c.pop_to("about", {}, merge=True),
    "pop_at": c.pop_at(1).from_(s.tag("top")),
    "dismiss_all": c.dismiss_all(),
    "open_window": c.open_window("waiting"),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_daemon_accepts_the_builders_json(navsession_window, name):
    navsession_window.switch_model("main")
    version, _started = navsession_window.check([c.push("about", tag="top"), ACCEPTED[name]])
    assert version == navsession_window.version + 1


# Builders whose command the logged-in demo refuses for a navigation reason — never for its JSON.
REFUSED = {
    "pop": (c.pop(), errors.AlreadyAtRoot),
    "dismiss": (c.dismiss(), errors.NothingToDismiss),
    "go_forward": (c.go_forward(2), errors.NothingToGoForward),
    "cancel_scheduled": (c.cancel_scheduled("none"), errors.UnknownScheduled),
    "bring_to_front": (c.bring_to_front(tag="none"), errors.UnknownTag),
    "select_child": (c.select_child(1), errors.NoContainer),
    "set_column_visibility": (c.set_column_visibility("all"), errors.NoContainer),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_daemon_decodes_the_builders_json_and_refuses_for_navigation(navsession_window, name):
    command, error = REFUSED[name]
    navsession_window.switch_model("main")
    with pytest.raises(error):
        navsession_window.check([command])


@functools.lru_cache(maxsize=None)
def _batch_validator():
    # The repository's validator (scripts/validate-documents) over schemas/batch.json: the same schemas the
    # installed package's users get under share/navsession/schemas.
    path = str(REPOSITORY / "scripts" / "validate-documents")
    loader = importlib.machinery.SourceFileLoader("validate_documents", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("validate_documents", loader))
    loader.exec_module(module)
    return module, module.validator(module.load_schemas(), "batch")


@pytest.mark.parametrize("name", sorted(ACCEPTED) + sorted(REFUSED))
def test_the_builders_json_validates_against_the_batch_schema(name):
    module, batch = _batch_validator()
    command = ACCEPTED[name] if name in ACCEPTED else REFUSED[name][0]
    assert module.errors_of(batch, [command.to_json()]) == []
