"""Unit tests of the back swipe's two phases (navsession/gtk/swipe.py; no display, no daemon needed)."""

from __future__ import annotations

import unittest
from typing import Any, Callable, Optional

import pytest

try:  # the binding needs GTK 4 for Python; these tests need no display
    import navsession.gtk  # noqa: F401
except (ImportError, ValueError) as error:
    pytest.skip(f"navsession.gtk needs PyGObject with GTK 4: {error}", allow_module_level=True)

from navsession.gtk.swipe import (  # noqa: E402
    ASKING, EDGE_PX, FOLLOWING, IDLE, REFUSED, TRACKING, BackSwipe,
)


class FakeWindow:
    """Stands for the reporter and the view: BeginBack answers are held until the test gives them."""

    def __init__(self, width: float = 600.0, version: Optional[int] = 5) -> None:
        self.width = width
        self.version = version
        self.asked: list[tuple[Callable[[int, list], None], Callable[[Any], None]]] = []
        self.commits: list[int] = []
        self.offsets: list[float] = []
        self.swipe = BackSwipe(lambda allowed, refused: self.asked.append((allowed, refused)), self.commits.append,
                               lambda: self.width, lambda: self.version, self.changed)
        self.outcomes: list[str] = []

    def changed(self) -> None:
        self.offsets.append(self.swipe.offset)

    def allow(self, version: Optional[int] = None) -> None:
        allowed, _ = self.asked.pop(0)
        allowed(self.version if version is None else version, [12])

    def refuse(self) -> None:
        _, refused = self.asked.pop(0)
        refused(RuntimeError("org.navsession.Error.Denied"))


class BackSwipeTests(unittest.TestCase):
    def test_an_allowed_swipe_follows_the_finger_and_commits_past_a_third(self) -> None:
        w = FakeWindow()
        w.swipe.when_done(w.outcomes.append)
        self.assertTrue(w.swipe.begin(4, 100))
        self.assertEqual(w.swipe.state, TRACKING)
        self.assertIsNone(w.swipe.update(3, 0))  # not far enough yet
        self.assertTrue(w.swipe.update(30, 2))  # a swipe: BeginBack asked, the page stays until it answers
        self.assertEqual((w.swipe.state, w.swipe.offset, len(w.asked)), (ASKING, 0.0, 1))
        w.swipe.update(60, 2)
        self.assertEqual(w.swipe.offset, 0.0)
        w.allow()
        self.assertEqual((w.swipe.state, w.swipe.offset, w.swipe.finished), (FOLLOWING, 60.0, [12]))
        w.swipe.update(250, 5)
        self.assertEqual(w.swipe.offset, 250.0)
        w.swipe.end(250, 5)
        self.assertEqual((w.swipe.state, w.swipe.offset, w.commits, w.outcomes), (IDLE, 0.0, [5], ["committed"]))

    def test_an_allowed_swipe_let_go_short_of_a_third_puts_the_page_back_without_a_call(self) -> None:
        w = FakeWindow()
        w.swipe.when_done(w.outcomes.append)
        w.swipe.begin(0, 0)
        w.swipe.update(20, 0)
        w.allow()
        w.swipe.update(150, 0)
        self.assertEqual(w.swipe.offset, 150.0)
        w.swipe.end(150, 0)
        self.assertEqual((w.swipe.state, w.swipe.offset, w.commits, w.outcomes), (IDLE, 0.0, [], ["cancelled"]))

    def test_a_refused_swipe_never_moves_the_page(self) -> None:
        w = FakeWindow()
        w.swipe.when_done(w.outcomes.append)
        w.swipe.begin(10, 0)
        w.swipe.update(40, 0)
        w.refuse()
        self.assertEqual(w.swipe.state, REFUSED)
        w.swipe.update(400, 0)
        w.swipe.end(400, 0)
        self.assertEqual((w.swipe.state, w.commits, w.outcomes), (IDLE, [], ["refused"]))
        self.assertEqual(set(w.offsets), {0.0})

    def test_let_go_before_the_answer_the_answer_decides(self) -> None:
        w = FakeWindow()
        w.swipe.when_done(w.outcomes.append)
        w.swipe.begin(2, 0)
        w.swipe.update(400, 0)
        w.swipe.end(400, 0)
        self.assertEqual(w.swipe.state, ASKING)
        w.allow()
        self.assertEqual((w.commits, w.outcomes), ([5], ["committed"]))
        self.assertEqual(set(w.offsets), {0.0})

        w.swipe.when_done(w.outcomes.append)
        w.swipe.begin(2, 0)
        w.swipe.update(400, 0)
        w.swipe.end(400, 0)
        w.refuse()
        self.assertEqual((w.commits, w.outcomes[-1], w.swipe.state), ([5], "refused", IDLE))

    def test_a_press_away_from_the_edge_a_left_or_vertical_drag_is_no_swipe(self) -> None:
        w = FakeWindow()
        self.assertFalse(w.swipe.begin(EDGE_PX + 1, 0))
        self.assertTrue(w.swipe.begin(1, 0))
        self.assertFalse(w.swipe.update(-10, 0))
        self.assertTrue(w.swipe.begin(1, 0))
        self.assertFalse(w.swipe.update(5, 30))
        self.assertEqual((w.swipe.state, w.asked), (IDLE, []))
        w.version = None  # nothing shown, or a modal window on top
        self.assertFalse(w.swipe.begin(1, 0))

    def test_an_answer_for_another_version_or_a_cancelled_drag_moves_nothing(self) -> None:
        w = FakeWindow()
        w.swipe.when_done(w.outcomes.append)
        w.swipe.begin(1, 0)
        w.swipe.update(50, 0)
        w.allow(version=6)  # the daemon moved on since the screen was drawn
        self.assertEqual((w.swipe.state, w.commits, w.outcomes), (IDLE, [], ["cancelled"]))

        w.swipe.begin(1, 0)
        w.swipe.update(50, 0)
        w.swipe.cancel()
        w.allow()  # too late: ignored
        self.assertEqual((w.swipe.state, w.swipe.offset, w.commits), (IDLE, 0.0, []))

    def test_the_offset_stays_within_the_width(self) -> None:
        w = FakeWindow(width=300)
        w.swipe.begin(1, 0)
        w.swipe.update(50, 0)
        w.allow()
        w.swipe.update(900, 0)
        self.assertEqual(w.swipe.offset, 300.0)
        w.swipe.update(-40, 0)
        self.assertEqual(w.swipe.offset, 0.0)


if __name__ == "__main__":
    unittest.main()
