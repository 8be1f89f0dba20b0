"""Unit tests of the renderer-state keeper (no display needed)."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from navrenderer.renderer_state import RendererStateKeeper, only_renderer_state  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
