"""An app flow tested against a real NavSession daemon: log in, follow a deep link, dismiss a sheet.

The fixtures come from the navsession package's pytest plugin (python/ in this repository): each test gets a
private dbus-daemon and `navsessiond --ephemeral` serving the demo, torn down afterwards.
"""

import pytest

from navsession import commands as c
from navsession.errors import VersionMismatch


def test_log_in_deep_link_and_dismiss(navsession_session):
    window = navsession_session.open_window("main")
    changes = window.changes(timeout=10)
    assert window.active_screen == "login"

    # Log in: the switched root shows the main state.
    window.switch_model("main")
    assert window.active_screen == "home"
    assert window.can_go_back is False

    # A deep link into the detail screen with its editor sheet lands in the same window.
    assert navsession_session.open_url("navsession-demo://detail/42/edit") is window
    window.wait_for(screen="editor")
    assert window.pending_deep_link == ""
    assert window.can_dismiss is True

    # Dismiss the sheet: back on the detail screen, which can go back to home.
    dismissed = window.dismiss()
    assert window.active_screen == "detail"
    assert window.can_go_back is True

    # Every change was signalled once, gap-free, each naming its predecessor (a gap would be a Resync).
    seen = []
    for change in changes:
        seen.append(change)
        if change.version == dismissed:
            break
    assert [change.version for change in seen] == list(range(seen[0].version, dismissed + 1))
    assert all(change.previous_version == change.version - 1 for change in seen)
    assert window.state()["version"] == dismissed


def test_a_stale_renderer_report_is_refused(navsession_window):
    version = navsession_window.switch_model("main")
    batch = [c.push("about")]
    with pytest.raises(VersionMismatch):
        navsession_window.apply(batch, expected_version=version - 1)
    applied, started = navsession_window.apply(batch, expected_version=version)
    assert applied == version + 1 and len(started) == 1


def test_a_guarded_screen_waits_for_log_in(navsession_window):
    """The demo's account screen requires the main state: entered logged out, the change is redirected to a fresh
    login and waits (PendingNavigation); logging in completes it as a change of its own (Docs/guards.md)."""
    window = navsession_window
    changes = window.changes(timeout=10)
    window.push("account")
    assert "redirected" in next(changes).cause
    assert window.active_screen == "login"
    assert window.pending_navigation["screen"] == "account"
    assert window.pending_navigation["state"] == "main"

    resumed = window.switch_model("main")  # the log-in, then the resumed navigation: a change of its own
    assert "resumed" in next(change for change in changes if change.version == resumed).cause
    assert window.active_screen == "account"
    assert window.pending_navigation is None
