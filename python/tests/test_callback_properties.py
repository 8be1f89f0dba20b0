"""In every callback the window's cached properties already describe the change being announced, and a refused
call's side change is in the properties when its error is raised.

The daemon sends a change's ``Changed`` before its ``PropertiesChanged``; the package holds the callbacks until
the cache shows the change (no extra call), bounded by ``client.PROPERTIES_WAIT`` (then ``GetAll``)."""

import asyncio

import pytest
from gi.repository import GLib

import navsession
from navsession import Change, Resync, errors
from navsession import commands as c

PUSHES = 50
#: Liveness bound of the main loops below (seconds): generous, nothing here measures latency.
LIVENESS = 60


def screen_of(push):
    return "detail" if push % 2 == 0 else "about"


def push_all_async(window, count):
    """``count`` pushes sent at once (their signals arrive in bursts): detail, about, detail…"""
    for push in range(count):
        params = {"id": str(push)} if screen_of(push) == "detail" else {}
        window.call_async("StackAppend", "(sa{ss})", (screen_of(push), params))


def run_until(condition):
    """Runs a GLib main loop until ``condition()`` holds (checked after every dispatch); fails after LIVENESS s."""
    context = GLib.MainContext.default()
    source = GLib.timeout_source_new(LIVENESS * 1000)
    expired = []
    source.set_callback(lambda *_: expired.append(True) or False)
    source.attach(context)
    try:
        while not condition() and not expired:
            context.iteration(True)
    finally:
        source.destroy()
    assert condition(), "timed out (liveness bound)"


def snapshot(window, change):
    return {"change": change.version, "version": window.version, "screen": window.active_screen,
            "model": window.active_model, "can_go_back": window.can_go_back, "can_pop": window.can_pop}


def assert_each_callback_saw_its_change(seen, base):
    assert [s["change"] for s in seen] == list(range(base + 1, base + PUSHES + 1))
    for push, state in enumerate(seen):
        assert state["version"] == state["change"], state
        assert state["screen"] == screen_of(push), state
        assert state["can_go_back"] is True and state["can_pop"] is True, state
    models = [s["model"] for s in seen]
    assert models == sorted(set(models)), "each push made the active model a new one"


def test_connect_changed_sees_the_version_it_announces_over_50_pushes_sent_at_once(navsession_window):
    base = navsession_window.switch_model("main")
    seen = []
    stop = navsession_window.connect_changed(lambda change: seen.append(snapshot(navsession_window, change)))
    push_all_async(navsession_window, PUSHES)
    run_until(lambda: len(seen) >= PUSHES)
    stop()
    assert_each_callback_saw_its_change(seen, base)


def test_follow_sees_the_version_it_announces_over_50_blocking_pushes(navsession_window):
    base = navsession_window.switch_model("main")
    seen = []
    stream = navsession_window.follow(lambda event: seen.append(snapshot(navsession_window, event)))
    for push in range(PUSHES):  # each call dispatches its signals before it returns: the callback runs inside it
        navsession_window.push(screen_of(push), {"id": str(push)} if screen_of(push) == "detail" else {})
    stream.close()
    assert_each_callback_saw_its_change(seen, base)


def test_a_callback_that_changes_the_window_sees_its_own_change_and_the_next_callback_comes_after_it(
        navsession_window):
    base = navsession_window.switch_model("main")
    seen = []

    def on_change(change):
        seen.append((change.version, navsession_window.version))
        if len(seen) < 5:
            made = navsession_window.push("about")  # dispatches the context inside the callback
            assert navsession_window.version == made == change.version + 1

    stop = navsession_window.connect_changed(on_change)
    navsession_window.call_async("StackAppend", "(sa{ss})", ("about", {}))
    run_until(lambda: len(seen) >= 5)
    stop()
    # in order, not nested: each callback saw its own version when it started
    assert seen == [(base + n, base + n) for n in range(1, 6)]


def test_a_properties_callback_comes_after_the_change_callback_of_its_PropertiesChanged(navsession_window):
    navsession_window.switch_model("main")
    order = []
    stops = [navsession_window.connect_properties(lambda changed: order.append(("properties", changed.get("Version")))),
             navsession_window.connect_changed(lambda change: order.append(("changed", change.version)))]
    push_all_async(navsession_window, 5)
    run_until(lambda: len([o for o in order if o[0] == "changed"]) == 5)
    for stop in stops:
        stop()
    versions = [version for kind, version in order if kind == "changed"]
    assert [o for o in order if o[0] == "properties"] == [("properties", v) for v in versions]
    for version in versions:  # connected first, called after: each change's callbacks come first
        assert order.index(("changed", version)) + 1 == order.index(("properties", version))


