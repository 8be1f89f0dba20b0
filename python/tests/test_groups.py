"""Window groups (Session1 ``GroupWindows``, Window1 ``Group``) against the real daemon serving the demo: the
windows of a group close together however one of them is closed, reopen together under new numbers and the same
group, and are saved and opened together; ``Window.group`` follows the property's ``PropertiesChanged``; a bad
name, a window listed twice and an unknown window are their Python error classes; and the method as ``gdbus call``
sees it. Every wait is on a condition (the package's ``wait_for``), never a sleep.
"""

import re
import shutil
import subprocess

import pytest

from navsession import commands as c
from navsession import errors

#: How long a test waits for something that is only eventually true (a signal): generous, never a latency claim.
BOUND = 30.0


def groups(session):
    """Each open window's scene and group, in opening order (``ListWindows``)."""
    return [(window.scene, window.group) for window in session.windows()]


def pair(session, first):
    """``first`` (the demo's single-instance ``main``) and a new ``waiting`` window, grouped as "work"."""
    second = session.open_window("waiting")
    session.group_windows("work", [first, second.number])
    return first, second


def test_grouping_announces_each_windows_group_with_PropertiesChanged(navsession_session, navsession_window):
    session, first = navsession_session, navsession_window
    second = session.open_window("waiting")
    announced = {first.number: [], second.number: []}
    for window in (first, second):
        window.connect_properties(
            lambda changed, n=window.number: announced[n].append(changed["Group"]) if "Group" in changed else None)
    assert first.group == "" and second.group == ""
    session.group_windows("work", [first, second.path])
    for window in (first, second):
        window.wait_for(lambda w: announced[w.number] == ["work"], timeout=BOUND)
        assert window.group == "work"
    assert session.closed_windows() == []


