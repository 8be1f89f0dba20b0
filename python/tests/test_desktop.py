"""Window.undo / redo, the can_undo, can_redo, undo_label properties, and named sessions against the real daemon."""
import pytest

from navsession import errors


def test_undo_brings_a_popped_detail_back_as_itself_and_redo_pops_it_again(navsession_window):
    window = navsession_window
    window.push("detail", {"id": "42"})
    detail = window.active_model
    window.call("SetRendererState", "(ts)", (detail, '{"draft":"Dear Ann,"}'))
    window.pop()
    assert window.can_undo and not window.can_redo
    assert window.undo_label == "Undo close Detail"
    version = window.undo()
    assert window.version == version and window.active_model == detail and window.active_screen == "detail"
    restored = next(m for m in window.state()["models"] if m["id"] == detail)
    assert restored["params"] == {"id": "42"} and restored["rendererState"] == {"draft": "Dear Ann,"}
    assert window.can_redo
    window.redo()
    assert window.active_screen != "detail" and not window.can_redo


def test_a_change_after_an_undo_leaves_nothing_to_redo(navsession_window):
    window = navsession_window
    window.push("detail", {"id": "1"})
    window.undo()
    window.push("about")
    assert not window.can_redo
    with pytest.raises(errors.NavSessionError) as raised:
        window.redo()
    assert "NothingToRedo" in type(raised.value).__name__ or "NothingToRedo" in str(raised.value)


def test_a_saved_session_opens_again_with_the_same_routes(navsession_session, navsession_window):
    session, window = navsession_session, navsession_window
    window.push("detail", {"id": "7"})
    routes = [(r.style, r.screen) for r in window.routes()]
    session.save_session("work", [window])
    assert [s["name"] for s in session.sessions()] == ["work"]
    session.dismiss_window(window)
    (opened,) = session.open_session("work")
    assert opened.path != window.path
    assert [(r.style, r.screen) for r in opened.routes()] == routes
    session.delete_session("work")
    assert session.sessions() == []
