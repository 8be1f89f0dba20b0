#!/usr/bin/env python3
"""Follows a window of navsessiond (session bus, the demo's org.navsession.Demo) and pushes a screen."""
import navsession
from navsession import commands as c

session = navsession.connect()                         # $DBUS_SESSION_BUS_ADDRESS
window = session.open_window("main")
changes = window.changes(timeout=10)                   # subscribed now: nothing after this is missed
window.switch_model("main")                            # log in: the tabs with the home stack
version, _ = window.apply([c.push("detail", {"id": "42"})], expected_version=window.version)
for event in changes:                                  # navsession.Change, or navsession.Resync after a gap
    steps = [step["kind"] for step in event.steps] if isinstance(event, navsession.Change) else "resync"
    print(f"version {event.version}: {steps}")
    if event.version == version:
        break
print(f"now on {window.active_screen}, can go back: {window.can_go_back}")
