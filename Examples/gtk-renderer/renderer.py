#!/usr/bin/python3
"""NavSession's reference GTK 4 renderer: real windows that follow navsessiond over D-Bus.

    python3 Examples/gtk-renderer/renderer.py [--app-id org.navsession.Demo] [-v]

Needs Debian's python3-gi and gir1.2-gtk-4.0, a display, DBUS_SESSION_BUS_ADDRESS pointing at the bus
navsessiond serves, and the navsession package: run from a checkout, the repository's python/ folder is put
first on sys.path (so the renderer and the package always match); elsewhere, the installed package
(pip install ./python).

Everything but what is specific to the reference lives in the package's GTK binding, navsession.gtk: this program
is a navsession.gtk.NavigationApp that registers no page factories (every screen is navrenderer's placeholder
page), opens no window of its own and never starts the daemon, plus its automation hook (navrenderer/testhook.py,
org.navsession.GtkRenderer1) and screenshots (navrenderer/screenshot.py).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT_PACKAGE = os.path.join(HERE, "..", "..", "python")
if os.path.isfile(os.path.join(CHECKOUT_PACKAGE, "navsession", "__init__.py")):
    sys.path.insert(0, os.path.normpath(CHECKOUT_PACKAGE))
sys.path.insert(0, HERE)

from gi.repository import Gio  # noqa: E402

from navsession.gtk import NavigationApp  # noqa: E402
from navrenderer.placeholder import ScreenPage  # noqa: E402
from navrenderer.testhook import TestHook  # noqa: E402

APPLICATION_ID = "org.navsession.GtkRenderer"


class RendererApp(NavigationApp):
    """The binding as the reference renderer: the placeholder page for every screen (its editor protects itself
    with the demo's ``discardChanges``), following the daemon's windows only, and the test hook on the bus."""

    def __init__(self, daemon_name: str, role: str = "primary") -> None:
        super().__init__(APPLICATION_ID, daemon_name, fallback=ScreenPage, discard_dialog="discardChanges",
                         open_window=False, start_daemon=False, flags=Gio.ApplicationFlags.NON_UNIQUE, role=role)
        self.hook: TestHook | None = None

    def do_startup(self) -> None:
        NavigationApp.do_startup(self)
        connection = self.get_dbus_connection()
        if connection is not None:
            self.hook = TestHook(self, connection)

    def do_shutdown(self) -> None:
        if self.hook is not None:
            self.hook.stop()
        NavigationApp.do_shutdown(self)

    def screen_changed(self) -> None:
        """Something on screen may have changed: the hook's ScreenChanged (once the main loop is idle)."""
        if self.hook is not None:
            self.hook.screen_changed()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app-id", default="org.navsession.Demo",
                        help="the bus name navsessiond serves (its manifest's id; default: the demo)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every report and resync")
    parser.add_argument("--mirror", action="store_true",
                        help="follow the windows as a mirror (a second screen): show them, never change them")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="gtk-renderer: %(name)s: %(message)s", stream=sys.stderr)
    # SIGINT and SIGTERM quit cleanly (NavigationApp.run): the bus name goes, the windows close.
    return RendererApp(args.app_id, role="mirror" if args.mirror else "primary").run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
