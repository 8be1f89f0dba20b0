"""An app flow tested against a real NavSession daemon: log in, follow a deep link, dismiss a sheet."""

import json


def test_log_in_deep_link_and_dismiss(navsession):
    (window,) = navsession.session("OpenWindow", "(sa{ss})", ("main", {}), "(o)")
    changes = navsession.changes(window)
    assert navsession.prop(window, "ActiveScreen") == "login"

    # Log in: the switched root shows the main state.
    (version,) = navsession.window(window, "SwitchModel", "(sa{ss})", ("main", {}), "(t)")
    changes.wait_for_version(version)
    assert navsession.prop(window, "ActiveScreen") == "home"
    assert navsession.prop(window, "CanGoBack") is False

    # A deep link into the detail screen with its editor sheet lands in the same window.
    (handled,) = navsession.session("OpenURL", "(s)", ("navsession-demo://detail/42/edit",), "(o)")
    assert handled == window
    assert navsession.prop(window, "PendingDeepLink") == ""
    linked = navsession.prop(window, "Version")
    changes.wait_for_version(linked)
    assert navsession.prop(window, "ActiveScreen") == "editor"
    assert navsession.prop(window, "CanDismiss") is True

    # Dismiss the sheet: back on the detail screen, which can go back to home.
    (dismissed,) = navsession.window(window, "Dismiss", reply="(t)")
    seen = changes.wait_for_version(dismissed)
    assert navsession.prop(window, "ActiveScreen") == "detail"
    assert navsession.prop(window, "CanGoBack") is True

    # Every change was signalled once, gap-free, each naming its predecessor.
    versions = [v for v, _, _ in seen]
    assert versions == list(range(versions[0], dismissed + 1))
    assert all(previous == v - 1 for v, previous, _ in seen)
    (state,) = navsession.window(window, "GetState", reply="(s)")
    assert json.loads(state)["version"] == dismissed
    changes.close()


def test_a_stale_renderer_report_is_refused(navsession):
    (window,) = navsession.session("OpenWindow", "(sa{ss})", ("main", {}), "(o)")
    (version,) = navsession.window(window, "SwitchModel", "(sa{ss})", ("main", {}), "(t)")
    batch = json.dumps([{"command": "stackAppend", "models": [{"screen": "about"}]}])
    try:
        navsession.window(window, "Apply", "(sa{ss})", (batch, {"expected_version": str(version - 1)}), "(tat)")
    except Exception as error:  # GLib.Error carries the D-Bus error name
        assert "org.navsession.Error.VersionMismatch" in str(error)
    else:
        raise AssertionError("a stale expected_version was applied")
    (applied, started) = navsession.window(
        window, "Apply", "(sa{ss})", (batch, {"expected_version": str(version)}), "(tat)")
    assert applied == version + 1 and len(started) == 1


def test_a_guarded_screen_waits_for_log_in(navsession):
    """The demo's account screen requires the main state: entered logged out, the change is redirected to a fresh
    login and waits (PendingNavigation); logging in completes it as a change of its own (Docs/guards.md)."""
    (window,) = navsession.session("OpenWindow", "(sa{ss})", ("main", {}), "(o)")
    changes = navsession.changes(window)
    (redirected,) = navsession.window(window, "StackAppend", "(sa{ss})", ("account", {}), "(t)")
    seen = changes.wait_for_version(redirected)
    assert "redirected" in json.loads(seen[-1][2])
    assert navsession.prop(window, "ActiveScreen") == "login"
    pending = json.loads(navsession.prop(window, "PendingNavigation"))
    assert pending["screen"] == "account" and pending["state"] == "main"

    (version,) = navsession.window(window, "SwitchModel", "(sa{ss})", ("main", {}), "(t)")
    seen = changes.wait_for_version(version)
    assert "resumed" in json.loads(seen[-1][2])
    assert navsession.prop(window, "ActiveScreen") == "account"
    assert navsession.prop(window, "PendingNavigation") == ""
    changes.close()
