"""``Window.protect`` and ``commands.protect`` take their arguments in one order: the reason, then ``model``,
``tag`` and ``dialog`` by keyword (the former ``Window.protect(model, reason, dialog)`` still works, deprecated)."""

import inspect

import pytest

from navsession import Window
from navsession import commands as c
from navsession import errors


def parameters(function, skip_self=False):
    params = list(inspect.signature(function).parameters.values())[1 if skip_self else 0:]
    return [(p.name, p.kind) for p in params if p.kind is not inspect.Parameter.VAR_POSITIONAL]


def test_window_protect_and_commands_protect_have_the_same_parameters_in_the_same_order():
    assert parameters(Window.protect, skip_self=True) == parameters(c.protect) == [
        ("reason", inspect.Parameter.POSITIONAL_OR_KEYWORD), ("model", inspect.Parameter.KEYWORD_ONLY),
        ("tag", inspect.Parameter.KEYWORD_ONLY), ("dialog", inspect.Parameter.KEYWORD_ONLY)]
    assert [name for name, _ in parameters(Window.unprotect, skip_self=True)] \
        == [name for name, _ in parameters(c.unprotect)] == ["model", "tag"]


def two_details(window):
    window.switch_model("main")
    window.push("detail", {"id": "1"})
    first = window.active_model
    window.push("detail", {"id": "2"})
    return first, window.active_model


def marks(window):
    return {mark["model"]: (mark["reason"], mark.get("dialog", "")) for mark in window.protected or []}


def test_the_same_arguments_make_the_same_mark_through_the_method_and_the_command(navsession_window):
    first, second = two_details(navsession_window)
    navsession_window.protect("unsaved text", model=first, dialog="discardChanges")
    navsession_window.apply([c.protect("unsaved text", model=second, dialog="discardChanges")])
    assert marks(navsession_window) == {first: ("unsaved text", "discardChanges"),
                                        second: ("unsaved text", "discardChanges")}
    navsession_window.unprotect(model=first)
    navsession_window.apply([c.unprotect(model=second)])
    assert marks(navsession_window) == {}


def test_protect_without_a_model_marks_the_active_model_as_the_command_does(navsession_window):
    _first, second = two_details(navsession_window)
    version = navsession_window.protect("draft")
    assert navsession_window.version == version and marks(navsession_window) == {second: ("draft", "")}
    navsession_window.unprotect()
    navsession_window.apply([c.protect("draft")])
    assert marks(navsession_window) == {second: ("draft", "")}


def test_protect_by_tag_or_tag_reference_goes_through_the_protect_command(navsession_window):
    navsession_window.switch_model("main")
    navsession_window.apply([c.push("detail", {"id": "1"}, tag="draft")])
    draft = navsession_window.active_model
    navsession_window.push("about")
    navsession_window.protect("unsaved", tag="draft", dialog="discardChanges")
    assert marks(navsession_window) == {draft: ("unsaved", "discardChanges")}
    navsession_window.unprotect(tag="draft")
    navsession_window.protect("unsaved", model="tag:draft")
    assert marks(navsession_window) == {draft: ("unsaved", "")}
    navsession_window.unprotect("tag:draft")
    assert marks(navsession_window) == {}


def test_the_former_order_model_reason_dialog_still_works_with_a_DeprecationWarning(navsession_window):
    first, second = two_details(navsession_window)
    with pytest.warns(DeprecationWarning, match=r"protect\(reason, model="):
        navsession_window.protect(first, "unsaved text", "discardChanges")
    with pytest.warns(DeprecationWarning):
        navsession_window.protect(second, "draft", dialog="")
    assert marks(navsession_window) == {first: ("unsaved text", "discardChanges"), second: ("draft", "")}
    navsession_window.unprotect(first)  # unprotect(model) is unchanged
    assert marks(navsession_window) == {second: ("draft", "")}


@pytest.mark.parametrize("args, kwargs", [
    (("unsaved", "discardChanges"), {}),          # a second positional string: neither order
    ((12, "unsaved"), {"model": 13}),              # the model twice
    ((12,), {}),                                    # no reason
    ((12, "unsaved", "discardChanges"), {"dialog": "discardChanges"}),
])
def test_an_ambiguous_call_raises_TypeError_before_calling_the_daemon(navsession_window, args, kwargs):
    version = navsession_window.version
    with pytest.raises(TypeError):
        navsession_window.protect(*args, **kwargs)
    assert navsession_window.version == version


def test_protecting_an_unknown_model_raises_the_daemons_error(navsession_window):
    with pytest.raises(errors.UnknownModel):
        navsession_window.protect("unsaved", model=999_999)
