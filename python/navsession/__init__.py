"""NavSession for Python: a Gio (PyGObject) client of navsessiond and a pytest plugin.

    import navsession
    from navsession import commands as c

    session = navsession.connect()              # the session bus, org.navsession.Demo
    window = session.open_window("main")
    window.apply([c.push("detail", {"id": "42"})])
    print(window.active_screen, window.version)

See Docs/python.md in the NavSession repository.
"""

from . import commands, documents, errors, protocol, specs
from .client import (CALL_TIMEOUT_MS, DEMO_NAME, GUARD_PROVIDER_IFACE, GUARD_PROVIDER_PATH, SESSION_IFACE,
                     SESSION_PATH, WAIT_TIMEOUT, WINDOW_IFACE, Allow, Announcement, Change, ChangeStream, Deny, Event,
                     GuardProvider, GuardQuestion, Redirect, RendererSteps, Resync, Session, Verdict, Window, connect,
                     open_bus)
from .commands import Command, batch_json
from .errors import DBusError, NavSessionError, ProtocolError, Timeout
from .specs import Presentation, Route

__version__ = "0.1.0"

__all__ = [
    "connect", "open_bus", "Session", "Window", "Change", "Resync", "Event", "ChangeStream", "Announcement",
    "RendererSteps", "Command", "batch_json",
    "GuardProvider", "GuardQuestion", "Verdict", "Allow", "Deny", "Redirect",
    "Presentation", "Route", "NavSessionError", "DBusError", "Timeout", "ProtocolError", "commands", "specs", "errors",
    "documents", "protocol", "DEMO_NAME",
    "SESSION_PATH", "SESSION_IFACE", "WINDOW_IFACE", "GUARD_PROVIDER_PATH", "GUARD_PROVIDER_IFACE", "CALL_TIMEOUT_MS",
    "WAIT_TIMEOUT",
]
