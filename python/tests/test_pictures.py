"""The documentation's pictures are what the code draws now: ``scripts/pictures --check``.

``scripts/pictures`` makes every picture README.md and Docs/*.md show (the reference renderer's and the Notes
application's), each with a committed sidecar ``Docs/images/<name>.json`` describing what it shows. ``--check``
runs the same flows without taking pictures and fails when a sidecar differs: the code draws something else now,
so run ``scripts/pictures`` and commit Docs/images. Also here: the pairing of pictures and sidecars, which needs no
display, and the binding's probe ``Screenshot`` that takes the Notes pictures (the renderer's hook ``Screenshot`` is
tested by Tests/GtkRendererTests).

The display tests are skipped without Xvfb, GTK 4 or libadwaita for Python.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Callable

import gi
import pytest

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, GLib  # noqa: E402

import navsession  # noqa: E402
import test_notes_app as notes  # noqa: E402  (the Notes application as its tests run it: NotesRun, Xvfb)
from navsession.testing import TestSetupError, find_daemon  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPT = REPOSITORY / "scripts" / "pictures"
IMAGES = REPOSITORY / "Docs" / "images"

# The Notes application's fixtures, as test_notes_app.py defines them: a private Xvfb (skips without Xvfb, GTK 4 or
# libadwaita), a daemon serving its manifest, the application started on demand.
display = notes.display
navsession_manifest = notes.navsession_manifest
database = notes.database
notes_app = notes.notes_app


def made() -> list[str]:
    listed = subprocess.run([sys.executable, str(SCRIPT), "--list"], capture_output=True, text=True, check=True,
                            timeout=notes.BOUND)
    return listed.stdout.split()


def test_every_picture_the_docs_show_is_made_by_the_script_and_has_its_sidecar() -> None:
    names = made()
    shown = set()
    for document in [REPOSITORY / "README.md", *sorted((REPOSITORY / "Docs").glob("*.md"))]:
        shown |= set(re.findall(r"images/([A-Za-z0-9_.-]+)\.png", document.read_text(encoding="utf-8")))
    assert shown - set(names) == set(), "pictures the documentation shows that scripts/pictures does not make"
    assert {p.stem for p in IMAGES.glob("*.png")} == set(names) == {p.stem for p in IMAGES.glob("*.json")}
    # Each of the four kinds the Notes pictures show, and the renderer's flows.
    assert {"notes-split", "notes-discard", "notes-collapsed", "notes-search"} <= set(names)
    notes_doc = (REPOSITORY / "Docs" / "notes-app.md").read_text(encoding="utf-8")
    assert all(f"images/{n}.png" in notes_doc for n in names if n.startswith("notes-"))


def test_the_pictures_show_what_the_code_draws_now(display: str) -> None:
    """``scripts/pictures --check`` (skipped with the display fixture when Xvfb or GTK is missing)."""
    try:
        find_daemon()
    except TestSetupError as error:
        pytest.skip(str(error))
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"scripts/pictures --check:\n{result.stdout}\n{result.stderr}"
    assert f"{len(made())} sidecars match Docs/images" in result.stdout


def _png(path: Path) -> tuple[int, int, int]:
    """Width, height and how many different pixels (a blank picture has one)."""
    pixbuf = GdkPixbuf.Pixbuf.new_from_file(str(path))
    data = pixbuf.get_pixels()
    step = pixbuf.get_n_channels()
    return pixbuf.get_width(), pixbuf.get_height(), len({data[i:i + step] for i in range(0, len(data), step * 7)})


def test_the_probe_saves_a_window_and_its_sheet_as_drawn(
        notes_app: Callable[[], notes.NotesRun], navsession_session: navsession.Session, tmp_path: Path) -> None:
    app = notes_app()
    window = app.first_window(navsession_session)
    app.shown(window)
    whole = tmp_path / "window.png"
    app.probe("Screenshot", "(ots)", (window.path, 0, str(whole)))
    width, height, colours = _png(whole)
    assert width > 300 and height > 300 and colours > 10

    # A sheet: its own GTK window, by the model it presents; answered once it has stopped sliding in.
    compose = notes.open_compose(app, window)
    sheet = tmp_path / "sheet.png"
    app.probe("Screenshot", "(ots)", (window.path, compose, str(sheet)))
    sheet_width, sheet_height, sheet_colours = _png(sheet)
    assert (sheet_width, sheet_height) != (width, height) and sheet_colours > 10

    with pytest.raises(GLib.Error, match="no sheet, cover or dialog of model 4242"):
        app.probe("Screenshot", "(ots)", (window.path, 4242, str(tmp_path / "none.png")))
    with pytest.raises(GLib.Error, match="could not write"):
        app.probe("Screenshot", "(ots)", (window.path, 0, str(tmp_path / "no" / "such" / "dir.png")))
    assert not (tmp_path / "none.png").exists()
