"""The Notes application's content: notebooks, notes, settings and spilled drafts in SQLite (stdlib ``sqlite3``).

Nothing here knows GTK or D-Bus: the pages (pages.py) read and write through :class:`NotesStore`, and tests use it
to prepare a database and to check what the application stored.

Where the database is (:func:`database_path`): ``--database PATH``, else ``$NOTES_DB``, else
``$XDG_DATA_HOME/navsession-notes/<instance>/notes.db`` (``~/.local/share/…`` when ``XDG_DATA_HOME`` is unset or
relative; the instance ``default`` without ``--instance``). Every profile (``--instance NAME``) has a database of
its own, as the daemon keeps a state directory of its own per instance.

The tables (``PRAGMA user_version`` 1)::

    notebooks(id, name UNIQUE (case-insensitive), created)
    notes(id, notebook_id → notebooks, title, body, created, modified)
    settings(key PRIMARY KEY, value)            -- sort order, colour scheme, default notebook
    drafts(key PRIMARY KEY, title, body, saved) -- drafts too long for the daemon's renderer state

Every write commits at once, so a process killed right after it loses nothing the store acknowledged. Listeners
(:meth:`NotesStore.subscribe`) hear about every write, so every page showing a list refreshes it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

#: The environment variable that names the database file (tests), as ``--database`` does.
DATABASE_ENV = "NOTES_DB"
#: The folder under ``$XDG_DATA_HOME`` that holds one folder per instance.
DATA_FOLDER = "navsession-notes"
#: The instance of a run without ``--instance``.
DEFAULT_INSTANCE = "default"
#: What an instance name may be: the daemon's rule for ``--instance`` (1–64 letters, digits, ``-``, ``_``).
INSTANCE_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: The sort orders of the notes lists (setting ``sort``).
SORT_ORDERS: Mapping[str, str] = {"modified": "Last modified", "title": "Title"}
#: The colour schemes (setting ``color-scheme``), as libadwaita names them.
COLOR_SCHEMES: Mapping[str, str] = {"default": "Follow system", "light": "Light", "dark": "Dark"}

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS notebooks (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    notebook_id INTEGER NOT NULL REFERENCES notebooks(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    modified REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS notes_by_notebook ON notes(notebook_id, modified);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS drafts (
    key TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    saved REAL NOT NULL
);
"""

WELCOME_TITLE = "Welcome to Notes"
WELCOME_BODY = ("Notes keeps its navigation in navsessiond: close the window, or even kill it, and it comes back "
                "where you were, with what you were typing.\n\n"
                "Try a link: notes://search?q=welcome")


@dataclass(frozen=True)
class Notebook:
    """A notebook and how many notes it holds."""

    id: int
    name: str
    count: int = 0


@dataclass(frozen=True)
class Note:
    """A stored note (``modified``/``created``: seconds since the epoch)."""

    id: int
    notebook_id: int
    notebook: str
    title: str
    body: str
    created: float
    modified: float

    @property
    def display_title(self) -> str:
        """The title, else the first line of the body, else "Untitled note"."""
        if self.title.strip():
            return self.title.strip()
        first = self.body.strip().splitlines()[0] if self.body.strip() else ""
        return first[:80] or "Untitled note"

    def snippet(self, length: int = 90) -> str:
        """The body on one line, cut to ``length`` characters."""
        text = " ".join(self.body.split())
        return text if len(text) <= length else text[: length - 1].rstrip() + "…"


@dataclass(frozen=True)
class Draft:
    """A draft kept in the database because it is too long for the renderer state."""

    key: str
    title: str
    body: str


def valid_instance(name: str) -> bool:
    """Whether ``name`` is an instance name the daemon accepts too."""
    return INSTANCE_PATTERN.fullmatch(name) is not None


