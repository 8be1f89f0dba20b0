"""Saves a GTK window as a PNG with GTK's own renderer: Gtk.WidgetPaintable → Gtk.Snapshot → render
node → Gsk.Renderer.render_texture → Gdk.Texture.save_to_png.  No X tools, works under Xvfb.

The binding's test probe has the one implementation (``navsession.gtk.probe``: applications' tests take pictures
with its ``Screenshot`` too): ``save_png`` draws the window — through ctypes where PyGObject before 3.44 (Debian 12
has 3.42) cannot carry a GskRenderNode — and ``when_still`` waits until the window has stopped moving (mapped at its
size, no transition or reveal running, its version reported settled) and a frame has been painted since.
"""

from __future__ import annotations

from navsession.gtk.probe import ScreenshotError, save_png, still, when_still

__all__ = ["ScreenshotError", "save_png", "still", "when_still"]
