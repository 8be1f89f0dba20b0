"""Checking what the daemon answers: D-Bus signatures, JSON documents, schemas.

Every reply, signal and property value the package decodes goes through here first, and anything it cannot
understand raises :class:`navsession.errors.ProtocolError` (never a raw ``TypeError``/``ValueError``/``KeyError``
or ``json.JSONDecodeError``, never a wrongly shaped value passed on):

- **D-Bus signatures**: the reply of every ``Session1``/``Window1`` method, the ``Changed``, ``Announcement`` and
  ``Steps`` signals and each property must have the type ``dbus/org.navsession.{Session1,Window1}.xml`` declares
  (the tables below, which a test compares with the XML). Methods, signals and properties no table lists are
  passed on unchecked.
- **JSON documents**: a JSON string must parse, and then validate against the package's copy of the daemon's JSON
  Schema for it (``navsession/schemas/``, a byte-for-byte copy of the repository's ``schemas/``, which a test
  keeps current; ``schemas/kinds.json`` names the schema of each document) when the ``jsonschema`` module is
  importable (Debian: ``python3-jsonschema``). Without it, a structural check stands in: the document's type and
  the keys (and their types) the package reads. Each validator is compiled once, when first needed; a small
  document already validated is not validated again; a document longer than :data:`SCHEMA_MAX_CHARS` (a long
  trace: validation time grows with the size) gets the structural check only.

:data:`JSONSCHEMA` is the ``jsonschema`` module in use (``None``: the structural checks only), imported when the
first document is checked (:func:`jsonschema_module`; importing it takes a while, so ``import navsession`` does
not); set it to ``None`` to skip schema validation.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple

from gi.repository import GLib

from .contract import INTERFACES
from .errors import ProtocolError

_NOT_YET = object()

#: The ``jsonschema`` module the JSON documents are validated with (``None``: structural checks only); imported
#: by :func:`jsonschema_module` on first use.
JSONSCHEMA: Any = _NOT_YET


def jsonschema_module() -> Any:
    """The ``jsonschema`` module (imported now if it was not yet), or ``None`` when it is not installed or
    :data:`JSONSCHEMA` was set to ``None``."""
    global JSONSCHEMA
    if JSONSCHEMA is _NOT_YET:
        try:
            import jsonschema
        except ImportError:  # pragma: no cover - depends on the installation
            jsonschema = None
        JSONSCHEMA = jsonschema
    return JSONSCHEMA

#: The package's copy of the daemon's JSON Schemas (package data).
SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
SCHEMA_BASE = "https://navsession.org/schemas/"

SESSION_IFACE = "org.navsession.Session1"
WINDOW_IFACE = "org.navsession.Window1"
PROPERTIES_IFACE = "org.freedesktop.DBus.Properties"

# -- D-Bus signatures (dbus/org.navsession.{Session1,Window1}.xml; a test compares them) ------------------------

#: Interface → method → the reply's signature (its out arguments as one tuple type), from the generated contract.
REPLY_SIGNATURES: Dict[str, Dict[str, str]] = {
    **{
        interface: {
            name: "(" + "".join(kind for _, kind in method["out"]) + ")"
            for name, method in declared["methods"].items()
        }
        for interface, declared in INTERFACES.items() if interface in (SESSION_IFACE, WINDOW_IFACE)
    },
    PROPERTIES_IFACE: {"Get": "(v)", "GetAll": "(a{sv})", "Set": "()"},
}

#: Interface → property → its D-Bus type, from the generated contract.
PROPERTY_TYPES: Dict[str, Dict[str, str]] = {
    interface: {name: kind for name, (kind, _) in declared["properties"].items()}
    for interface, declared in INTERFACES.items() if interface in (SESSION_IFACE, WINDOW_IFACE)
}

#: Interface → signal → its arguments' signature (the signals the package decodes: ``Changed``, and
#: ``Announcement`` and ``Steps``, whose first argument is the version of the change they are about), from the
#: generated contract.
SIGNAL_SIGNATURES: Dict[str, Dict[str, str]] = {
    WINDOW_IFACE: {
        name: "(" + "".join(kind for _, kind in INTERFACES[WINDOW_IFACE]["signals"][name]) + ")"
        for name in ("Changed", "Announcement", "Steps")
    },
}


def detail(method: Optional[str], path: Optional[str], interface: Optional[str], **more: Any) -> Dict[str, Any]:
    """The ``detail`` of a :class:`ProtocolError`: the member (method, signal or property), path and interface."""
    return {"method": method, "path": path, "interface": interface, **more}


def fail(where: Dict[str, Any], problem: str, **more: Any) -> ProtocolError:
    """A :class:`ProtocolError` for ``where`` (see :func:`detail`): ``"<member>: <problem>"``."""
    return ProtocolError(f"{where.get('method') or 'reply'}: {problem}", {**where, "problem": problem, **more})


def split_method(method: str, interface: Optional[str]) -> Tuple[Optional[str], str]:
    """``("org.freedesktop.DBus.Properties", "Get")`` for ``"org.freedesktop.DBus.Properties.Get"``; a bare name
    keeps ``interface``."""
    if "." in method:
        iface, _, name = method.rpartition(".")
        return iface, name
    return interface, method


def check_reply(reply: Optional[GLib.Variant], method: str, path: Optional[str],
                interface: Optional[str]) -> Tuple[Any, ...]:
    """The unpacked reply of ``method``; :class:`ProtocolError` when its signature is not the documented one."""
    iface, name = split_method(method, interface)
    expected = REPLY_SIGNATURES.get(iface or "", {}).get(name)
    if reply is None:
        got = "()"
    else:
        got = reply.get_type_string()
    if expected is not None and got != expected:
        raise fail(detail(method, path, interface),
                   f"the reply's D-Bus signature is {got}, expected {expected}")
    if reply is None:
        return ()
    if not got.startswith("("):  # pragma: no cover - GDBus replies are tuples
        raise fail(detail(method, path, interface), f"the reply is a {got}, not a tuple")
    return tuple(reply.unpack())


def check_property(value: GLib.Variant, name: str, path: Optional[str], interface: str) -> Any:
    """The unpacked value of property ``name``; :class:`ProtocolError` when its type is not the documented one."""
    expected = PROPERTY_TYPES.get(interface, {}).get(name)
    got = value.get_type_string()
    if expected is not None and got != expected:
        raise fail(detail(name, path, interface), f"the property's D-Bus type is {got}, expected {expected}")
    return value.unpack()


def check_signal(params: GLib.Variant, name: str, path: Optional[str], interface: str) -> Tuple[Any, ...]:
    """The unpacked arguments of signal ``name``; :class:`ProtocolError` for another signature."""
    expected = SIGNAL_SIGNATURES.get(interface, {}).get(name)
    got = params.get_type_string() if params is not None else "()"
    if expected is not None and got != expected:
        raise fail(detail(name, path, interface), f"the signal's D-Bus signature is {got}, expected {expected}")
    return tuple(params.unpack()) if params is not None else ()


# -- JSON documents ---------------------------------------------------------------------------------------------

class _Optional:
    """A key a structural shape allows to be absent."""

    def __init__(self, shape: Any) -> None:
        self.shape = shape


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_ROUTE = {"style": str, "screen": str, "params": _Optional({str: str}), "withNavigation": _Optional(bool)}
_SNAPSHOT = {"formatVersion": _int, "version": _int, "nextModelID": _int, "root": _int,
             "models": [{"id": _int, "kind": str, "screen": str, "params": dict, "attachment": dict}]}

#: Document kind (as ``schemas/kinds.json`` names them) → the shape the structural check requires: a type, a
#: predicate, ``[item shape]`` (a list of such items), ``{key: shape}`` (an object with these keys; more keys are
#: allowed), ``{str: shape}`` (an object whose values have that shape).
SHAPES: Dict[str, Any] = {
    "GetState.state_json": _SNAPSHOT,
    "GetStateAt.state_json": _SNAPSHOT,
    "GetRoutes.routes_json": [_ROUTE],
    "Routes": [_ROUTE],
    "Plan.states": [[_ROUTE]],
    "GetHistory.history_json": [{"version": _int, "cause": dict, "activeScreen": str}],
    "ExportTrace.trace_json": dict,
    "ListClosedWindows.closed_json": [{"id": str, "window": _int, "scene": str, "activeScreen": str,
                                       "closedAt": _int, "snapshot": _SNAPSHOT}],
    "ListSessions.sessions_json": [{"name": str, "savedAt": _int, "windows": [{"scene": str, "title": str,
                                                                             "activeScreen": str}]}],
    "Changed.cause_json": dict,
    "Changed.steps_json": [{"kind": str}],
    "Protected": [{"model": _int, "reason": str, "owner": str}],
    "PendingNavigation": dict,
    "GetStats.json": {"funnels": {str: {"steps": [str], "reached": [_int]}}, "guards": {str: {str: _int}},
                      "now": _int, "screens": {str: {"visits": _int, "milliseconds": _int, "showing": _int}}},
    "Renderers": [{"id": str, "client": str, "role": str, "capabilities": {"multiDismiss": bool,
                                                                          "pushesInOne": bool},
                   "settled": _int}],
}

_TYPE_NAMES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", _int: "an integer",
               int: "an integer", float: "a number"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - json.loads makes nothing else


def _pointer(path: Tuple[Any, ...]) -> str:
    return "/" + "/".join(str(p) for p in path)


def shape_problem(value: Any, shape: Any, path: Tuple[Any, ...] = ()) -> Optional[str]:
    """What is wrong with ``value`` for ``shape`` (see :data:`SHAPES`), or ``None``."""
    if isinstance(shape, list):
        if not isinstance(value, list):
            return f"at {_pointer(path)}: {_json_type(value)}, expected an array"
        for index, item in enumerate(value):
            problem = shape_problem(item, shape[0], path + (index,))
            if problem:
                return problem
        return None
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return f"at {_pointer(path)}: {_json_type(value)}, expected an object"
        if str in shape:
            for key, item in value.items():
                problem = shape_problem(item, shape[str], path + (key,))
                if problem:
                    return problem
            return None
        for key, inner in shape.items():
            optional = isinstance(inner, _Optional)
            if key not in value:
                if optional:
                    continue
                return f"at {_pointer(path)}: {key!r} is missing"
            problem = shape_problem(value[key], inner.shape if optional else inner, path + (key,))
            if problem:
                return problem
        return None
    if shape is _int:
        ok = _int(value)
    else:  # a type: bool is not an int here, as in JSON
        ok = isinstance(value, shape) and (shape is bool or not isinstance(value, bool))
    if not ok:
        return f"at {_pointer(path)}: {_json_type(value)}, expected {_TYPE_NAMES.get(shape, shape.__name__)}"
    return None


_kinds: Optional[Dict[str, str]] = None
_store: Optional[Dict[str, Any]] = None
_validators: Dict[Tuple[int, str], Any] = {}
#: (kind, validator module id, text) of small documents that validated, most recent last (bounded): not
#: validated again.
_valid: "OrderedDict[Tuple[str, int, str], None]" = OrderedDict()
_VALID_MAX = 256
_VALID_TEXT_MAX = 16384
#: Documents longer than this (characters) are checked structurally only (validation time grows with the size).
SCHEMA_MAX_CHARS = 262_144


def _read_json(name: str) -> Any:
    with open(SCHEMA_DIR / name, encoding="utf-8") as handle:
        return json.load(handle)


def kinds() -> Dict[str, str]:
    """Document kind → schema (``schemas/kinds.json``: ``"GetState.state_json": "window-state.json"``)."""
    global _kinds
    if _kinds is None:
        _kinds = dict(_read_json("kinds.json")["kinds"])
    return _kinds


def schemas() -> Dict[str, Any]:
    """Every schema of the package's copy, by ``$id``."""
    global _store
    if _store is None:
        store = {}
        for path in sorted(SCHEMA_DIR.glob("*.json")):
            if path.name == "kinds.json":
                continue
            schema = _read_json(path.name)
            store[schema.get("$id", SCHEMA_BASE + path.name)] = schema
        _store = store
    return _store


