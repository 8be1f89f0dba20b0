"""Session and Window proxies: cached properties kept current, typed methods."""

import navsession
from navsession import commands as c
from navsession.specs import Route


def test_session_properties_come_from_the_daemon(navsession_session):
    assert navsession_session.application_id == "org.navsession.Demo"
    assert "main" in navsession_session.scenes
    assert navsession_session.restore_reason in {"pristine", "launch", "recover", "restore"}


def test_open_window_returns_a_window_whose_properties_are_loaded(navsession_session):
    window = navsession_session.open_window("main")
    assert window.scene == "main" and window.active_screen == "login" and window.version == 0
    assert navsession_session.windows() == [window]


def test_a_method_returns_the_new_version_and_the_cached_properties_already_show_it(navsession_window):
    navsession_window.switch_model("main")
    version = navsession_window.push("detail", {"id": "7"})
    assert navsession_window.version == version
    assert navsession_window.active_screen == "detail"
    assert navsession_window.can_go_back is True and navsession_window.can_pop is True
    assert navsession_window.current_routes == [Route("push", "detail", {"id": "7"})]
    assert navsession_window.routes() == navsession_window.current_routes


def test_pop_to_goes_back_to_the_screen_with_merged_params_or_replaces_the_top(navsession_window):
    navsession_window.switch_model("main")
    navsession_window.push("detail", {"id": "7", "edit": "1"})
    navsession_window.push("about")
    navsession_window.pop_to("detail", {"id": "8"}, merge=True)
    assert navsession_window.current_routes == [Route("push", "detail", {"id": "8", "edit": "1"})]
    navsession_window.pop_to("about")
    assert navsession_window.current_routes == [Route("push", "about")]


def test_replace_puts_a_new_element_in_place_of_the_top(navsession_window):
    # Window.replace and commands.replace come from the contract and the command declarations (generated).
    navsession_window.switch_model("main")
    navsession_window.push("detail", {"id": "1"})
    before = navsession_window.active_model
    navsession_window.replace("detail", {"id": "2"})
    assert navsession_window.current_routes == [Route("push", "detail", {"id": "2"})]
    assert navsession_window.active_model != before
    navsession_window.apply([c.replace("about", transition="fade")])
    assert navsession_window.current_routes == [Route("push", "about")]


def test_pop_at_removes_the_source_and_keeps_the_routes_above(navsession_window):
    navsession_window.switch_model("main")
    navsession_window.push("detail", {"id": "1"})
    navsession_window.push("about")
    detail = [m for m in navsession_window.state()["models"] if m.get("screen") == "detail"][0]["id"]
    navsession_window.pop_at(detail)
    assert navsession_window.current_routes == [Route("push", "about")]


def test_push_params_then_go_back_restores_the_earlier_params(navsession_window):
    navsession_window.switch_model("main")
    navsession_window.push("detail", {"id": "1"})
    navsession_window.push_params(0, {"id": "2"})
    assert navsession_window.current_routes == [Route("push", "detail", {"id": "2"})]
    navsession_window.go_back()
    assert navsession_window.current_routes == [Route("push", "detail", {"id": "1"})]
    assert navsession_window.can_go_back is True


def test_another_clients_change_reaches_the_cached_properties(navsession_window, navsession_daemon):
    with navsession.connect(navsession_daemon.address, start=False) as second:
        second.window(navsession_window.path).switch_model("main")
    navsession_window.wait_for(screen="home")
    assert navsession_window.selected_tab == "home"


def test_go_back_and_go_forward_move_through_the_forward_list(navsession_window):
    navsession_window.switch_model("main")
    navsession_window.push("about")
    navsession_window.go_back()
    assert navsession_window.can_go_forward is True
    navsession_window.go_forward()
    assert navsession_window.active_screen == "about" and navsession_window.can_go_forward is False


def test_apply_returns_the_version_and_the_created_model_ids(navsession_window):
    before = navsession_window.version
    version, started = navsession_window.apply([c.switch_model("main"), c.push("about")],
                                                expected_version=before)
    assert version == before + 1 and len(started) >= 2
    assert navsession_window.active_model == started[-1]


def test_set_params_updates_the_model_in_place(navsession_window):
    navsession_window.switch_model("main")
    navsession_window.push("detail", {"id": "1"})
    model = navsession_window.active_model
    navsession_window.set_params(model, {"id": "2"})
    assert navsession_window.active_model == model
    assert navsession_window.current_routes[-1].params == {"id": "2"}


def test_state_is_the_window_snapshot(navsession_window):
    state = navsession_window.state()
    assert state["format"] == "navsession.window" and state["version"] == navsession_window.version


def test_closing_a_window_marks_it_closed(navsession_session, navsession_window):
    navsession_window.close()
    assert navsession_window.closed and navsession_session.windows() == []


def test_the_sessions_apply_applies_a_batch_to_a_window(navsession_session, navsession_window):
    version = navsession_session.apply(navsession_window, [c.switch_model("main"), c.push("about")])
    assert navsession_window.version == version and navsession_window.active_screen == "about"
