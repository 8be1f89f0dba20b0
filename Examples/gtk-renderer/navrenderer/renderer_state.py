"""What this renderer keeps in the daemon (Window1.SetRendererState; Docs/renderers.md,
"Renderer state"): the window's size in the window's own state (model 0), each screen's scroll position and the
editor's draft text in the screen's model.

The daemon keeps the objects with the graph — persisted, returned by GetState, dropped with their model — and
never reads them. Writes are debounced (``SAVE_MS``), send the whole object (SetRendererState replaces it) and only
when it differs from what the daemon holds; a change whose steps are all ``rendererState`` is not rendered again
(app.py), so saving never makes the renderer redraw and saving again.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable

from gi.repository import GLib

log = logging.getLogger("gtk-renderer.state")

SAVE_MS = 300
WINDOW = 0  # SetRendererState's model for the window itself


class RendererStateKeeper:
    """One window's renderer states: the daemon's (from GetState) with the local changes laid over them."""

    def __init__(self, send: Callable[[int, str], None]) -> None:
        self._send = send
        self.saved: dict[int, dict[str, Any]] = {}  # what the daemon holds, by model (0: the window)
        self.local: dict[int, dict[str, Any]] = {}  # changes not sent yet
        self._timers: dict[int, int] = {}

    def seed(self, state: dict[str, Any]) -> None:
        """Takes the daemon's objects from a GetState snapshot (models gone from it are forgotten)."""
        saved = {WINDOW: dict(state.get("rendererState") or {})}
        for model in state.get("models", []):
            if model.get("rendererState"):
                saved[int(model["id"])] = dict(model["rendererState"])
        self.saved = saved
        alive = {int(m["id"]) for m in state.get("models", [])} | {WINDOW}
        for model_id in [m for m in self.local if m not in alive]:
            self.local.pop(model_id, None)

    def get(self, model_id: int, key: str, default: Any = None) -> Any:
        """The current value of ``key`` for ``model_id``: a pending local change, else the daemon's."""
        local = self.local.get(model_id, {})
        return local[key] if key in local else self.saved.get(model_id, {}).get(key, default)

    def set(self, model_id: int, key: str, value: Any) -> None:
        """Records ``key`` = ``value`` (``None`` removes it) and saves the object after ``SAVE_MS`` of quiet."""
        if self.get(model_id, key) == value:
            return
        self.local.setdefault(model_id, {})[key] = value
        timer = self._timers.pop(model_id, None)
        if timer is not None:
            GLib.source_remove(timer)
        self._timers[model_id] = GLib.timeout_add(SAVE_MS, self._flush, model_id)

    def _flush(self, model_id: int) -> bool:
        self._timers.pop(model_id, None)
        changes = self.local.pop(model_id, {})
        merged = dict(self.saved.get(model_id, {}))
        for key, value in changes.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        if merged != self.saved.get(model_id, {}):
            self.saved[model_id] = merged
            self._send(model_id, json.dumps(merged, sort_keys=True, separators=(",", ":")))
        return GLib.SOURCE_REMOVE

    def stop(self) -> None:
        for timer in self._timers.values():
            GLib.source_remove(timer)
        self._timers.clear()


def only_renderer_state(steps_json: str) -> bool:
    """Whether a Changed carries nothing but ``rendererState`` steps (nothing to redraw)."""
    try:
        steps = json.loads(steps_json)
    except (ValueError, TypeError):
        return False
    return (isinstance(steps, list) and bool(steps)
            and all(isinstance(s, dict) and s.get("kind") == "rendererState" for s in steps))
