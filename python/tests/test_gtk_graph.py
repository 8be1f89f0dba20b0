"""Unit tests of navsession.gtk.graph's reading of a snapshot (no display needed)."""

from __future__ import annotations

import pytest

try:  # the binding needs GTK 4 for Python; these tests need no display
    import navsession.gtk  # noqa: F401
except (ImportError, ValueError) as error:
    pytest.skip(f"navsession.gtk needs PyGObject with GTK 4: {error}", allow_module_level=True)

from navsession.gtk.graph import Graph  # noqa: E402


def snapshot(selected: int) -> Graph:
    """Tabs → (a split of two stacks, whose second pushed a screen) and a plain stack."""
    return Graph.from_state({"version": 3, "root": 1, "models": [
        {"id": 1, "kind": "tabs", "selectedTab": "notes",
         "tabs": [{"id": "notes", "model": 2}, {"id": "search", "model": 8}]},
        {"id": 2, "kind": "custom", "customKind": "split", "parent": 1, "selected": selected, "children": [3, 5]},
        {"id": 3, "kind": "stack", "parent": 2, "path": [{"model": 4}]},
        {"id": 4, "kind": "screen", "screen": "notebooks", "parent": 3},
        {"id": 5, "kind": "stack", "parent": 2, "path": [{"model": 6}, {"model": 7}]},
        {"id": 6, "kind": "screen", "screen": "notes", "parent": 5},
        {"id": 7, "kind": "screen", "screen": "note", "parent": 5},
        {"id": 8, "kind": "stack", "parent": 1, "path": [{"model": 9}]},
        {"id": 9, "kind": "screen", "screen": "search", "parent": 8}]})


def test_the_focused_leaf_follows_a_custom_containers_selected_child() -> None:
    assert snapshot(1).visible_leaf(1) == 2  # the container itself: what the window's chrome reads
    assert snapshot(1).focused_leaf(1) == 7  # the focused column's top screen: what the user looks at
    assert snapshot(0).focused_leaf(1) == 4
    assert snapshot(1).focused_leaf(8) == 9  # without a custom container: the visible leaf
    assert snapshot(5).focused_leaf(1) == 7  # a selection out of range: the last child


def test_a_model_without_a_title_shows_its_screens_title_from_the_manifest():
    from navsession.gtk.graph import Graph
    state = {"version": 1, "root": 1, "models": [
        {"id": 1, "kind": "stack", "screen": "stack", "path": [{"model": 2}], "attachment": {"type": "root"}},
        {"id": 2, "kind": "screen", "screen": "compose", "parent": 1, "attachment": {"type": "path", "index": 0}}]}
    assert Graph.from_state(state).screen_title(2) == "Compose"
    assert Graph.from_state(state, {"compose": "New Note"}).screen_title(2) == "New Note"


def test_the_session_lists_the_manifests_screen_titles(navsession_session):
    titles = navsession_session.screen_titles
    assert titles["detail"] == "Detail" and "stack" not in titles
