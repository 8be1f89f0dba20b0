"""Timeouts and replies the package cannot understand: ``navsession.errors.Timeout`` (a ``TimeoutError``) and
``navsession.errors.ProtocolError``.

The malformed replies come from a stand-in: Session1 and Window1 objects a thread of the test exports with Gio
on the test's private bus under a bus name of their own, answering each method with what the test says; the
package's ``Session``/``Window`` are pointed at that name. Valid replies are the real daemon's, replayed."""

import asyncio
import json

import pytest
from gi.repository import Gio, GLib

import navsession
from navsession import client, errors, protocol
from navsession import commands as c
from navsession.testing import until

from loop_thread import LoopThread

STAND_IN_NAME = "org.navsession.StandIn"
SESSION_PATH = "/org/navsession/Session1"
WINDOW_PATH = "/org/navsession/Session1/window/1"
NEVER = object()  # an answer: keep the call unanswered
#: The in arguments of the stand-in's methods that take some (as the interface XML declares them).
INPUTS = {"Plan": "ssbb", "GetStateAt": "t", "Apply": "sa{ss}", "Check": "sa{ss}", "GetAnnouncement": "s",
          "GetStats": "s", "RegisterRenderer": "ss"}
STARTUP_TIMEOUT = 30.0


class DBusErrorReply:
    """An answer: the D-Bus error ``name``."""

    def __init__(self, name, message="refused by the stand-in"):
        self.name = name
        self.message = message


def interface_xml(name, methods, properties=None):
    """The introspection XML of a stand-in interface: each method's out arguments are its answer's types."""
    parts = [f'<interface name="{name}">']
    for method, answer in methods.items():
        signature = INPUTS.get(method, "")
        args = [f'<arg direction="in" type="{t}"/>' for t in GLib.Variant.split_signature(f"({signature})")] \
            if signature else []
        if isinstance(answer, GLib.Variant):
            args += [f'<arg direction="out" type="{answer.get_child_value(i).get_type_string()}"/>'
                     for i in range(answer.n_children())]
        parts.append(f'<method name="{method}">{"".join(args)}</method>')
    for prop, value in (properties or {}).items():
        parts.append(f'<property name="{prop}" type="{value.get_type_string()}" access="read"/>')
    parts.append("</interface>")
    return "".join(parts)


class StandIn(LoopThread):
    """A stand-in for navsessiond: owns ``STAND_IN_NAME`` on ``address`` from a thread with its own main context
    and loop (so the test thread can block in a call meanwhile)."""

    def __init__(self, address, session_methods=None, window_methods=None, window_properties=None):
        self.address = address
        self.answers = {"org.navsession.Session1": dict(session_methods or {}),
                        "org.navsession.Window1": dict(window_methods or {}),
                        "org.freedesktop.DBus.ObjectManager": {
                            "GetManagedObjects": GLib.Variant("(a{oa{sa{sv}}})", ({},))}}
        super().__init__("navsession-stand-in", STARTUP_TIMEOUT)
        self.properties = dict(window_properties or {})
        self.connection = None
        self.unanswered = []

    def _objects(self):
        session = "<node>" + interface_xml("org.navsession.Session1", self.answers["org.navsession.Session1"]) \
            + interface_xml("org.freedesktop.DBus.ObjectManager",
                            self.answers["org.freedesktop.DBus.ObjectManager"]) + "</node>"
        window = "<node>" + interface_xml("org.navsession.Window1", self.answers["org.navsession.Window1"],
                                          self.properties) + "</node>"
        return [(SESSION_PATH, session), (WINDOW_PATH, window)]

    def _on_call(self, _connection, _sender, _path, interface, method, _parameters, invocation):
        answer = self.answers[interface][method]
        if answer is NEVER:
            self.unanswered.append(invocation)
        elif isinstance(answer, DBusErrorReply):
            invocation.return_dbus_error(answer.name, answer.message)
        else:
            invocation.return_value(answer)

    def _on_get(self, _connection, _sender, _path, _interface, name):
        return self.properties[name]

    def serve(self):
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.connection = Gio.DBusConnection.new_for_address_sync(self.address, flags, None, None)
        for path, xml in self._objects():
            for info in Gio.DBusNodeInfo.new_for_xml(xml).interfaces:
                self.connection.register_object(path, info, self._on_call, self._on_get, None)
        self.connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "RequestName", GLib.Variant("(su)", (STAND_IN_NAME, 4)), None,
                                  Gio.DBusCallFlags.NONE, -1, None)

    def release(self):
        self.unanswered.clear()
        if self.connection is not None and not self.connection.is_closed():
            self.connection.close_sync(None)

    def emit(self, signal, signature, args):
        self.connection.emit_signal(None, WINDOW_PATH, "org.navsession.Window1", signal, GLib.Variant(signature, args))



