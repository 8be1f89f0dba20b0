"""Saves a GTK window as a PNG with GTK's own renderer: Gtk.WidgetPaintable → Gtk.Snapshot → render
node → Gsk.Renderer.render_texture → Gdk.Texture.save_to_png.  No X tools, works under Xvfb.

PyGObject before 3.44 (Debian 12 has 3.42) cannot carry a GskRenderNode (a fundamental type) across
Python, so the node step falls back to calling the same three GTK functions through ctypes.
"""

from __future__ import annotations

import ctypes

from gi.repository import Gdk, Graphene, Gtk


class ScreenshotError(Exception):
    pass


def save_png(window: Gtk.Window, path: str) -> None:
    width, height = window.get_width(), window.get_height()
    if width <= 0 or height <= 0:
        raise ScreenshotError("the window is not mapped yet")
    snapshot = Gtk.Snapshot()
    Gtk.WidgetPaintable.new(window).snapshot(snapshot, width, height)
    renderer = window.get_native().get_renderer()
    if not _nodes_reach_python():
        _save_with_ctypes(snapshot, renderer, width, height, path)
        return
    node = snapshot.to_node()
    if node is None:
        raise ScreenshotError("nothing drawn yet")
    texture = renderer.render_texture(node, Graphene.Rect().init(0, 0, width, height))
    if not texture.save_to_png(path):
        raise ScreenshotError(f"could not write {path}")


_probe: bool | None = None


def _nodes_reach_python() -> bool:
    """Whether this PyGObject can return a render node (tried once, on a throwaway snapshot)."""
    global _probe
    if _probe is None:
        probe = Gtk.Snapshot()
        probe.append_color(Gdk.RGBA(), Graphene.Rect().init(0, 0, 1, 1))
        try:
            probe.to_node()
            _probe = True
        except TypeError:
            _probe = False
    return _probe


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("width", ctypes.c_float), ("height", ctypes.c_float)]


def _pointer(obj: object) -> int:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return int(get(obj.__gpointer__, None))  # type: ignore[attr-defined]


def _save_with_ctypes(snapshot: Gtk.Snapshot, renderer: object, width: int, height: int, path: str) -> None:
    gtk = ctypes.CDLL("libgtk-4.so.1")
    p = ctypes.c_void_p
    gtk.gtk_snapshot_to_node.restype, gtk.gtk_snapshot_to_node.argtypes = p, [p]
    gtk.gsk_renderer_render_texture.restype = p
    gtk.gsk_renderer_render_texture.argtypes = [p, p, ctypes.POINTER(_Rect)]
    gtk.gdk_texture_save_to_png.restype, gtk.gdk_texture_save_to_png.argtypes = ctypes.c_bool, [p, ctypes.c_char_p]
    gtk.gsk_render_node_unref.argtypes = [p]
    gtk.g_object_unref.argtypes = [p]
    node = gtk.gtk_snapshot_to_node(_pointer(snapshot))
    if not node:
        raise ScreenshotError("nothing drawn yet")
    try:
        texture = gtk.gsk_renderer_render_texture(_pointer(renderer), node, ctypes.byref(_Rect(0, 0, width, height)))
        try:
            if not gtk.gdk_texture_save_to_png(texture, path.encode()):
                raise ScreenshotError(f"could not write {path}")
        finally:
            gtk.g_object_unref(texture)
    finally:
        gtk.gsk_render_node_unref(node)
