"""*Notes*: the application — a :class:`navsession.gtk.NavigationApp` with the pages of pages.py, its database
(store.py), the command line and what runs before GTK does.

    navsessiond --name org.navsession.Notes [--instance NAME]        # or --manifest …/org.navsession.Notes.json
    python3 -m navsession.examples.notes [--instance NAME] [--database PATH] [URL]

The navigation — which tab, which notebook, which note, the open sheet, each page's draft — is the daemon's
(``org.navsession.Notes``, the manifest next to this file); the notes are the application's (SQLite). Docs/notes-app.md
describes both.

**The application id.** The GTK application's id is ``org.navsession.Notes`` too — the desktop file's name, so the
desktop matches windows to it — but the daemon owns that name on the bus, so the application does not: it is a
``NON_UNIQUE`` application. Its single-instance rule is the daemon's instead: started with a URL while another
renderer already shows the daemon's windows (a window's ``SettledBy`` is a name still on the bus), it hands the
URL to the daemon (``Session1.OpenURL``) and exits, and the running one shows it.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Optional, Sequence

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gio, GLib  # noqa: E402

import navsession  # noqa: E402
from navsession import NavSessionError  # noqa: E402
from navsession import commands as c  # noqa: E402
from navsession.gtk import NavigationApp  # noqa: E402

from .pages import PAGES  # noqa: E402
from .store import DEFAULT_INSTANCE, NotesStore, database_path, valid_instance  # noqa: E402

log = logging.getLogger("navsession.examples.notes")

APPLICATION_ID = "org.navsession.Notes"
#: The daemon's bus name: the manifest's ``id``.
BUS_NAME = "org.navsession.Notes"
#: The manifest, installed as ``share/navsession/applications/org.navsession.Notes.json``.
MANIFEST = Path(__file__).resolve().with_name("org.navsession.Notes.json")
#: The exit status when no daemon serves the application (``EX_UNAVAILABLE``).
EXIT_NO_DAEMON = 69
#: The exit status for a bad command line (``EX_USAGE``).
EXIT_USAGE = 64

#: The setting ``color-scheme`` (store.COLOR_SCHEMES) → libadwaita's colour scheme.
ADW_SCHEMES = {"default": Adw.ColorScheme.DEFAULT, "light": Adw.ColorScheme.FORCE_LIGHT,
                 "dark": Adw.ColorScheme.FORCE_DARK}


class NotesApp(NavigationApp):
    """The Notes application: every screen of the manifest drawn by its page (pages.py), the database of the
    profile ``instance`` in ``store``; ``url``, when given, is followed (``OpenURL``) once it runs.

    Keyboard: Ctrl+N a new note (the ``compose`` sheet), Ctrl+F the Search tab, Ctrl+Q quits; the binding adds back
    (Escape, Alt+Left) and reopening a closed window (Ctrl+Shift+T)."""

    def __init__(self, store: NotesStore, *, instance: str = DEFAULT_INSTANCE, url: Optional[str] = None) -> None:
        super().__init__(APPLICATION_ID, BUS_NAME, PAGES, discard_dialog="discardChanges", scene="main",
                         flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.store = store
        self.instance = instance
        self.pending_url = url
        #: Set while the application shuts down: pages closing then keep what the daemon keeps.
        self.quitting = False
        #: What :func:`main` returns (``EXIT_NO_DAEMON`` when nothing serves ``BUS_NAME``).
        self.exit_status = 0

    def _start_daemon(self) -> bool:
        """Nothing serves the bus name yet: the bus starts the daemon if it can (an installed service file), as
        when the application is launched from its desktop entry."""
        connection = self.get_dbus_connection()
        return connection is not None and _start_service(connection, BUS_NAME)

    # -- Gtk.Application ------------------------------------------------------------------------

    def do_startup(self) -> None:
        NavigationApp.do_startup(self)
        Adw.init()
        self.apply_color_scheme()
        for name, accels, handler in (("new-note", ["<Control>n"], self.new_note),
                                      ("search", ["<Control>f"], self.show_search),
                                      ("quit", ["<Control>q"], self.quit)):
            action = Gio.SimpleAction.new(name, None)
            action.connect("activate", lambda *_a, h=handler: h())
            self.add_action(action)
            self.set_accels_for_action(f"app.{name}", accels)

    def do_activate(self) -> None:
        session = self.session
        if session is None or (session.name_owner is None and not self._start_daemon()):
            sys.stderr.write(
                f"notes: nothing serves {BUS_NAME} on this bus; start the daemon first:\n"
                f"  navsessiond --name {BUS_NAME}{self._instance_option()}\n"
                f"  (from a checkout: navsessiond --manifest {MANIFEST}{self._instance_option()})\n")
            self.exit_status = EXIT_NO_DAEMON
            self.quit()
            return
        self._check_instance(session)
        url, self.pending_url = self.pending_url, None
        if url and not self.windows:
            self.open_url(url)  # opens the window itself (the route's scene)
            return
        NavigationApp.do_activate(self)
        if url:
            self.open_url(url)

    def do_shutdown(self) -> None:
        self.quitting = True
        NavigationApp.do_shutdown(self)
        self.store.close()

    # -- what the application does --------------------------------------------------------------

    def _instance_option(self) -> str:
        return f" --instance {self.instance}" if self.instance != DEFAULT_INSTANCE else ""

    def _check_instance(self, session: navsession.Session) -> None:
        """Warns when the daemon keeps another profile's navigation than the database is (``--instance``)."""
        try:
            served = session.instance or DEFAULT_INSTANCE
        except NavSessionError:
            return
        if served != self.instance:
            log.warning("navsessiond keeps the navigation of instance %r, this database is instance %r (%s); "
                        "start both with the same --instance", served, self.instance, self.store.path)

    def open_url(self, url: str) -> None:
        """Follows a deep link (``Session1.OpenURL``, without blocking); a refusal is logged — when a page's
        unsaved text refuses it (``Prevented``) the daemon shows the ``discardChanges`` dialog instead."""
        if self.session is None:
            return
        log.info("OpenURL %s", url)
        self.session.call_async("OpenURL", "(s)", (url,), None,
                                lambda error: log.info("OpenURL %s: %s: %s", url, error.name, error.message))

    def first_window(self) -> Optional[navsession.Window]:
        """The navigation window (the scene ``main`` is single)."""
        return next(iter(self.windows.values()), None)

    def _apply(self, *commands: c.Command) -> None:
        window = self.first_window()
        if window is None:
            return
        window.call_async("Apply", "(sa{ss})", (c.batch_json(list(commands)), {}), None,
                          lambda error: log.info("%s: %s: %s", c.batch_json(list(commands)), error.name,
                                                 error.message))

    def new_note(self) -> None:
        """Ctrl+N: the new-note sheet (``show`` of ``compose``, a sheet by its manifest style) — unless it is what
        the window shows already."""
        window = self.first_window()
        if window is not None and window.active_screen != "compose":
            self._apply(c.show("compose"))

    def show_search(self) -> None:
        """Ctrl+F: the Search tab."""
        self._apply(c.select_tab("search"))

    def apply_color_scheme(self) -> None:
        """The colour scheme of the setting ``color-scheme`` (libadwaita's style manager)."""
        scheme = ADW_SCHEMES.get(self.store.setting("color-scheme", "default"), Adw.ColorScheme.DEFAULT)
        Adw.StyleManager.get_default().set_color_scheme(scheme)