@pytest.fixture
def stand_in(navsession_bus):
    """``stand_in(session_methods=…, window_methods=…, window_properties=…)``: starts a stand-in and
    returns a ``navsession.Session`` of it (its window: ``session.window(WINDOW_PATH)``)."""
    started = []

    def start(**answers):
        service = StandIn(navsession_bus.address, **answers).start()
        session = navsession.connect(navsession_bus.address, STAND_IN_NAME, start=False)
        started.append((service, session))
        session.stand_in = service
        return session

    yield start
    for service, session in reversed(started):
        session.close()
        service.stop()


@pytest.fixture
def no_jsonschema(monkeypatch):
    """The package as without python3-jsonschema: structural checks only."""
    monkeypatch.setattr(protocol, "JSONSCHEMA", None)


def closed_json_of_the_daemon(session):
    """A real ListClosedWindows reply: a window of the demo opened, moved and closed."""
    window = session.open_window("main")
    window.switch_model("main")
    window.close()
    (text,) = session.call("ListClosedWindows")
    assert json.loads(text), "the daemon lists the closed window"
    return text


def window_answering(stand_in, **methods):
    return stand_in(window_methods=methods, window_properties=WINDOW_PROPERTIES).window(WINDOW_PATH)


CAUSE = '{"commands":[{"command":"stackDropLast"}]}'
WINDOW_PROPERTIES = {"Version": GLib.Variant("t", 1), "ActiveScreen": GLib.Variant("s", "home"),
                     "Routes": GLib.Variant("s", "[]"), "Protected": GLib.Variant("s", "[]"),
                     "PendingNavigation": GLib.Variant("s", "")}


# -- from_glib_error ------------------------------------------------------------------------------------------

def test_a_GIO_timed_out_error_becomes_Timeout_with_the_calls_detail():
    error = GLib.Error.new_literal(Gio.io_error_quark(), "Timeout was reached", int(Gio.IOErrorEnum.TIMED_OUT))
    exc = errors.from_glib_error(error, "GetState", "/w", "org.navsession.Window1")
    assert type(exc) is errors.Timeout and isinstance(exc, TimeoutError)
    assert exc.name == "g-io-error-quark.timed-out"
    assert exc.detail == {"method": "GetState", "path": "/w", "interface": "org.navsession.Window1"}


@pytest.mark.parametrize("name", sorted(errors.TIMEOUT_ERROR_NAMES))
def test_a_remote_no_reply_or_timeout_error_becomes_Timeout_keeping_its_name(name):
    error = Gio.DBusError.new_for_dbus_error(name, "too slow")  # what GDBus makes of that error reply
    exc = errors.from_glib_error(error, "GetState")
    assert type(exc) is errors.Timeout and exc.name == name and exc.message == "too slow"


def test_ProtocolError_is_a_NavSessionError_exported_by_the_package():
    assert navsession.ProtocolError is errors.ProtocolError
    assert issubclass(errors.ProtocolError, errors.NavSessionError)
    assert not issubclass(errors.ProtocolError, errors.DBusError)
    assert "ProtocolError" in errors.__all__ and "ProtocolError" in navsession.__all__


# -- timeouts -------------------------------------------------------------------------------------------------

def test_a_call_that_is_never_answered_raises_Timeout_which_except_TimeoutError_catches(stand_in):
    session = stand_in(session_methods={"ListClosedWindows": NEVER})
    caught = None
    try:
        session.call("ListClosedWindows", timeout_ms=200)
    except TimeoutError as error:
        caught = error
    assert isinstance(caught, errors.Timeout)
    assert caught.detail == {"method": "ListClosedWindows", "path": SESSION_PATH,
                             "interface": "org.navsession.Session1"}


def test_a_NoReply_error_from_the_bus_raises_Timeout(stand_in):
    session = stand_in(session_methods={
        "ListClosedWindows": DBusErrorReply("org.freedesktop.DBus.Error.NoReply", "the service did not reply")})
    with pytest.raises(errors.Timeout) as raised:
        session.closed_windows()
    assert raised.value.name == "org.freedesktop.DBus.Error.NoReply"


