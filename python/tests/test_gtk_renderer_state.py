"""Unit tests of the renderer-state keeper of navsession.gtk (no display needed)."""

from __future__ import annotations

import unittest

import pytest

try:  # the binding needs GTK 4 for Python; these tests need no display
    import navsession.gtk  # noqa: F401
except (ImportError, ValueError) as error:
    pytest.skip(f"navsession.gtk needs PyGObject with GTK 4: {error}", allow_module_level=True)

from navsession.gtk.renderer_state import RendererStateKeeper, only_renderer_state  # noqa: E402


class RendererStateTests(unittest.TestCase):
    def test_a_change_of_only_renderer_state_steps_is_recognised(self) -> None:
        self.assertTrue(only_renderer_state('[{"kind":"rendererState","model":0,"state":{"width":900}}]'))
        self.assertFalse(only_renderer_state('[{"kind":"rendererState","model":0,"state":{}},{"kind":"push","stack":2,"models":[5]}]'))
        self.assertFalse(only_renderer_state("[]"))
        self.assertFalse(only_renderer_state("not json"))

    def test_the_whole_object_is_sent_once_and_only_when_it_differs(self) -> None:
        sent: list[tuple[int, str]] = []
        keeper = RendererStateKeeper(lambda model, text: sent.append((model, text)))
        keeper.seed({"rendererState": {"width": 900}, "models": [{"id": 7, "rendererState": {"scroll": 300}}]})
        self.assertEqual(keeper.get(7, "scroll"), 300)
        keeper.set(7, "scroll", 300)  # what the daemon holds: nothing to send
        self.assertEqual(keeper.local, {})
        keeper.set(7, "draft", "Dear Ann,")
        keeper._flush(7)  # what the debounce timer does
        keeper.stop()
        self.assertEqual(sent, [(7, '{"draft":"Dear Ann,","scroll":300}')])

    def test_models_gone_from_the_state_are_forgotten(self) -> None:
        keeper = RendererStateKeeper(lambda model, text: None)
        keeper.set(9, "scroll", 10)
        keeper.seed({"models": [{"id": 1}]})
        keeper.stop()
        self.assertNotIn(9, keeper.local)

    def test_a_pages_whole_object_is_made_once_when_the_changes_pause_and_replaces_the_kept_one(self) -> None:
        sent: list[tuple[int, str]] = []
        made: list[int] = []
        keeper = RendererStateKeeper(lambda model, text: sent.append((model, text)))
        keeper.seed({"models": [{"id": 7, "rendererState": {"scroll": 300, "draft": "Dear"}}]})
        self.assertEqual(keeper.object(7), {"draft": "Dear", "scroll": 300})

        def make() -> dict:
            made.append(1)
            return {"draft": "Dear Ann,", "scroll": None, "selection": 2}

        for _ in range(3):  # three keystrokes: one object made when the debounce expires
            keeper.produce(7, make)
        keeper._flush(7)
        keeper.stop()
        self.assertEqual(made, [1])
        self.assertEqual(sent, [(7, '{"draft":"Dear Ann,","selection":2}')])  # the kept scroll went: replaced

    def test_an_unchanged_or_failing_page_state_sends_nothing(self) -> None:
        sent: list[tuple[int, str]] = []
        keeper = RendererStateKeeper(lambda model, text: sent.append((model, text)))
        keeper.seed({"models": [{"id": 7, "rendererState": {"scroll": 300}}]})
        keeper.produce(7, lambda: {"scroll": 300})
        keeper._flush(7)

        def broken() -> dict:
            raise RuntimeError("the page closed")

        keeper.produce(7, broken)
        keeper._flush(7)
        keeper.stop()
        self.assertEqual(sent, [])


if __name__ == "__main__":
    unittest.main()
