"""What the tests that run GTK applications share (the binding's and Notes'): a private X server (``Xvfb
-displayfd`` picks a free display and writes its number once it accepts clients, so reading it is the wait for the
server) and one run of an application under it, with its log and report file."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import pytest
from gi.repository import Gio, GLib


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


class AppRun:
    """One run of a GTK application (``argv``, a Python program) under ``display``: its output in ``log``, its
    report lines (``NAVSESSION_GTK_TEST_REPORT``) in ``report``, the repository's ``python/`` first on its path.
    ``exited`` turns true when it exits (watched on the default main context, which the waits iterate)."""

    def __init__(self, argv: Sequence[str], display: str, report: Path, log: Path, address: str,
                 connection: Gio.DBusConnection, bound: float, env: Mapping[str, str] = {}) -> None:
        self.report = report
        self.log = log
        self.connection = connection  # the test's, on the same bus: for the probe's calls
        self.bound = bound
        self.exited = False
        launcher = Gio.SubprocessLauncher.new(Gio.SubprocessFlags.STDERR_MERGE)
        launcher.set_stdout_file_path(str(log))
        launcher.unsetenv("WAYLAND_DISPLAY")
        python_path = os.pathsep.join(p for p in (str(REPOSITORY / "python"), os.environ.get("PYTHONPATH")) if p)
        for name, value in {"DISPLAY": display, "GDK_BACKEND": "x11", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
                            "PYTHONPATH": python_path, "PYTHONDONTWRITEBYTECODE": "1",
                            "NAVSESSION_GTK_TEST_REPORT": str(report), "DBUS_SESSION_BUS_ADDRESS": address,
                            **env}.items():
            launcher.setenv(name, value, True)
        self.process = launcher.spawnv([sys.executable, *argv])
        self.process.wait_async(None, lambda *_: setattr(self, "exited", True))

    @property
    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def lines(self) -> list[dict[str, Any]]:
        """The report lines so far."""
        if not self.report.exists():
            return []
        return [json.loads(line) for line in self.report.read_text(encoding="utf-8").splitlines() if line.strip()]

    def wait_exit(self) -> bool:
        """Iterates the default main context until the application exited, at most ``bound`` seconds."""
        context = GLib.MainContext.default()
        expired = [False]
        source = GLib.timeout_source_new(int(self.bound * 1000))
        source.set_callback(lambda *_: expired.__setitem__(0, True) or False)
        source.attach(context)
        try:
            while not self.exited and not expired[0]:
                context.iteration(True)
        finally:
            source.destroy()
        return self.exited

    def stop(self) -> None:
        """SIGTERM (the application quits cleanly), then waits for its exit; fails when it does not quit."""
        if self.exited:
            return
        self.process.send_signal(signal.SIGTERM)
        if not self.wait_exit():
            self.process.force_exit()
            pytest.fail(f"the application did not quit on SIGTERM within {self.bound} s:\n{self.output}")


REPOSITORY = Path(__file__).resolve().parents[2]

__all__ = ["AppRun", "display", "loads"]