def test_an_awaited_call_that_is_never_answered_raises_Timeout(stand_in):
    window = window_answering(stand_in, GetState=NEVER)
    with pytest.raises(TimeoutError):
        asyncio.run(window.call_awaitable("GetState", timeout_ms=200))


# -- malformed replies ----------------------------------------------------------------------------------------

def test_ListClosedWindows_answering_a_JSON_object_raises_ProtocolError_naming_the_method(stand_in):
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(s)", ('{"id": "1"}',))})
    with pytest.raises(errors.ProtocolError) as raised:
        session.closed_windows()
    assert str(raised.value).startswith("navsession.ProtocolError: ListClosedWindows: closed_json ")
    assert raised.value.detail["method"] == "ListClosedWindows"


@pytest.mark.skipif(protocol.jsonschema_module() is None, reason="needs python3-jsonschema")
def test_a_reply_the_schema_refuses_names_the_schema(stand_in):
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(s)", ('[{"id": "1"}]',))})
    with pytest.raises(errors.ProtocolError) as raised:
        session.closed_windows()
    assert raised.value.detail["schema"] == "closed-windows.json"


def test_without_jsonschema_a_dict_shaped_ListClosedWindows_still_raises_ProtocolError(stand_in, no_jsonschema):
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(s)", ('{"id": "1"}',))})
    with pytest.raises(errors.ProtocolError, match="ListClosedWindows: closed_json is not the expected shape"):
        session.closed_windows()


def test_ListClosedWindows_answering_text_that_is_not_JSON_raises_ProtocolError(stand_in):
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(s)", ("no windows",))})
    with pytest.raises(errors.ProtocolError, match="ListClosedWindows: closed_json is not JSON"):
        session.closed_windows()


def test_ListClosedWindows_answering_another_DBus_type_raises_ProtocolError(stand_in):
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(i)", (3,))})
    with pytest.raises(errors.ProtocolError,
                       match=r"ListClosedWindows: the reply's D-Bus signature is \(i\), expected \(s\)"):
        session.closed_windows()


@pytest.mark.parametrize("method, read", [
    ("GetState", lambda window, session: window.state()),
    ("GetStateAt", lambda window, session: window.state_at(1)),
    ("GetRoutes", lambda window, session: window.routes()),
    ("GetHistory", lambda window, session: window.history()),
    ("ExportTrace", lambda window, session: window.trace()),
    ("ListClosedWindows", lambda window, session: session.closed_windows()),
    ("Plan", lambda window, session: session.plan([], [])),
])
def test_each_JSON_reply_that_does_not_parse_raises_ProtocolError_naming_its_method(stand_in, method, read):
    answer = {method: GLib.Variant("(s)", ("{",))}
    session = stand_in(session_methods=answer if method in ("ListClosedWindows", "Plan") else {},
                       window_methods=answer, window_properties=WINDOW_PROPERTIES)
    with pytest.raises(errors.ProtocolError, match=f"^navsession.ProtocolError: {method}: .* is not JSON"):
        read(session.window(WINDOW_PATH), session)


def test_a_snapshot_without_models_raises_ProtocolError_not_KeyError(stand_in):
    window = window_answering(stand_in, GetState=GLib.Variant("(s)", ('{"version": 3}',)))
    with pytest.raises(errors.ProtocolError, match="^navsession.ProtocolError: GetState: state_json "):
        window.state()


def test_without_jsonschema_a_route_without_a_screen_raises_ProtocolError_not_KeyError(stand_in, no_jsonschema):
    window = window_answering(stand_in, GetRoutes=GLib.Variant("(s)", ('[{"style": "push"}]',)))
    with pytest.raises(errors.ProtocolError, match="GetRoutes: routes_json .*'screen' is missing"):
        window.routes()


def test_a_plan_whose_states_are_not_route_arrays_raises_ProtocolError(stand_in):
    session = stand_in(session_methods={"Plan": GLib.Variant("(s)", ('[{"style": "push", "screen": "a"}]',))})
    with pytest.raises(errors.ProtocolError, match="^navsession.ProtocolError: Plan: states "):
        session.plan([], [])


def test_a_Routes_property_that_is_not_a_route_array_raises_ProtocolError_naming_it(stand_in):
    window = stand_in(window_properties={**WINDOW_PROPERTIES, "Routes": GLib.Variant("s", '{"style": "push"}')}) \
        .window(WINDOW_PATH)
    with pytest.raises(errors.ProtocolError, match="^navsession.ProtocolError: Routes: "):
        window.current_routes


