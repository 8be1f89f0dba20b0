"""The one place that reads Window1.Changed's ``steps_json``.

Steps are derived from the graph change (Docs/dbus-api.md, "Steps"): a JSON array of objects with a
``"kind"`` — push, pop, replacePath, present, dismiss, selectTab, selectChild, columnVisibility, collapse, expand, switch,
replaceRoot, update, appearance, tabBarRule, rendererState — plus model ids (rendererState changes nothing shown: app.py skips it; appearance and tabBarRule change chrome only: the tab bar's reveal is
their action).  The renderer never
trusts steps for *what* to show — it always renders the final state from GetState — only for *how*
to get there.  Adapting to a new wire form means editing :func:`parse_steps` and ``TRANSITIONS``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# What each step kind animates.  Stack kinds map to Gtk.StackTransitionType names; "modal" kinds are
# carried out by opening or closing a modal window; "tab" by the tab switcher's stack.
TRANSITIONS: dict[str, str] = {
    "push": "SLIDE_LEFT",
    "pop": "SLIDE_RIGHT",
    "selectTab": "CROSSFADE",
    "selectChild": "CROSSFADE",
    "columnVisibility": "CROSSFADE",
    "collapse": "CROSSFADE",
    "expand": "CROSSFADE",
    "switch": "CROSSFADE",
    "replacePath": "CROSSFADE",
    "replaceRoot": "CROSSFADE",
    "present": "OPEN_MODAL",
    "dismiss": "CLOSE_MODAL",
}


@dataclass(frozen=True)
class Step:
    """One renderer step: its kind and every model id it names (any integer-valued key)."""

    kind: str
    ids: frozenset[int] = field(default_factory=frozenset)

    @property
    def transition(self) -> str | None:
        return TRANSITIONS.get(self.kind)


@dataclass(frozen=True)
class Plan:
    """How to animate one change.

    ``animate`` false: show the final state at once.  ``steps`` empty with ``animate`` true: a
    single-step change (the daemon sends ``[]``), animated from the difference between the states.
    """

    animate: bool
    steps: tuple[Step, ...] = ()


def _ids(value: Any) -> set[int]:
    """Every integer inside ``value`` (model ids may be plain, in lists or nested objects)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, list):
        return set().union(*(_ids(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(_ids(v) for k, v in value.items() if k != "kind")) if value else set()
    return set()


def parse_steps(steps_json: str, animated: bool) -> Plan:
    """Maps ``steps_json`` to a :class:`Plan`, defensively.

    - ``[]``: one step; animate the difference (when the change is ``animated``).
    - an array of objects that all have a string ``"kind"``: those steps, in order.
    - anything else (the old form — an array of route arrays —, bad JSON, unknown shapes): no animation.
    """
    if not animated:
        return Plan(animate=False)
    try:
        steps = json.loads(steps_json)
    except (ValueError, TypeError):
        return Plan(animate=False)
    if not isinstance(steps, list):
        return Plan(animate=False)
    if not steps:
        return Plan(animate=True)
    if not all(isinstance(s, dict) and isinstance(s.get("kind"), str) for s in steps):
        return Plan(animate=False)
    return Plan(animate=True, steps=tuple(Step(s["kind"], frozenset(_ids(s))) for s in steps))
