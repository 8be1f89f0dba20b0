"""Runs the visible changes of one render one step at a time.

A render collects :class:`Action` s (a stack shows another page, a tab is selected, a modal opens or
closes).  With a plan of several steps, each action waits for the step it belongs to (same kind,
shared model ids); a single-step change (plan without steps) runs them all at once, animated.  A new
render first finishes what is still waiting, without animation, so the screen is never behind.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable

from gi.repository import GLib

from .steps import Plan

STEP_MS = 260  # a little more than Gtk.Stack's default 200 ms transition

log = logging.getLogger("navsession.gtk.animator")


@dataclass
class Action:
    kind: str  # push, pop, selectTab, switch, present, dismiss (the step kinds)
    ids: frozenset[int]
    run: Callable[[bool], None] = field(repr=False)  # run(animate)


class Animator:
    def __init__(self, on_step: Callable[[], None] | None = None) -> None:
        self._on_step = on_step  # called after each step that changed the screen
        self._waiting: list[Action] = []
        self._timers: dict[int, int] = {}  # step index -> GLib source id

    def finish(self) -> None:
        """Runs every waiting action now, without animation."""
        for timer in self._timers.values():
            GLib.source_remove(timer)
        self._timers = {}
        waiting, self._waiting = self._waiting, []
        for action in waiting:
            action.run(False)

    def run(self, plan: Plan, actions: list[Action]) -> None:
        self.finish()
        if not plan.animate or not plan.steps:
            for action in actions:
                action.run(plan.animate)
            return
        later: dict[int, list[Action]] = {}
        for action in actions:
            later.setdefault(self._step_index(plan, action), []).append(action)
        for index in sorted(later):
            if index == 0:
                for action in later[index]:
                    action.run(True)
                continue
            self._waiting.extend(later[index])
            self._timers[index] = GLib.timeout_add(index * STEP_MS, self._run_step, index, later[index])

    def _run_step(self, index: int, actions: list[Action]) -> bool:
        self._timers.pop(index, None)
        for action in actions:
            if action in self._waiting:
                self._waiting.remove(action)
                action.run(True)
        if self._on_step is not None:
            self._on_step()
        return GLib.SOURCE_REMOVE

    @staticmethod
    def _step_index(plan: Plan, action: Action) -> int:
        """The first step of the action's kind naming one of its models, else of its kind, else 0."""
        same_kind = [i for i, step in enumerate(plan.steps) if step.kind == action.kind]
        for i in same_kind:
            if plan.steps[i].ids & action.ids:
                return i
        return same_kind[0] if same_kind else 0
