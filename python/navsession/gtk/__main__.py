"""``python3 -m navsession.gtk``: the binding as a plain renderer of a daemon's windows, or a mirror of them.

    python3 -m navsession.gtk [--bus-name org.navsession.Demo] [--mirror] [--open-window] [-v]

Every screen shows the binding's placeholder page (its title, screen and params); it follows the windows of the
daemon owning ``--bus-name`` (never starting it) and registers on each as a renderer (Window1 RegisterRenderer,
Docs/renderers.md): the **primary** by default — what the user does is reported, the window's width class too — or,
with ``--mirror``, a **mirror**: a second screen that shows the same windows, their panes and presentations as they
change, and never changes them (its controls are insensitive, nothing is reported). A primary refused because
another client's primary is registered follows the window as a mirror. Run both on one display or two: each is a
process of its own (a non-unique application). ``--open-window`` opens a window of the first scene when the daemon
has none (a primary only). Needs PyGObject with GTK 4 and a display; SIGINT and SIGTERM quit cleanly.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Sequence

import navsession

from . import NavigationApp
from .app import CAPABILITIES

#: The ``Gtk.Application`` ids (never the daemon's bus name: a unique application owns its id on the bus).
APPLICATION_IDS = {"primary": "org.navsession.gtk.Renderer", "mirror": "org.navsession.gtk.Mirror"}


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python3 -m navsession.gtk", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bus-name", "--app-id", default=navsession.DEMO_NAME, metavar="NAME",
                        help="the bus name navsessiond serves (its manifest's id; default: the demo's)")
    parser.add_argument("--mirror", action="store_true",
                        help="follow the windows as a mirror: show them, never change them")
    parser.add_argument("--open-window", action="store_true",
                        help="open a window of the first scene when the daemon has none (not with --mirror)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the renderer does")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="navsession.gtk: %(name)s: %(message)s", stream=sys.stderr)
    role = "mirror" if args.mirror else "primary"
    from gi.repository import Gio

    app = NavigationApp(APPLICATION_IDS[role], args.bus_name, open_window=args.open_window and not args.mirror,
                        quit_when_closed=False, start_daemon=False, flags=Gio.ApplicationFlags.NON_UNIQUE, role=role,
                        capabilities=CAPABILITIES)
    return app.run([sys.argv[0] if sys.argv and sys.argv[0] else "navsession-gtk"])


if __name__ == "__main__":
    sys.exit(main())