def test_a_property_of_another_DBus_type_raises_ProtocolError(stand_in):
    window = stand_in(window_properties={**WINDOW_PROPERTIES, "Version": GLib.Variant("s", "1")}).window(WINDOW_PATH)
    with pytest.raises(errors.ProtocolError, match=r"Version: the property's D-Bus type is s, expected t"):
        window.version


def test_apply_async_answered_with_another_DBus_type_raises_ProtocolError(stand_in):
    window = window_answering(stand_in, Apply=GLib.Variant("(s)", ("done",)))
    with pytest.raises(errors.ProtocolError, match=r"Apply: the reply's D-Bus signature is \(s\), expected \(tat\)"):
        asyncio.run(window.apply_async([c.pop()]))


def test_call_async_passes_a_malformed_reply_to_on_error(stand_in):
    window = window_answering(stand_in, Check=GLib.Variant("(t)", (4,)))
    outcome = []
    window.call_async("Check", "(sa{ss})", ("[]", {}), on_reply=outcome.append, on_error=outcome.append)
    until(lambda: outcome, "outcome", context=window.session.context)
    assert isinstance(outcome[0], errors.ProtocolError) and outcome[0].detail["method"] == "Check"


def test_a_Changed_signal_with_malformed_steps_raises_ProtocolError_from_the_change_stream(stand_in):
    window = window_answering(stand_in)
    stream = window.changes(timeout=30)
    window.session.stand_in.emit("Changed", "(ttsbatats)", (2, 1, CAUSE, False, [], [], '{"kind": "push"}'))
    with pytest.raises(errors.ProtocolError, match="^navsession.ProtocolError: Changed: steps_json "):
        next(stream)
    stream.close()


def test_after_a_malformed_Changed_the_stream_resynchronises_on_the_next_change(stand_in, navsession_window):
    snapshot = navsession_window.call("GetState")[0]
    version = json.loads(snapshot)["version"]
    window = window_answering(stand_in, GetState=GLib.Variant("(s)", (snapshot,)))
    stream = window.changes(timeout=30)
    window.session.stand_in.emit("Changed", "(ttsbatats)", (2, 1, CAUSE, False, [], [], "not json"))
    window.session.stand_in.emit("Changed", "(ttsbatats)", (3, 2, CAUSE, False, [], [], "[]"))
    with pytest.raises(errors.ProtocolError):
        next(stream)
    event = next(stream)
    assert isinstance(event, navsession.Resync) and event.version == max(version, 3)
    stream.close()


def test_a_Changed_without_PropertiesChanged_is_delivered_after_the_bound_with_GetAll_s_properties(
        stand_in, monkeypatch):
    """The stand-in moves to version 2 and says so only with Changed: after client.PROPERTIES_WAIT the package
    reads GetAll, and the callback sees what it read."""
    monkeypatch.setattr(client, "PROPERTIES_WAIT", 0.05)
    session = stand_in(window_properties=dict(WINDOW_PROPERTIES))
    window = session.window(WINDOW_PATH)
    seen = []
    stop = window.connect_changed(lambda change: seen.append((change.version, window.version, window.active_screen)))
    session.stand_in.properties["Version"] = GLib.Variant("t", 2)
    session.stand_in.properties["ActiveScreen"] = GLib.Variant("s", "detail")
    session.stand_in.emit("Changed", "(ttsbatats)", (2, 1, CAUSE, False, [], [], "[]"))
    until(lambda: seen, "seen", context=session.context)
    stop()
    assert seen == [(2, 2, "detail")]


def test_an_Announcement_of_another_DBus_type_goes_to_on_error_and_the_next_valid_one_is_delivered(stand_in):
    window = window_answering(stand_in)
    heard, failed = [], []
    stop = window.connect_announcement(heard.append, failed.append)
    window.session.stand_in.emit("Announcement", "(sss)", ("1", "Detail", "9"))
    window.session.stand_in.emit("Announcement", "(tst)", (1, "Detail", 9))
    until(lambda: heard, "heard", context=window.session.context)
    stop()
    [error] = failed
    assert isinstance(error, errors.ProtocolError) and error.detail["method"] == "Announcement"
    assert "(sss), expected (tst)" in error.message
    assert heard == [navsession.Announcement(1, "Detail", 9)]