def schema_for(kind: str) -> Optional[str]:
    """The schema (``"window-state.json"``, ``"cause.json#/$defs/pending"``) of a document kind, if any."""
    return kinds().get(kind)


def validator(target: str) -> Any:
    """The compiled draft 2020-12 validator of ``target`` (a schema file, optionally ``#/json/pointer``), made
    once per ``jsonschema`` module; ``None`` without one."""
    module = jsonschema_module()
    if module is None:
        return None
    key = (id(module), target)
    found = _validators.get(key)
    if found is None:
        found = _validators[key] = _compile(module, target)
    return found


def _compile(module: Any, target: str) -> Any:
    store = schemas()
    name, _, fragment = target.partition("#")
    uri = SCHEMA_BASE + name
    schema = store[uri]
    if fragment:
        schema = {"$ref": uri + "#" + fragment}
    cls = module.Draft202012Validator
    try:  # jsonschema ≥ 4.18 resolves $refs with the referencing library
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
    except ImportError:
        # A part of a file is a bare {"$ref"} without an $id (the resolver files its referrer under base_uri:
        # the file's own URI would shadow the file).
        resolver = module.RefResolver(base_uri=schema.get("$id", ""), referrer=schema, store=dict(store))
        return cls(schema, resolver=resolver)
    registry = Registry().with_resources(
        (uri_, Resource.from_contents(contents, default_specification=DRAFT202012)) for uri_, contents in store.items())
    return cls(schema, registry=registry)


