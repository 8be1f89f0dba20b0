"""Unit tests of the reference renderer as a program on the binding (no display, no daemon needed).

    /usr/bin/python3 -m unittest discover -s Examples/gtk-renderer/tests

What the reference renderer is made of: the package's GTK binding (navsession.gtk, tested in python/tests) plus
its own placeholder page, test hook and screenshots. These tests check that split: navrenderer holds only the
renderer-specific modules, and renderer.py configures the binding as the reference behaves (no page factories,
never opens a window or starts the daemon, a non-unique application).
"""

from __future__ import annotations

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RENDERER = os.path.normpath(os.path.join(HERE, ".."))
CHECKOUT_PACKAGE = os.path.normpath(os.path.join(RENDERER, "..", "..", "python"))
for path in (CHECKOUT_PACKAGE, RENDERER):
    if path not in sys.path:
        sys.path.insert(0, path)

from gi.repository import Gio  # noqa: E402

import renderer  # noqa: E402  (renderer.py: imports only; main() is not run)
from navrenderer.placeholder import ScreenPage  # noqa: E402
from navsession.gtk import BrowserPage, NavigationApp, Placeholder  # noqa: E402


class RendererTests(unittest.TestCase):
    def test_navrenderer_keeps_only_what_is_specific_to_the_reference(self) -> None:
        modules = sorted(name[:-3] for name in os.listdir(os.path.join(RENDERER, "navrenderer"))
                         if name.endswith(".py"))
        self.assertEqual(modules, ["__init__", "placeholder", "screenshot", "testhook"])

    def test_the_renderer_is_the_binding_with_no_page_factories(self) -> None:
        app = renderer.RendererApp("org.navsession.Demo")
        self.assertIsInstance(app, NavigationApp)
        self.assertEqual(app.get_application_id(), "org.navsession.GtkRenderer")
        self.assertTrue(app.get_flags() & Gio.ApplicationFlags.NON_UNIQUE)
        self.assertEqual(app.pages, {})
        self.assertFalse(app.open_window)
        self.assertFalse(app.start_daemon)
        self.assertEqual(app.discard_dialog, "discardChanges")
        self.assertIs(app.factory_for("detail"), ScreenPage)
        self.assertIs(app.factory_for("editor"), ScreenPage)
        self.assertIs(app.factory_for("browser"), BrowserPage)  # the binding's built-in page

    def test_the_placeholder_page_is_the_bindings(self) -> None:
        self.assertTrue(issubclass(ScreenPage, Placeholder))


if __name__ == "__main__":
    unittest.main()