def test_GetAnnouncement_answering_another_DBus_type_raises_ProtocolError(stand_in):
    window = window_answering(stand_in, GetAnnouncement=GLib.Variant("(ts)", (1, "Detail")))
    with pytest.raises(errors.ProtocolError, match="GetAnnouncement: the reply's D-Bus signature is \\(ts\\)"):
        window.get_announcement("fr")


def test_a_Steps_signal_of_another_DBus_type_or_with_bad_steps_goes_to_on_error_and_a_valid_one_is_delivered(
        stand_in):
    window = window_answering(stand_in)
    heard, failed = [], []
    stop = window.connect_steps(heard.append, failed.append)
    window.session.stand_in.emit("Steps", "(sss)", ("1", "[]", "r1"))
    window.session.stand_in.emit("Steps", "(tss)", (1, '{"kind":"push"}', "r1"))
    window.session.stand_in.emit("Steps", "(tss)", (1, '[{"kind":"push","stack":2,"models":[3]}]', "r1"))
    until(lambda: heard, "heard", context=window.session.context)
    stop()
    assert len(failed) == 2 and all(isinstance(error, errors.ProtocolError) for error in failed), failed
    assert all(error.detail["method"] == "Steps" for error in failed)
    assert "(sss), expected (tss)" in failed[0].message
    [steps] = heard
    assert (steps.window, steps.version, steps.steps, steps.renderer_id) == (
        WINDOW_PATH, 1, [{"kind": "push", "stack": 2, "models": [3]}], "r1")


def test_GetStats_answering_another_DBus_type_or_a_document_of_another_shape_raises_ProtocolError(stand_in):
    session = stand_in(session_methods={"GetStats": GLib.Variant("(i)", (1,))})
    with pytest.raises(errors.ProtocolError, match=r"GetStats: the reply's D-Bus signature is \(i\)"):
        session.get_stats()
    session = stand_in(session_methods={"GetStats": GLib.Variant("(s)", ('{"screens": []}',))})
    with pytest.raises(errors.ProtocolError) as raised:
        session.get_stats()
    assert raised.value.detail["method"] == "GetStats"


def test_GetStats_in_the_openmetrics_form_is_the_text_as_it_comes(stand_in):
    session = stand_in(session_methods={"GetStats": GLib.Variant("(s)", ("# EOF\n",))})
    assert session.get_stats({"format": "openmetrics"}) == "# EOF\n"


def test_a_Renderers_property_of_another_shape_raises_ProtocolError(stand_in):
    session = stand_in(window_properties={**WINDOW_PROPERTIES, "Renderers": GLib.Variant("s", '[{"id": 1}]'),
                                          "VisibleModels": GLib.Variant("at", [3, 4])})
    window = session.window(WINDOW_PATH)
    assert window.visible_models == [3, 4]
    with pytest.raises(errors.ProtocolError) as raised:
        window.renderers
    assert raised.value.detail["method"] == "Renderers"


def test_RegisterRenderer_answering_another_DBus_type_raises_ProtocolError(stand_in):
    window = window_answering(stand_in, RegisterRenderer=GLib.Variant("(u)", (1,)))
    with pytest.raises(errors.ProtocolError, match=r"RegisterRenderer: the reply's D-Bus signature is \(u\)"):
        window.register_renderer("mirror")


# -- valid replies pass ---------------------------------------------------------------------------------------

def test_a_valid_ListClosedWindows_reply_from_the_daemon_passes_through_the_stand_in(stand_in, navsession_session):
    text = closed_json_of_the_daemon(navsession_session)
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(s)", (text,))})
    assert session.closed_windows() == json.loads(text)


def test_without_jsonschema_a_valid_ListClosedWindows_reply_passes(stand_in, navsession_session, no_jsonschema):
    text = closed_json_of_the_daemon(navsession_session)
    session = stand_in(session_methods={"ListClosedWindows": GLib.Variant("(s)", (text,))})
    assert session.closed_windows() == json.loads(text)


def test_the_daemons_documents_validate(navsession_session):
    window = navsession_session.open_window("main")
    window.switch_model("main")
    window.apply([c.push("detail", {"id": "42"}), c.protect("unsaved")])
    assert window.state()["version"] == window.version
    assert window.state_at(window.version)["version"] == window.version
    assert [r.screen for r in window.routes()] == [r.screen for r in window.current_routes]
    assert window.history() and window.trace()
    assert window.protected and window.protected[0]["reason"] == "unsaved"
    assert navsession_session.plan([], window.routes())