def _schema_problem(module: Any, compiled: Any, document: Any) -> Tuple[bool, Optional[str]]:
    """(whether the schema could check the document, what it refused)."""
    try:
        if compiled.is_valid(document):
            return True, None
        error = module.exceptions.best_match(compiled.iter_errors(document))
    except RecursionError:  # nested deeper than Python's recursion limit: the structural check stands in
        return False, None
    if error is None:  # pragma: no cover - is_valid said no
        return True, "invalid"
    message = error.message if len(error.message) <= 200 else error.message[:200] + "…"
    return True, f"at {_pointer(tuple(error.absolute_path))}: {message}"


def decode(kind: str, text: Any, where: Dict[str, Any], argument: Optional[str] = None) -> Any:
    """The JSON document ``text`` of kind ``kind`` (``"ListClosedWindows.closed_json"``, ``"Routes"``), parsed and
    checked (schema, else structure); :class:`ProtocolError` naming ``where``'s member otherwise."""
    what = argument or kind.rpartition(".")[2]
    if not isinstance(text, str):
        raise fail(where, f"{what} is {type(text).__name__}, not a JSON string")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:  # json.JSONDecodeError is a ValueError
        reason = str(error) if not isinstance(error, RecursionError) else "nested too deeply"
        raise fail(where, f"{what} is not JSON ({reason})") from None
    check(kind, document, where, argument, text)
    return document


