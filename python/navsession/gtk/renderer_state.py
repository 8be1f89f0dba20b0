"""What the binding keeps in the daemon (Window1.SetRendererState; Docs/renderers.md, "Renderer state"): the
window's size in the window's own state (model 0), and in each screen's model what its page saves
(:meth:`navsession.gtk.Page.save_state`: by default its scroll positions, text drafts and selections).

The daemon keeps the objects with the graph — persisted, returned by GetState, dropped with their model — and
never reads them. Writes are debounced (``SAVE_MS``), send the whole object (SetRendererState replaces it) and only
when it differs from what the daemon holds; a change whose steps are all ``rendererState`` is not rendered again
(app.py), so saving never makes the renderer redraw and saving again.

Two ways to change an object: :meth:`RendererStateKeeper.set` changes one key (the window's ``width`` and
``height``), :meth:`RendererStateKeeper.produce` says that a page's whole object changed and hands over a function
that makes it — called once, when the debounce expires, so a page is asked for its state once per pause in the
user's typing or scrolling, not once per keystroke.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable

from gi.repository import GLib

log = logging.getLogger("navsession.gtk.state")

SAVE_MS = 300
WINDOW = 0  # SetRendererState's model for the window itself


class RendererStateKeeper:
    """One window's renderer states: the daemon's (from GetState) with the local changes laid over them."""

    def __init__(self, send: Callable[[int, str], None]) -> None:
        self._send = send
        self.saved: dict[int, dict[str, Any]] = {}  # what the daemon holds, by model (0: the window)
        self.local: dict[int, dict[str, Any]] = {}  # changes not sent yet
        self.producers: dict[int, Callable[[], dict[str, Any] | None]] = {}  # whole objects to make at the next flush
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
        for model_id in [m for m in self.producers if m not in alive]:
            self.producers.pop(model_id, None)

    def object(self, model_id: int) -> dict[str, Any]:
        """A copy of the whole object of ``model_id`` as the daemon holds it, with the pending key changes over it."""
        merged = dict(self.saved.get(model_id, {}))
        for key, value in self.local.get(model_id, {}).items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        return merged

    def get(self, model_id: int, key: str, default: Any = None) -> Any:
        """The current value of ``key`` for ``model_id``: a pending local change, else the daemon's."""
        local = self.local.get(model_id, {})
        return local[key] if key in local else self.saved.get(model_id, {}).get(key, default)

    def set(self, model_id: int, key: str, value: Any) -> None:
        """Records ``key`` = ``value`` (``None`` removes it) and saves the object after ``SAVE_MS`` of quiet."""
        if self.get(model_id, key) == value:
            return
        self.local.setdefault(model_id, {})[key] = value
        self._later(model_id)

    def produce(self, model_id: int, make: Callable[[], dict[str, Any] | None]) -> None:
        """The whole object of ``model_id`` changed: ``make()`` returns it (keys whose value is ``None`` left out)
        and is called after ``SAVE_MS`` of quiet; it replaces the object (pending key changes of that model are
        dropped). ``make()`` returning ``None`` saves nothing (the page closed meanwhile)."""
        self.producers[model_id] = make
        self._later(model_id)

    def _later(self, model_id: int) -> None:
        timer = self._timers.pop(model_id, None)
        if timer is not None:
            GLib.source_remove(timer)
        self._timers[model_id] = GLib.timeout_add(SAVE_MS, self._flush, model_id)

    def _flush(self, model_id: int) -> bool:
        self._timers.pop(model_id, None)
        make = self.producers.pop(model_id, None)
        if make is not None:
            self.local.pop(model_id, None)
            try:
                made = make()
            except Exception:  # a page's save_state failed: keep what the daemon holds
                log.exception("saving the renderer state of model %d failed", model_id)
                return GLib.SOURCE_REMOVE
            if made is None:
                return GLib.SOURCE_REMOVE
            merged = {str(k): v for k, v in made.items() if v is not None}
        else:
            merged = self.object(model_id)
            self.local.pop(model_id, None)
        if merged != self.saved.get(model_id, {}):
            try:
                text = json.dumps(merged, sort_keys=True, separators=(",", ":"))
            except (TypeError, ValueError) as error:  # a value JSON cannot carry
                log.warning("the renderer state of model %d is not JSON (%s); not saved", model_id, error)
                return GLib.SOURCE_REMOVE
            self.saved[model_id] = merged
            self._send(model_id, text)
        return GLib.SOURCE_REMOVE

    def stop(self) -> None:
        for timer in self._timers.values():
            GLib.source_remove(timer)
        self._timers.clear()
        self.producers.clear()


def only_renderer_state(steps_json: str) -> bool:
    """Whether a Changed carries nothing but ``rendererState`` steps (nothing to redraw)."""
    try:
        steps = json.loads(steps_json)
    except (ValueError, TypeError):
        return False
    return (isinstance(steps, list) and bool(steps)
            and all(isinstance(s, dict) and s.get("kind") == "rendererState" for s in steps))
