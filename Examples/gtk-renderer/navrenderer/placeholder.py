"""The reference renderer's page for every screen: the binding's placeholder (title, screen, model id, params),
plus what the demo's flows need — enough lines on ``detail`` to scroll, and a text field on ``editor`` whose
unsaved text protects the editor.

The renderer registers no page factories: this is its ``fallback``, so every screen looks as the placeholder.
Its renderer state is the binding's default (navsession.gtk.widget_state): the page is one scrolled area and the
editor has one text field, so a screen keeps ``{"scroll": 300}`` and the editor ``{"draft": "Dear Ann,"}``.
"""

from __future__ import annotations

from typing import Any

from gi.repository import Gtk

from navsession.gtk import Placeholder


class ScreenPage(Placeholder):
    """One screen of the demo, scrollable; the editor's text field protects it while it holds text."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        widget = super().build(params, state)
        # The demo's editor: a real text field; unsaved text protects the model (Docs/guards.md).
        self.entry: Gtk.Entry | None = None
        if self.screen == "detail":
            # Enough lines to scroll: the scroll position is what the renderer keeps per screen.
            self.rows = Gtk.Label(label="\n".join(f"Line {n} of the details" for n in range(1, 61)))
            self.box.append(self.rows)
        if self.screen == "editor":
            self.entry = Gtk.Entry(placeholder_text="Type here: unsaved text protects the editor", width_chars=36)
            self.entry.connect("changed", self._text_changed)
            self.box.append(self.entry)
        return widget

    def _text_changed(self, entry: Gtk.Entry) -> None:
        """Unsaved text protects the editor with the demo's discardChanges dialog (the application's
        ``discard_dialog``); cleared text unprotects. A draft restored after a restart protects it again."""
        if entry.get_text():
            self.protect("unsaved text")
        else:
            self.unprotect()