def data_home(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME`` when absolute, else ``~/.local/share`` (the XDG Base Directory rule)."""
    configured = environ.get("XDG_DATA_HOME", "")
    if configured and os.path.isabs(configured):
        return Path(configured)
    home = environ.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "share"


def database_path(instance: Optional[str] = None, explicit: Optional[str] = None,
                  environ: Mapping[str, str] = os.environ) -> Path:
    """Where the database of ``instance`` is: ``explicit`` (``--database``), else ``$NOTES_DB``, else
    ``$XDG_DATA_HOME/navsession-notes/<instance>/notes.db``. Raises ``ValueError`` for an invalid instance name."""
    if explicit:
        return Path(explicit)
    if environ.get(DATABASE_ENV):
        return Path(environ[DATABASE_ENV])
    name = instance or DEFAULT_INSTANCE
    if not valid_instance(name):
        raise ValueError(f"invalid instance name {name!r}: 1-64 letters, digits, '-' or '_'")
    return data_home(environ) / DATA_FOLDER / name / "notes.db"


def _like(word: str) -> str:
    """A LIKE pattern matching ``word`` anywhere (``%``, ``_`` and ``\\`` escaped)."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


Listener = Callable[[], None]


class NotesStore:
    """The database of one profile. Opens (creating the file, its folder and the tables when missing) and, with
    ``seed``, fills an empty database with two notebooks and a welcome note."""

    def __init__(self, path: os.PathLike[str] | str, *, seed: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path))
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self._db.commit()
        self._listeners: list[Listener] = []
        if seed and not self.notebooks():
            personal = self.add_notebook("Personal")
            self.add_notebook("Work")
            self.add_note(WELCOME_TITLE, WELCOME_BODY, personal.id)

    def close(self) -> None:
        self._db.close()

    # -- listeners ------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Calls ``listener()`` after every write; returns the function that unsubscribes."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _changed(self) -> None:
        self._db.commit()
        for listener in list(self._listeners):
            listener()

    # -- notebooks ------------------------------------------------------------------------------

    def notebooks(self) -> list[Notebook]:
        """Every notebook with its number of notes, by name."""
        rows = self._db.execute(
            "SELECT b.id, b.name, COUNT(n.id) AS count FROM notebooks b LEFT JOIN notes n ON n.notebook_id = b.id "
            "GROUP BY b.id ORDER BY b.name COLLATE NOCASE").fetchall()
        return [Notebook(int(r["id"]), str(r["name"]), int(r["count"])) for r in rows]

    def notebook(self, notebook_id: int) -> Optional[Notebook]:
        return next((b for b in self.notebooks() if b.id == notebook_id), None)

    def add_notebook(self, name: str) -> Notebook:
        """A new notebook; ``ValueError`` for an empty name or one already taken."""
        name = name.strip()
        if not name:
            raise ValueError("a notebook needs a name")
        try:
            cursor = self._db.execute("INSERT INTO notebooks(name, created) VALUES (?, ?)", (name, time.time()))
        except sqlite3.IntegrityError:
            raise ValueError(f"there is already a notebook called {name!r}") from None
        self._changed()
        return Notebook(int(cursor.lastrowid or 0), name, 0)

    def default_notebook(self) -> Optional[Notebook]:
        """The notebook new notes go to: the setting ``default-notebook`` when it still exists, else the first."""
        books = self.notebooks()
        wanted = self.setting("default-notebook")
        return next((b for b in books if str(b.id) == wanted), books[0] if books else None)

    # -- notes ----------------------------------------------------------------------------------

    def _order(self) -> str:
        return "n.title COLLATE NOCASE, n.modified DESC" if self.setting("sort") == "title" else "n.modified DESC"

    def _notes(self, where: str = "", args: Sequence[object] = (), limit: Optional[int] = None) -> list[Note]:
        sql = ("SELECT n.id, n.notebook_id, b.name AS notebook, n.title, n.body, n.created, n.modified "
               "FROM notes n JOIN notebooks b ON b.id = n.notebook_id")
        if where:
            sql += " WHERE " + where
        sql += f" ORDER BY {self._order()}, n.id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [Note(int(r["id"]), int(r["notebook_id"]), str(r["notebook"]), str(r["title"]), str(r["body"]),
                     float(r["created"]), float(r["modified"])) for r in self._db.execute(sql, tuple(args))]

    def notes(self, notebook_id: Optional[int] = None) -> list[Note]:
        """The notes of a notebook (``None``: every notebook), in the order of the setting ``sort``."""
        if notebook_id is None:
            return self._notes()
        return self._notes("n.notebook_id = ?", (notebook_id,))

    def note(self, note_id: int) -> Optional[Note]:
        found = self._notes("n.id = ?", (note_id,))
        return found[0] if found else None

    def add_note(self, title: str, body: str, notebook_id: Optional[int] = None) -> Note:
        """A new note in ``notebook_id`` (default: :meth:`default_notebook`, created when there is none)."""
        if notebook_id is None or self.notebook(notebook_id) is None:
            book = self.default_notebook() or self.add_notebook("Notes")
            notebook_id = book.id
        now = time.time()
        cursor = self._db.execute(
            "INSERT INTO notes(notebook_id, title, body, created, modified) VALUES (?, ?, ?, ?, ?)",
            (notebook_id, title, body, now, now))
        self._changed()
        note = self.note(int(cursor.lastrowid or 0))
        assert note is not None
        return note

    def update_note(self, note_id: int, title: str, body: str) -> Optional[Note]:
        """Stores a note's new text (``None`` when it no longer exists)."""
        self._db.execute("UPDATE notes SET title = ?, body = ?, modified = ? WHERE id = ?",
                         (title, body, time.time(), note_id))
        self._changed()
        return self.note(note_id)

    def delete_note(self, note_id: int) -> None:
        self._db.execute("DELETE FROM notes WHERE id = ?", (note_id,))
        self._changed()

    def search(self, query: str, limit: int = 200) -> list[Note]:
        """The notes whose title or body contains every word of ``query`` (case-insensitive for ASCII); none for
        an empty query."""
        words = query.split()
        if not words:
            return []
        where = " AND ".join("(n.title LIKE ? ESCAPE '\\' OR n.body LIKE ? ESCAPE '\\')" for _ in words)
        args: list[object] = []
        for word in words:
            args += [_like(word), _like(word)]
        return self._notes(where, args, limit)

    # -- settings -------------------------------------------------------------------------------

    def setting(self, key: str, default: str = "") -> str:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return str(row["value"]) if row is not None else default

    def set_setting(self, key: str, value: str) -> None:
        if self.setting(key, "\0") == value:
            return
        self._db.execute("INSERT INTO settings(key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))
        self._changed()

    # -- drafts too long for the renderer state ---------------------------------------------------

    def keep_draft(self, key: str, title: str, body: str) -> None:
        """Keeps a draft under ``key`` (replacing the one kept). Does not notify listeners: no list shows it."""
        self._db.execute("INSERT INTO drafts(key, title, body, saved) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE "
                         "SET title = excluded.title, body = excluded.body, saved = excluded.saved",
                         (key, title, body, time.time()))
        self._db.commit()

    def draft(self, key: str) -> Optional[Draft]:
        row = self._db.execute("SELECT key, title, body FROM drafts WHERE key = ?", (key,)).fetchone()
        return Draft(str(row["key"]), str(row["title"]), str(row["body"])) if row is not None else None

    def drop_draft(self, key: str) -> None:
        self._db.execute("DELETE FROM drafts WHERE key = ?", (key,))
        self._db.commit()
