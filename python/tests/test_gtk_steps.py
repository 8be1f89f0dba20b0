"""Unit tests of the steps mapping and the animator's step order of navsession.gtk (no display needed)."""

from __future__ import annotations

import unittest

import pytest

try:  # the binding needs GTK 4 for Python; these tests need no display
    import navsession.gtk  # noqa: F401
except (ImportError, ValueError) as error:
    pytest.skip(f"navsession.gtk needs PyGObject with GTK 4: {error}", allow_module_level=True)

from gi.repository import GLib  # noqa: E402

from navsession.gtk.animator import Action, Animator  # noqa: E402
from navsession.gtk.steps import Plan, Step, parse_steps  # noqa: E402


class ParseStepsTests(unittest.TestCase):
    def test_graph_derived_steps_keep_their_order_and_model_ids(self) -> None:
        plan = parse_steps('[{"kind":"dismiss","model":14},{"kind":"selectTab","tabs":4,"tab":"settings"},'
                           '{"kind":"push","stack":7,"models":[16]}]', True)
        self.assertTrue(plan.animate)
        self.assertEqual([s.kind for s in plan.steps], ["dismiss", "selectTab", "push"])
        self.assertEqual(plan.steps[0].ids, {14})
        self.assertEqual(plan.steps[2].ids, {7, 16})
        self.assertEqual(plan.steps[2].transition, "SLIDE_LEFT")
        self.assertEqual(plan.steps[1].transition, "CROSSFADE")

    def test_custom_and_split_container_steps_crossfade(self) -> None:
        plan = parse_steps('[{"kind":"selectChild","container":1,"child":6,"previous":4},'
                           '{"kind":"columnVisibility","container":1,"visibility":"all","previous":"automatic"},'
                           '{"kind":"collapse","container":1}]', True)
        self.assertEqual([s.kind for s in plan.steps], ["selectChild", "columnVisibility", "collapse"])
        self.assertEqual(plan.steps[0].ids, {1, 6, 4})
        self.assertEqual({s.transition for s in plan.steps}, {"CROSSFADE"})

    def test_an_empty_array_is_one_animated_step(self) -> None:
        self.assertEqual(parse_steps("[]", True), Plan(animate=True))

    def test_not_animated_changes_never_animate(self) -> None:
        self.assertEqual(parse_steps('[{"kind":"push"}]', False), Plan(animate=False))

    def test_the_old_route_array_form_and_garbage_show_the_state_without_animation(self) -> None:
        old = '[[{"style":"push","screen":"detail"}],[{"style":"push","screen":"detail"},{"style":"sheet","screen":"editor"}]]'
        for text in (old, "{}", "not json", '[{"style":"push"}]', '[{"kind":3}]', "null"):
            self.assertEqual(parse_steps(text, True), Plan(animate=False), text)

    def test_unknown_kinds_are_kept_without_a_transition(self) -> None:
        plan = parse_steps('[{"kind":"teleport","model":3}]', True)
        self.assertEqual(plan.steps, (Step("teleport", frozenset({3})),))
        self.assertIsNone(plan.steps[0].transition)


class AnimatorTests(unittest.TestCase):
    def test_actions_run_in_step_order_one_step_at_a_time(self) -> None:
        ran: list[tuple[str, bool]] = []
        plan = parse_steps('[{"kind":"dismiss","model":14},{"kind":"selectTab","tabs":4},{"kind":"push","stack":7}]', True)
        animator = Animator()
        animator.run(plan, [
            Action("push", frozenset({7, 16}), lambda a: ran.append(("push", a))),
            Action("selectTab", frozenset({4}), lambda a: ran.append(("tab", a))),
            Action("dismiss", frozenset({14}), lambda a: ran.append(("dismiss", a))),
        ])
        self.assertEqual(ran, [("dismiss", True)])  # step 0 at once, the others wait for their turn
        loop = GLib.MainLoop()
        GLib.timeout_add(1000, loop.quit)
        loop.run()
        self.assertEqual(ran, [("dismiss", True), ("tab", True), ("push", True)])

    def test_a_new_render_finishes_waiting_actions_without_animation(self) -> None:
        ran: list[tuple[str, bool]] = []
        plan = parse_steps('[{"kind":"dismiss"},{"kind":"push"}]', True)
        animator = Animator()
        animator.run(plan, [Action("push", frozenset(), lambda a: ran.append(("push", a)))])
        animator.run(Plan(animate=True), [Action("pop", frozenset(), lambda a: ran.append(("pop", a)))])
        self.assertEqual(ran, [("push", False), ("pop", True)])

    def test_no_animation_runs_everything_at_once_unanimated(self) -> None:
        ran: list[bool] = []
        Animator().run(Plan(animate=False), [Action("push", frozenset(), ran.append)] * 2)
        self.assertEqual(ran, [False, False])



class GraphTests(unittest.TestCase):
    def test_presentations_in_a_kept_branch_are_not_on_screen(self) -> None:
        from navsession.gtk.graph import Graph

        state = {"version": 5, "root": 1, "models": [
            {"id": 1, "kind": "switched", "screen": "app", "attachment": {"type": "root"}, "switchedModel": 9,
             "saved": [{"screen": "main", "model": 4}]},
            {"id": 9, "kind": "screen", "screen": "login", "parent": 1, "attachment": {"type": "switched"},
             "presented": 10},
            {"id": 10, "kind": "screen", "screen": "about", "parent": 9,
             "attachment": {"type": "presented", "style": {"kind": "sheet"}}},
            {"id": 4, "kind": "screen", "screen": "main", "parent": 1, "attachment": {"type": "saved", "screen": "main"},
             "presented": 5},
            {"id": 5, "kind": "screen", "screen": "editor", "parent": 4,
             "attachment": {"type": "presented", "style": {"kind": "sheet"}}},
        ]}
        graph = Graph.from_state(state)
        self.assertEqual(list(graph.presented()), [10])
        self.assertTrue(graph.is_kept(5))
        self.assertFalse(graph.is_kept(10))


if __name__ == "__main__":
    unittest.main()