def test_dismissing_one_window_closes_its_group_and_undo_close_reopens_it_grouped(navsession_session,
                                                                                   navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    session.dismiss_window(second)
    assert session.windows() == []
    closed = session.closed_windows()
    # The named window closed first, then the others in window order: the most recent first in the list.
    assert [(entry["window"], entry.get("group")) for entry in closed] == [(first.number, "work"),
                                                                            (second.number, "work")]
    assert closed[0]["closedAt"] == closed[1]["closedAt"]
    reopened = session.undo_close_window()
    assert reopened.scene == "main" and reopened.number > second.number  # the named entry: the most recent one
    assert groups(session) == [("main", "work"), ("waiting", "work")]
    assert [w.number for w in session.windows()] == [second.number + 1, second.number + 2]
    assert session.closed_windows() == []


def test_reopening_the_other_entry_reopens_the_group_too_and_returns_that_entrys_window(navsession_session,
                                                                                        navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    session.dismiss_window(first)
    reopened = session.reopen_window(str(second.number))
    assert reopened.scene == "waiting" and reopened.group == "work"
    assert sorted(groups(session)) == [("main", "work"), ("waiting", "work")]


def test_a_report_or_a_dismissWindow_command_closes_the_whole_group(navsession_session, navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    second.report_closed()
    assert session.windows() == [] and len(session.closed_windows()) == 2
    main = session.undo_close_window()
    waiting = next(w for w in session.windows() if w.scene == "waiting")
    waiting.apply([c.dismiss_window()])
    assert session.windows() == [] and {e["window"] for e in session.closed_windows()} == {main.number,
                                                                                           waiting.number}


def test_a_group_reopens_whole_or_not_at_all(navsession_session, navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    session.dismiss_window(second)
    other_main = session.open_window("main")  # single-instance: the group's main cannot come back beside it
    with pytest.raises(errors.InvalidArgs):
        session.undo_close_window(str(second.number))
    assert [w.path for w in session.windows()] == [other_main.path] and len(session.closed_windows()) == 2


def test_a_mark_on_any_window_of_the_group_refuses_the_whole_close(navsession_session, navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    first.protect("unsaved text", model=first.active_model)
    with pytest.raises(errors.Prevented):
        session.dismiss_window(second)
    # Nothing closed: the mark refuses the group's close before any window of it closes.
    assert sorted(w.path for w in session.windows()) == sorted([first.path, second.path])
    assert first.group == "work" and second.group == "work"
    assert session.closed_windows() == []


def test_a_close_on_exit_client_leaving_closes_only_its_window(navsession_daemon, navsession_session,
                                                               navsession_window):
    from navsession import connect
    session = navsession_session
    first, second = pair(session, navsession_window)
    owner = connect(navsession_daemon.address, navsession_daemon.name, start=False)
    owner.set_close_on_exit(second)
    owner.close()
    first.wait_for(lambda _w: second.closed, timeout=BOUND)  # InterfacesRemoved
    assert [w.path for w in session.windows()] == [first.path] and first.group == "work"


def test_an_empty_list_dissolves_the_group_and_a_window_listed_elsewhere_leaves_it(navsession_session,
                                                                                   navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    third = session.open_window("waiting")
    session.group_windows("other", [second, third])
    assert groups(session) == [("main", "work"), ("waiting", "other"), ("waiting", "other")]
    session.group_windows("other", [third])
    assert groups(session) == [("main", "work"), ("waiting", ""), ("waiting", "other")]
    session.group_windows("work", [])
    assert groups(session) == [("main", ""), ("waiting", ""), ("waiting", "other")]
    session.dismiss_window(first)  # in no group now: it closes alone
    assert len(session.windows()) == 2


def test_a_saved_session_opens_its_windows_grouped_again(navsession_session, navsession_window):
    session = navsession_session
    first, second = pair(session, navsession_window)
    session.save_session("trip", [first, second])
    session.dismiss_window(first)
    opened = session.open_session("trip")
    assert [(w.scene, w.group) for w in opened] == [("main", "work"), ("waiting", "work")]


@pytest.mark.parametrize("name", ["", "a/b", "x" * 65, "tab\t"])
def test_a_bad_name_is_InvalidArgs(navsession_session, navsession_window, name):
    with pytest.raises(errors.InvalidArgs) as raised:
        navsession_session.group_windows(name, [navsession_window])
    assert raised.value.detail["method"] == "GroupWindows" and navsession_window.group == ""


def test_a_window_twice_is_InvalidArgs_and_an_unknown_one_UnknownObject(navsession_session, navsession_window):
    session, window = navsession_session, navsession_window
    with pytest.raises(errors.InvalidArgs):
        session.group_windows("work", [window, window.number])
    with pytest.raises(errors.UnknownObject):
        session.group_windows("work", [window, 99])
    with pytest.raises(ValueError, match="not a window's object path"):
        session.group_windows("work", ["/org/navsession/Session1"])
    assert window.group == ""


@pytest.mark.skipif(shutil.which("gdbus") is None, reason="needs gdbus (Debian: libglib2.0-bin)")
def test_gdbus_call_groups_two_windows_and_undo_close_window_reopens_both(navsession_daemon, navsession_session,
                                                                          navsession_window):
    session = navsession_session
    second = session.open_window("waiting")

    def gdbus(path, method, *args):
        out = subprocess.run(
            ["gdbus", "call", "--address", navsession_daemon.address, "--dest", navsession_daemon.name,
             "--object-path", path, "--method", method, *args], capture_output=True, text=True, timeout=BOUND)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    session_path = "/org/navsession/Session1"
    windows = f"['{navsession_window.path}', '{second.path}']"
    assert gdbus(session_path, "org.navsession.Session1.GroupWindows", "work", windows) == "()"
    for window in (navsession_window, second):
        assert gdbus(window.path, "org.freedesktop.DBus.Properties.Get", "org.navsession.Window1",
                     "Group") == "(<'work'>,)"
    assert gdbus(session_path, "org.navsession.Session1.DismissWindow", second.path) == "()"
    assert session.windows() == []
    reply = gdbus(session_path, "org.navsession.Session1.UndoCloseWindow", "''")
    match = re.fullmatch(r"\(objectpath '(/org/navsession/Session1/window/\d+)',\)", reply)
    assert match, reply
    assert session.window(match.group(1)).scene == "main"
    assert groups(session) == [("main", "work"), ("waiting", "work")]
