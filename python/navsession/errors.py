"""One exception class per documented D-Bus error name, generated from a table.

Every ``org.navsession.Error.<Name>`` the interface XML documents (``dbus/*.xml``) is a subclass of
:class:`NavSessionError` named ``<Name>`` (``navsession.errors.VersionMismatch``); the
``org.freedesktop.DBus.Error.<Name>`` names the XML documents are subclasses of :class:`DBusError`
(``navsession.errors.InvalidArgs``). Both tables come from the generated :mod:`navsession.contract`, so they
cannot drift from the XML.
An error name missing from the tables still raises :class:`NavSessionError` (or :class:`DBusError`) with its name.

Two classes are the package's own: :class:`Timeout` (also a ``TimeoutError``) for a wait that expired and for a
call whose reply did not come in time (GIO's ``timed-out``, the bus's ``NoReply``), and :class:`ProtocolError` for
a reply the package could not understand (a wrong D-Bus signature, JSON that does not parse or does not match the
package's schema for it; see :mod:`navsession.protocol`).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type

from gi.repository import Gio, GLib

from . import contract as _contract

NAVSESSION_PREFIX = "org.navsession.Error."
FREEDESKTOP_PREFIX = "org.freedesktop.DBus.Error."

#: The ``org.navsession.Error.*`` names of dbus/org.navsession.{Session1,Window1,GuardProvider1}.xml, from the
#: contract scripts/generate-interface writes (:mod:`navsession.contract`).
NAVSESSION_ERROR_NAMES = tuple(n[len(NAVSESSION_PREFIX):] for n in _contract.ERRORS if n.startswith(NAVSESSION_PREFIX))

#: The ``org.freedesktop.DBus.Error.*`` names the XML documents (the D-Bus machinery's and the limits').
FREEDESKTOP_ERROR_NAMES = tuple(
    n[len(FREEDESKTOP_PREFIX):] for n in _contract.ERRORS if n.startswith(FREEDESKTOP_PREFIX))


class NavSessionError(Exception):
    """A call the daemon refused (or that failed on the bus).

    ``name``: the D-Bus error name (``org.navsession.Error.VersionMismatch``); ``message``: the daemon's
    message without the name; ``detail``: the call's context, ``{"method", "path", "interface"}`` (values may be
    ``None`` when unknown)."""

    #: The D-Bus error name the class stands for (``None`` for the bases).
    error_name: Optional[str] = None

    def __init__(self, name: str, message: str, detail: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message
        self.detail: Dict[str, Any] = dict(detail or {})


class DBusError(NavSessionError):
    """An ``org.freedesktop.DBus.Error.*`` (bad arguments, limits, an unknown object, a transport failure)."""


class Timeout(NavSessionError, TimeoutError):
    """Time ran out: a ``wait_for``/``wait_settled`` (or a change stream's ``timeout``) expired (``name``
    ``navsession.Timeout``), or a call's reply did not come within its timeout (``name`` the GIO or D-Bus error:
    ``g-io-error-quark.timed-out``, ``org.freedesktop.DBus.Error.NoReply``…; ``detail`` the call's ``{"method",
    "path", "interface"}``). ``except TimeoutError`` catches it."""

    def __init__(self, message: str, detail: Optional[Dict[str, Any]] = None, *,
                 name: str = "navsession.Timeout") -> None:
        super().__init__(name, message, detail)


class ProtocolError(NavSessionError):
    """``navsession.ProtocolError``: a reply the package could not understand — a wrong D-Bus signature or shape,
    JSON that does not parse, or JSON that does not validate against the package's schema for that reply (a
    signal's or property's value likewise). ``message`` names the method (signal, property) and what was wrong;
    ``detail``: ``{"method", "path", "interface", "problem"}`` and, when a schema refused the JSON, ``"schema"``
    (``method`` is the signal's or property's name for those)."""

    def __init__(self, message: str, detail: Optional[Dict[str, Any]] = None) -> None:
        super().__init__("navsession.ProtocolError", message, detail)


def _make(name: str, base: Type[NavSessionError], prefix: str) -> Type[NavSessionError]:
    return type(name, (base,), {
        "error_name": prefix + name,
        "__doc__": f"``{prefix}{name}`` (see the interface XML and Docs/dbus-api.md).",
        "__module__": __name__,
    })


#: D-Bus error name → class, for every documented name.
ERROR_CLASSES: Dict[str, Type[NavSessionError]] = {}
for _name in NAVSESSION_ERROR_NAMES:
    ERROR_CLASSES[NAVSESSION_PREFIX + _name] = _make(_name, NavSessionError, NAVSESSION_PREFIX)
for _name in FREEDESKTOP_ERROR_NAMES:
    ERROR_CLASSES[FREEDESKTOP_PREFIX + _name] = _make(_name, DBusError, FREEDESKTOP_PREFIX)
globals().update({cls.__name__: cls for cls in ERROR_CLASSES.values()})
del _name


def error_class(name: str) -> Type[NavSessionError]:
    """The class for a D-Bus error name (the base class for a name no table lists)."""
    cls = ERROR_CLASSES.get(name)
    if cls is not None:
        return cls
    return NavSessionError if name.startswith(NAVSESSION_PREFIX) else DBusError


#: Remote D-Bus error names that mean the reply did not come in time (raised as :class:`Timeout`).
TIMEOUT_ERROR_NAMES = frozenset({
    FREEDESKTOP_PREFIX + "NoReply", FREEDESKTOP_PREFIX + "Timeout", FREEDESKTOP_PREFIX + "TimedOut",
})


def _io_error_nick(code: int) -> str:
    try:
        return Gio.IOErrorEnum(code).value_nick
    except ValueError:  # a code this GLib's enum does not know
        return str(code)


def from_glib_error(error: GLib.Error, method: Optional[str] = None, path: Optional[str] = None,
                    interface: Optional[str] = None) -> NavSessionError:
    """The typed exception for a ``GLib.Error`` a Gio call raised (``Gio.DBusError.get_remote_error``).

    A call that timed out — GIO's ``timed-out`` (the call's own timeout expired) or the bus's
    ``org.freedesktop.DBus.Error.NoReply``/``Timeout``/``TimedOut`` — is a :class:`Timeout` (a ``TimeoutError``)."""
    detail = {"method": method, "path": path, "interface": interface}
    name = Gio.DBusError.get_remote_error(error)
    message = error.message
    if name:
        prefix = f"GDBus.Error:{name}: "
        message = message[len(prefix):] if message.startswith(prefix) else message
        if name in TIMEOUT_ERROR_NAMES:
            return Timeout(message, detail, name=name)
    else:
        # A local failure (no reply, connection closed, cancelled): named after its GIO error code.
        is_io_error = error.domain == "g-io-error-quark"
        code = _io_error_nick(error.code) if is_io_error else str(error.code)
        name = f"{error.domain}.{code}"
        if is_io_error and error.code == int(Gio.IOErrorEnum.TIMED_OUT):
            return Timeout(message, detail, name=name)
    return error_class(name)(name, message, detail)


__all__ = ["NavSessionError", "DBusError", "Timeout", "ProtocolError", "ERROR_CLASSES", "NAVSESSION_ERROR_NAMES",
           "FREEDESKTOP_ERROR_NAMES", "TIMEOUT_ERROR_NAMES", "error_class", "from_glib_error",
           *(c.__name__ for c in ERROR_CLASSES.values())]