def test_a_resync_in_follow_comes_once_the_properties_show_the_snapshot(navsession_window):
    seen = []

    def on_event(event):
        seen.append((type(event), event.version, navsession_window.version, navsession_window.active_screen))

    stream = navsession_window.follow(on_event)
    stream.drop_next()
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))  # lost
    push_all_async(navsession_window, 3)  # the first one resyncs; the others may already be in its snapshot
    run_until(lambda: seen and seen[-1][1] >= 4)
    stream.close()
    assert seen[0][0] is Resync
    for kind, version, cached, _screen in seen:
        assert cached == version
    assert seen[-1][3] == screen_of(2)


def test_an_iterated_stream_never_shows_properties_older_than_its_event(navsession_window):
    base = navsession_window.switch_model("main")
    stream = navsession_window.changes(timeout=LIVENESS)
    push_all_async(navsession_window, PUSHES)
    for _ in range(PUSHES):
        event = next(stream)
        assert isinstance(event, Change)
        assert navsession_window.version >= event.version  # later changes may have been dispatched meanwhile
    stream.close()
    assert event.version == base + PUSHES


def test_an_async_stream_never_shows_properties_older_than_its_event(navsession_window):
    async def main():
        base = navsession_window.switch_model("main")
        stream = navsession_window.changes_async(timeout=LIVENESS)
        push_all_async(navsession_window, 10)
        async for event in stream:
            assert navsession_window.version >= event.version
            if event.version == base + 10:
                break
        stream.close()

    asyncio.run(main())


def test_the_closing_change_of_a_followed_window_is_delivered(navsession_window):
    seen = []
    stream = navsession_window.follow(seen.append)
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
    run_until(lambda: len(seen) == 1)
    navsession_window.session.call_async("DismissWindow", "(o)", (navsession_window.path,))
    run_until(lambda: len(seen) == 2)  # no PropertiesChanged after it: the window's removal releases it
    stream.close()
    assert seen[1].cause == {"report": {"report": "windowClosed"}}


# -- a refused call's side change -----------------------------------------------------------------------------

def protected_editor(window):
    """A logged-in window with an editor sheet this client protects with the demo's discardChanges dialog."""
    window.switch_model("main")
    window.present("sheet", "editor", {"id": "1"})
    editor = window.active_model
    window.protect("unsaved text", model=editor, dialog="discardChanges")
    return editor


@pytest.mark.parametrize("refused", [
    lambda window: window.go_back(),
    lambda window: window.apply([c.go_back()]),
    lambda window: window.call("GoBack"),
    lambda window: window.session.apply(window, [c.go_back()]),
], ids=["go_back", "apply", "call", "session_apply"])
def test_a_refused_change_raises_once_the_dialog_presented_instead_is_in_the_properties(navsession_window, refused):
    editor = protected_editor(navsession_window)
    before = navsession_window.version
    with pytest.raises(errors.Prevented) as raised:
        refused(navsession_window)
    assert "discardChanges" in raised.value.message
    # no wait, no iteration: the dialog's change (one version) is already in the cached properties
    assert navsession_window.version == before + 1
    assert navsession_window.active_screen == "alert" and navsession_window.title == "Discard changes?"
    assert navsession_window.active_model != editor and navsession_window.can_dismiss is True
    alert = [m for m in navsession_window.state()["models"] if m["id"] == navsession_window.active_model][0]
    assert alert["kind"] == "alert" and alert["parent"] == editor


def test_an_awaited_refused_call_raises_once_the_dialog_is_in_the_properties(navsession_window):
    protected_editor(navsession_window)
    before = navsession_window.version

    async def main():
        with pytest.raises(errors.Prevented):
            await navsession_window.call_awaitable("GoBack")
        return navsession_window.version, navsession_window.active_screen

    assert asyncio.run(main()) == (before + 1, "alert")


def test_a_refused_change_s_dialog_reaches_a_change_callback_before_the_error_is_raised(navsession_window):
    protected_editor(navsession_window)
    seen = []
    stop = navsession_window.connect_changed(
        lambda change: seen.append((change.version, navsession_window.version, navsession_window.active_screen)))
    with pytest.raises(errors.Prevented):
        navsession_window.go_back()
    stop()
    assert seen == [(navsession_window.version, navsession_window.version, "alert")]


def test_another_client_sees_the_dialog_of_a_change_it_had_refused(navsession_window, navsession_daemon):
    protected_editor(navsession_window)
    with navsession.connect(navsession_daemon.address, start=False) as second:
        other = second.window(navsession_window.path)
        before = other.version
        with pytest.raises(errors.Prevented):
            other.go_back()
        assert other.version == before + 1 and other.active_screen == "alert"


def test_properties_describe_a_change_made_through_call_or_a_report_when_it_returns(navsession_window):
    """``Window.call`` (any method) and the report methods dispatch what came before the reply: the properties
    describe the change when they return, as after the named change methods."""
    window = navsession_window
    (version,) = window.call("StackAppend", "(sa{ss})", ("detail", {"id": "7"}))
    assert window.version == version and window.active_screen == "detail"
    version = window.present("alert", "discardChanges")
    dialog = window.active_model
    version = window.report_action_chosen(dialog, "keep")
    assert window.version == version and window.active_screen == "detail"