def check(kind: str, document: Any, where: Dict[str, Any], argument: Optional[str] = None,
          text: Optional[str] = None) -> None:
    """Validates a parsed document of kind ``kind`` (see :func:`decode`)."""
    what = argument or kind.rpartition(".")[2]
    module = jsonschema_module()
    remembered = (kind, id(module), text) if text is not None and len(text) <= _VALID_TEXT_MAX else None
    if remembered is not None and remembered in _valid:
        _valid.move_to_end(remembered)
        return
    target = schema_for(kind)
    checked = False
    if module is not None and target is not None and (text is None or len(text) <= SCHEMA_MAX_CHARS):
        checked, problem = _schema_problem(module, validator(target), document)
        if problem is not None:
            raise fail(where, f"{what} does not match {target}: {problem}", schema=target)
    shape = SHAPES.get(kind)
    if shape is not None and not checked:
        problem = shape_problem(document, shape)
        if problem is not None:
            raise fail(where, f"{what} is not the expected shape: {problem}")
    if remembered is not None:
        _valid[remembered] = None
        if len(_valid) > _VALID_MAX:
            _valid.popitem(last=False)


def convert(where: Dict[str, Any], what: str, function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)``, its ``TypeError``/``ValueError``/``KeyError``/``AttributeError`` a
    :class:`ProtocolError` (the last guard behind the checks above)."""
    try:
        return function(*args)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise fail(where, f"{what} could not be read ({type(error).__name__}: {error})") from None


__all__ = ["JSONSCHEMA", "jsonschema_module", "SCHEMA_DIR", "SCHEMA_MAX_CHARS", "REPLY_SIGNATURES", "PROPERTY_TYPES",
           "SIGNAL_SIGNATURES", "SHAPES", "check_reply", "check_property", "check_signal", "decode", "check", "kinds",
           "schemas", "schema_for", "validator", "shape_problem", "convert", "detail", "fail"]
