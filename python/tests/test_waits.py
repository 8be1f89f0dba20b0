"""wait_for / wait_settled / when: conditions on the cached properties, no polling."""

import pytest
from gi.repository import GLib

from navsession.errors import Timeout


def test_wait_for_returns_once_another_client_reaches_the_version(navsession_window):
    target = navsession_window.version + 1
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
    navsession_window.wait_for(version=target)
    assert navsession_window.version >= target


def test_wait_for_a_screen_and_a_predicate(navsession_window):
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
    navsession_window.wait_for(lambda w: w.selected_tab == "home", screen="home")
    assert navsession_window.active_screen == "home"


def test_wait_for_raises_Timeout_naming_what_it_waited_for(navsession_window):
    with pytest.raises(Timeout) as raised:
        navsession_window.wait_for(screen="never", timeout=0.2)
    assert "screen 'never'" in raised.value.message


def test_wait_settled_returns_once_a_renderer_reports_the_version(navsession_window):
    version = navsession_window.switch_model("main")
    navsession_window.call_async("ReportSettled", "(t)", (version,))
    navsession_window.wait_settled(version)
    assert navsession_window.settled_version == version


def test_when_calls_back_from_the_main_loop_once_the_condition_holds(navsession_window):
    loop = GLib.MainLoop()
    seen = []
    navsession_window.when(lambda w: (seen.append(w.active_screen), loop.quit()), screen="home")
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
    GLib.timeout_add_seconds(10, loop.quit)
    loop.run()
    assert seen == ["home"]
