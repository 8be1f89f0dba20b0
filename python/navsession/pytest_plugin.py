"""The pytest plugin (entry point ``pytest11``; from a checkout: ``-p navsession.pytest_plugin``).

Fixtures, each per test:

- ``navsession_bus``: a private ``dbus-daemon`` (:class:`navsession.testing.TestBus`); while the test runs,
  ``DBUS_SESSION_BUS_ADDRESS`` points at it, so code under test that uses the session bus reaches it.
- ``navsession_daemon``: ``navsessiond --bus <that bus> --ephemeral`` with the test's manifest
  (:class:`navsession.testing.TestDaemon`), started once it owns its name.
- ``navsession_session``: ``navsession.connect(bus, name)`` (a :class:`navsession.Session`).
- ``navsession_window``: a window of the first scene the manifest declares (or the marker's ``scene``).
- ``navsession_manifest``: the manifest path (``None``: the built-in demo) — from the marker, or override it
  (a fixture of that name in a conftest, or ``@pytest.mark.parametrize("navsession_manifest", [...])``).

The marker: ``@pytest.mark.navsession(manifest="app.json", name=None, scene=None, args=())`` — ``manifest``
relative to the test file's folder; ``name`` the bus name (default: the manifest's id); ``args`` more
navsessiond arguments.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import pytest

from .client import Session, Window, connect
from .testing import TestBus, TestDaemon


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "navsession(manifest=None, name=None, scene=None, args=()): the manifest (relative to the test file), bus "
        "name, first scene and extra navsessiond arguments of the navsession_* fixtures")


def _marker(request: Any) -> Dict[str, Any]:
    marker = request.node.get_closest_marker("navsession")
    if marker is None:
        return {}
    unknown = set(marker.kwargs) - {"manifest", "name", "scene", "args"}
    if unknown or marker.args:
        raise pytest.UsageError(f"navsession marker: unknown arguments {sorted(unknown) or marker.args}; "
                                "takes manifest=, name=, scene=, args=")
    return dict(marker.kwargs)


@pytest.fixture
def navsession_manifest(request: Any) -> Optional[str]:
    """The manifest the daemon serves (``None``: the built-in demo)."""
    manifest = _marker(request).get("manifest")
    if manifest is None:
        return None
    path = Path(manifest)
    if not path.is_absolute():
        path = Path(str(request.node.fspath)).parent / path
    return str(path)


@pytest.fixture
def navsession_bus() -> Iterator[TestBus]:
    """A private dbus-daemon; DBUS_SESSION_BUS_ADDRESS points at it during the test."""
    bus = TestBus().start()
    saved = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    try:
        yield bus
    finally:
        if saved is None:
            os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
        else:
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = saved
        bus.stop()


@pytest.fixture
def navsession_daemon(request: Any, navsession_bus: TestBus, navsession_manifest: Optional[str]) -> Iterator[TestDaemon]:
    """``navsessiond --ephemeral`` on the private bus, owning its name."""
    marker = _marker(request)
    daemon = TestDaemon(navsession_bus.address, navsession_manifest, name=marker.get("name"),
                        args=tuple(marker.get("args", ())))
    try:
        daemon.start()
        yield daemon
    finally:
        daemon.close()


@pytest.fixture
def navsession_session(navsession_daemon: TestDaemon) -> Iterator[Session]:
    """A :class:`navsession.Session` of the daemon."""
    session = connect(navsession_daemon.address, navsession_daemon.name, start=False)
    try:
        yield session
    finally:
        session.close()


@pytest.fixture
def navsession_window(request: Any, navsession_session: Session) -> Window:
    """A window of the marker's ``scene`` (default: the first scene the manifest declares)."""
    scene = _marker(request).get("scene") or navsession_session.scenes[0]
    return navsession_session.open_window(scene)
