"""One exception class per documented D-Bus error name, generated from a table.

Every ``org.navsession.Error.<Name>`` the interface XML documents (``dbus/*.xml``) is a subclass of
:class:`NavSessionError` named ``<Name>`` (``navsession.errors.VersionMismatch``); the
``org.freedesktop.DBus.Error.<Name>`` names the XML documents are subclasses of :class:`DBusError`
(``navsession.errors.InvalidArgs``). A test compares both tables with the XML, so they cannot drift.
An error name missing from the tables still raises :class:`NavSessionError` (or :class:`DBusError`) with its name.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type

from gi.repository import Gio, GLib

NAVSESSION_PREFIX = "org.navsession.Error."
FREEDESKTOP_PREFIX = "org.freedesktop.DBus.Error."

#: The ``org.navsession.Error.*`` names of dbus/org.navsession.{Session1,Window1,GuardProvider1}.xml.
NAVSESSION_ERROR_NAMES = (
    "AlreadyAtRoot", "AlreadyPresenting", "BadParameter", "BlockedByDialog", "CannotPresent", "Denied",
    "DetachedModel", "DuplicateElement", "DuplicateScheduled", "DuplicateTag", "EmptyBatch", "EmptyPath",
    "EntryRefused", "GuardTaken", "HandlerCycle", "HandlerDepthExceeded", "InvalidBatch", "InvalidCommand",
    "InvalidCount", "InvalidEffect", "InvalidManifest", "InvalidRoute", "InvalidSnapshot", "InvalidSpec",
    "InvalidURL", "MalformedURL", "MissingParameter", "NoContainer", "NoPresenter", "NoStack", "NoSwitched",
    "NoTabs", "NotInStack", "NotInsidePresentation", "NotPresented", "NothingToDismiss", "NothingToGoBack",
    "NothingToGoForward", "NothingToHide", "PresenterIsLeaf", "Prevented", "RouteNotFound", "ScreenNotInStack",
    "SlotOccupied", "StaleReport", "StorageFailed", "TransitionNotEligible", "UnknownAction", "UnknownChild",
    "UnknownClosedWindow", "UnknownDialog", "UnknownGuard", "UnknownModel", "UnknownPresentationKind",
    "UnknownRoute", "UnknownScene", "UnknownScheduled", "UnknownScreen", "UnknownTab", "UnknownTag",
    "VersionMismatch", "VersionNotKept", "WindowClosed", "WrongKind", "WrongScheme",
)

#: The ``org.freedesktop.DBus.Error.*`` names the XML documents (the D-Bus machinery's and the limits').
FREEDESKTOP_ERROR_NAMES = (
    "AccessDenied", "Failed", "InvalidArgs", "LimitsExceeded", "NotSupported", "PropertyReadOnly",
    "UnknownInterface", "UnknownMethod", "UnknownObject", "UnknownProperty",
)


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
    """A ``wait_for``/``wait_settled`` (or a change stream's ``timeout``) expired."""

    def __init__(self, message: str, detail: Optional[Dict[str, Any]] = None) -> None:
        super().__init__("navsession.Timeout", message, detail)


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


def from_glib_error(error: GLib.Error, method: Optional[str] = None, path: Optional[str] = None,
                    interface: Optional[str] = None) -> NavSessionError:
    """The typed exception for a ``GLib.Error`` a Gio call raised (``Gio.DBusError.get_remote_error``)."""
    name = Gio.DBusError.get_remote_error(error)
    message = error.message
    if name:
        prefix = f"GDBus.Error:{name}: "
        message = message[len(prefix):] if message.startswith(prefix) else message
    else:
        # A local failure (no reply, connection closed, cancelled): named after its GIO error code.
        code = Gio.IOErrorEnum(error.code).value_nick if error.domain == "g-io-error-quark" else str(error.code)
        name = f"{error.domain}.{code}"
    exc = error_class(name)(name, message, {"method": method, "path": path, "interface": interface})
    return exc


__all__ = ["NavSessionError", "DBusError", "Timeout", "ERROR_CLASSES", "NAVSESSION_ERROR_NAMES",
           "FREEDESKTOP_ERROR_NAMES", "error_class", "from_glib_error", *(c.__name__ for c in ERROR_CLASSES.values())]
