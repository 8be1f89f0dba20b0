"""Session.follow_windows: windows open and close through the ObjectManager; their signals and properties work
even when the follower started before the daemon (a renderer started first)."""

from gi.repository import GLib

import navsession
from navsession.testing import TestDaemon


def iterate_until(condition, seconds=10):
    context = GLib.MainContext.default()
    expired = []
    source = GLib.timeout_add(int(seconds * 1000), lambda: expired.append(True) or False)
    while not condition() and not expired:
        context.iteration(True)
    if not expired:
        GLib.source_remove(source)
    return condition()


def test_windows_are_added_and_removed_as_they_open_and_close(navsession_session, navsession_daemon):
    added, removed = [], []
    stop = navsession_session.follow_windows(added.append, removed.append)
    with navsession.connect(navsession_daemon.address, start=False) as driver:
        window = driver.open_window("main")
        assert iterate_until(lambda: [w.path for w in added] == [window.path])
        window.close()
        assert iterate_until(lambda: removed == [window.path])
    stop()


def test_a_follower_started_before_the_daemon_sees_changes_and_properties(navsession_bus):
    follower = navsession.connect(navsession_bus.address, start=False)
    added = []
    follower.follow_windows(added.append, lambda path: None)
    with TestDaemon(navsession_bus.address) as daemon, navsession.connect(daemon.address, start=False) as driver:
        window = driver.open_window("main")
        assert iterate_until(lambda: len(added) == 1)
        followed = added[0]
        changes = followed.changes(timeout=10)
        version = window.switch_model("main")
        assert next(changes).version == version
        followed.wait_for(version=version, screen="home")
    follower.close()
