#!/usr/bin/python3
"""NavSession's reference GTK 4 renderer: real windows that follow navsessiond over D-Bus.

    python3 Examples/gtk-renderer/renderer.py [--app-id org.navsession.Demo] [-v]

Needs Debian's python3-gi and gir1.2-gtk-4.0, a display, DBUS_SESSION_BUS_ADDRESS pointing at the bus
navsessiond serves, and the navsession package: run from a checkout, the repository's python/ folder is put
first on sys.path (so the renderer and the package always match); elsewhere, the installed package
(pip install ./python).
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

import gi  # noqa: E402

gi.require_version("Gtk", "4.0")
gi.require_version("Graphene", "1.0")
gi.require_version("Gsk", "4.0")

from gi.repository import GLib  # noqa: E402

from navrenderer.app import RendererApp  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app-id", default="org.navsession.Demo",
                        help="the bus name navsessiond serves (its manifest's id; default: the demo)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every report and resync")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="gtk-renderer: %(name)s: %(message)s", stream=sys.stderr)
    app = RendererApp(args.app_id)
    for signal in (2, 15):  # SIGINT, SIGTERM: quit cleanly (releases the bus name, closes the windows)
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal, lambda *_: (app.quit(), GLib.SOURCE_REMOVE)[1])
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
