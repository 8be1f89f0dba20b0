"""A private X server for the tests that run GTK applications: ``Xvfb -displayfd`` picks a free display and writes
its number once it accepts clients, so reading it is the wait for the server (shared by the binding's and Notes'
tests)."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import sys
from typing import Iterator, Sequence

import pytest


def loads(namespaces: Sequence[str]) -> bool:
    """Whether Debian's Python can load these typelibs (``Gtk`` 4.0, ``Adw`` 1) in a child process."""
    versions = {"Gtk": "4.0", "Adw": "1"}
    code = "import gi; " + "; ".join(f"gi.require_version('{n}', '{versions[n]}')" for n in namespaces) + \
        "; from gi.repository import " + ", ".join(namespaces)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60).returncode == 0


@contextlib.contextmanager
def display(namespaces: Sequence[str], bound: float, skip_reason: str) -> Iterator[str]:
    """``:N`` of a private Xvfb, stopped afterwards; skips the test without Xvfb or the typelibs."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None or not loads(namespaces):
        pytest.skip(skip_reason)
    read_end, write_end = os.pipe()
    process = subprocess.Popen([xvfb, "-displayfd", str(write_end), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                               pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        number = _read_line(read_end, bound)
        if not number.isdigit():
            pytest.fail(f"Xvfb reported no display within {bound} s (read {number!r})")
        yield f":{number}"
    finally:
        os.close(read_end)
        process.terminate()
        try:
            process.wait(timeout=bound)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _read_line(fd: int, timeout: float) -> str:
    """A line from ``fd`` (the display number), waiting on the fd itself; ``""`` when it closes or times out."""
    text = b""
    while b"\n" not in text:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            break
        chunk = os.read(fd, 64)
        if not chunk:
            break
        text += chunk
    return text.decode(errors="replace").strip()


__all__ = ["display", "loads"]
