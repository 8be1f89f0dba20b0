"""The change stream: Changed in order; a gap resynchronises from GetState."""

from gi.repository import GLib

from navsession import Change, Resync


def test_the_stream_yields_each_change_once_in_order(navsession_window):
    changes = navsession_window.changes(timeout=10)
    first = navsession_window.switch_model("main")
    second = navsession_window.push("about")
    seen = [next(changes), next(changes)]
    assert [(e.version, e.previous_version) for e in seen] == [(first, first - 1), (second, first)]
    assert seen[1].cause["commands"][0]["command"] == "stackAppend"
    assert seen[1].steps[0]["kind"] == "push"


def test_a_dropped_signal_yields_a_resync_with_the_snapshot(navsession_window):
    changes = navsession_window.changes(timeout=10)
    changes.drop_next()
    navsession_window.switch_model("main")  # its Changed is "lost"
    pushed = navsession_window.push("about")
    event = next(changes)
    assert isinstance(event, Resync)
    assert event.previous_version == 0 and event.version == pushed
    assert event.snapshot["version"] == pushed


def test_after_a_resync_the_stream_continues_with_the_next_change(navsession_window):
    changes = navsession_window.changes(timeout=10)
    changes.drop_next()
    navsession_window.switch_model("main")
    navsession_window.push("about")
    assert isinstance(next(changes), Resync)
    popped = navsession_window.pop()
    event = next(changes)
    assert isinstance(event, Change) and event.version == popped


def test_the_stream_ends_when_the_window_closes(navsession_window):
    changes = navsession_window.changes(timeout=10)
    navsession_window.close()
    events = list(changes)
    assert events[-1].cause == {"report": {"report": "windowClosed"}}


def test_follow_delivers_changes_and_resyncs_from_a_glib_main_loop(navsession_window):
    events = []
    loop = GLib.MainLoop()

    def on_event(event):
        events.append(event)
        if isinstance(event, Resync):
            navsession_window.call_async("StackDropLast", "(u)", (1,))  # → Change
        else:
            loop.quit()

    stream = navsession_window.follow(on_event)
    stream.drop_next()
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))  # lost
    navsession_window.call_async("StackAppend", "(sa{ss})", ("about", {}))  # → Resync
    GLib.timeout_add_seconds(10, loop.quit)
    loop.run()
    stream.close()
    assert [type(e) for e in events] == [Resync, Change]
    assert events[1].previous_version == events[0].version
