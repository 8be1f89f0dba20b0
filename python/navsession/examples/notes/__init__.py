"""*Notes*: a GTK 4 / libadwaita application whose navigation navsessiond keeps (Docs/notes-app.md).

    navsessiond --manifest "$(python3 -m navsession.examples.notes --manifest-path)"   # or --name org.navsession.Notes
    python3 -m navsession.examples.notes [--instance NAME] [--database PATH] [notes://…]

- :mod:`.store` — the notes in SQLite (no GTK: tests and tools use it too);
- :mod:`.pages` — one :class:`navsession.gtk.Page` per screen of the manifest;
- :mod:`.app` — :class:`~.app.NotesApp` (a :class:`navsession.gtk.NavigationApp`) and the command line;
- ``org.navsession.Notes.json`` — the manifest (installed as ``share/navsession/applications/``).

Importing this package imports nothing of GTK; :mod:`.pages` and :mod:`.app` do.
"""

from pathlib import Path

#: The application's manifest (the daemon's ``--manifest``; installed under ``share/navsession/applications``).
MANIFEST = Path(__file__).resolve().with_name("org.navsession.Notes.json")

__all__ = ["MANIFEST"]