def _start_service(connection: Gio.DBusConnection, name: str) -> bool:
    """Asks the bus to start ``name`` (D-Bus activation: the service file scripts/install puts in
    ``share/dbus-1/services``); ``True`` once something owns it."""
    try:
        connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                             "StartServiceByName", GLib.Variant("(su)", (name, 0)), GLib.VariantType("(u)"),
                             Gio.DBusCallFlags.NONE, 60_000, None)
    except GLib.Error as error:
        log.info("%s is not activatable here: %s", name, error.message)
        return False
    return _has_owner(connection, name)


def deliver_to_running(url: str) -> bool:
    """Hands ``url`` to the daemon when another renderer already shows its windows (see the module); ``False``
    when this process should show them itself."""
    try:
        connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        session = navsession.Session(connection, BUS_NAME, start=False)
    except (GLib.Error, NavSessionError):
        return False
    try:
        if session.name_owner is None:
            return False
        for window in session.windows():
            renderer = window.settled_by
            if renderer and renderer != connection.get_unique_name() and _has_owner(connection, renderer):
                session.open_url(url)
                return True
        return False
    except NavSessionError as error:
        log.info("could not hand %s over: %s", url, error.message)
        return False
    finally:
        session.close()


def _has_owner(connection: Gio.DBusConnection, name: str) -> bool:
    (owned,) = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "NameHasOwner", GLib.Variant("(s)", (name,)), GLib.VariantType("(b)"),
                                    Gio.DBusCallFlags.NONE, -1, None).unpack()
    return bool(owned)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m navsession.examples.notes",
        description="Notes: a GTK 4 notes application whose navigation navsessiond keeps (Docs/notes-app.md).",
        epilog=f"Start the daemon first: navsessiond --name {BUS_NAME} [--instance NAME] (installed manifest) or "
               f"navsessiond --manifest {MANIFEST}.")
    parser.add_argument("url", nargs="?", help="a notes:// link to follow: notes://note/42, notes://search?q=milk, "
                                               "notes://new")
    parser.add_argument("--instance", default=DEFAULT_INSTANCE, metavar="NAME",
                        help="the profile: its own database (and run the daemon with the same --instance)")
    parser.add_argument("--database", metavar="PATH",
                        help="the SQLite file (default: $NOTES_DB, else "
                             "$XDG_DATA_HOME/navsession-notes/<instance>/notes.db)")
    parser.add_argument("--manifest-path", action="store_true",
                        help="print the path of the application's manifest and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the application and the binding do")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The program: ``python3 -m navsession.examples.notes``."""
    args = parser().parse_args(argv)
    if args.manifest_path:
        print(MANIFEST)
        return 0
    if not valid_instance(args.instance):
        sys.stderr.write(f"notes: invalid --instance {args.instance!r}: 1-64 letters, digits, '-' or '_'\n")
        return EXIT_USAGE
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="notes: %(name)s: %(message)s", stream=sys.stderr)
    if args.url and deliver_to_running(args.url):
        return 0
    store = NotesStore(database_path(args.instance, args.database))
    app = NotesApp(store, instance=args.instance, url=args.url)
    status = app.run([sys.argv[0] if sys.argv and sys.argv[0] else "notes"])
    return app.exit_status or status


if __name__ == "__main__":
    raise SystemExit(main())
