"""Typed commands: builder functions returning :class:`Command`, whose ``to_json()`` is exactly one batch entry of
Docs/state-schema.md ("Commands and batches"). A batch is a list of commands (``Window.apply(batch)``).

    from navsession import commands as c, specs as s
    window.apply([c.push("detail", {"id": "42"}), c.present(s.sheet("editor", detents=["medium"]))])

Optional arguments left at ``None`` are not written (the daemon's defaults apply). ``command.from_(ref)`` and
``command.animated(False)`` give the batch entry's ``from`` and ``animated`` keys.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence, Union

from .specs import JSON, Presentation, Reference, Route, Screen, Spec, _put, _spec

if TYPE_CHECKING:  # the client imports this module
    from .client import Window


@dataclass(frozen=True)
class Command:
    """One command (a batch entry). ``body`` is its JSON object, ``"command"`` key included."""

    body: Mapping[str, Any]

    @property
    def name(self) -> str:
        return str(self.body["command"])

    def from_(self, model: Reference) -> "Command":
        """The same command run from ``model`` (an id or ``"tag:…"``) instead of the active model."""
        return Command({**self.body, "from": model})

    def animated(self, animated: bool = True) -> "Command":
        """The same command with the batch entry's ``animated`` flag (default ``true``)."""
        return Command({**self.body, "animated": animated})

    def to_json(self) -> JSON:
        return dict(self.body)


CommandLike = Union[Command, Mapping[str, Any]]


def _command(_command_name: str, **fields: Any) -> Command:
    out: JSON = {"command": _command_name}
    for key, value in fields.items():
        _put(out, key, value)
    return Command(out)


def to_json(command: CommandLike) -> JSON:
    """A command (or an already built JSON object) as its JSON object."""
    return command.to_json() if isinstance(command, Command) else dict(command)


def batch_json(batch: Union[CommandLike, Iterable[CommandLike]]) -> str:
    """A batch (a command or a list of them) as the JSON text ``Apply`` takes."""
    if isinstance(batch, (Command, Mapping)):
        batch = [batch]
    return json.dumps([to_json(c) for c in batch], separators=(",", ":"), ensure_ascii=False)


def _element(screen: Union[Spec, str], params: Optional[Mapping[str, str]], title: Optional[str],
             tag: Optional[str], transition: Optional[str]) -> Spec:
    if isinstance(screen, Spec):
        return screen
    return Screen(screen, params, title=title, tag=tag, transition=transition)


# -- stacks ----------------------------------------------------------------------------------------

def push(screen: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *, title: Optional[str] = None,
         tag: Optional[str] = None, transition: Optional[str] = None, single_top: Optional[bool] = None) -> Command:
    """``stackAppend`` of one element: a screen name (with ``params``…) or a spec."""
    return _command("stackAppend", models=[_element(screen, params, title, tag, transition)], singleTop=single_top)


def push_all(models: Sequence[Union[Spec, str]], *, single_top: Optional[bool] = None) -> Command:
    """``stackAppend`` of several elements in one step."""
    return _command("stackAppend", models=[_spec(m) for m in models], singleTop=single_top)


def pop(count: Optional[int] = None) -> Command:
    """``stackDropLast`` (``count`` default 1)."""
    return _command("stackDropLast", count=count)


def pop_to_root() -> Command:
    return _command("stackDropToRoot")


def set_root(model: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *,
             clear: Optional[bool] = None) -> Command:
    """``stackSetRoot``."""
    return _command("stackSetRoot", model=_spec(model, params), clear=clear)


def existing(model: Reference, transition: Optional[str] = None) -> JSON:
    """A ``stackSetPath`` entry keeping an element of the stack."""
    out: JSON = {"existing": model}
    _put(out, "transition", transition)
    return out


def set_path(path: Sequence[Union[Spec, str, Mapping[str, Any]]]) -> Command:
    """``stackSetPath``: entries are specs / screen names (new) or :func:`existing` (kept)."""
    return _command("stackSetPath", path=[e if isinstance(e, Mapping) else _spec(e) for e in path])


# -- presentations ---------------------------------------------------------------------------------

def present(presentation: Presentation, *, on: Optional[Reference] = None, replace: Optional[bool] = None) -> Command:
    """``present`` (build ``presentation`` with :func:`navsession.specs.sheet`, ``cover``, ``alert``…)."""
    return _command("present", presentation=presentation, on=on, replace=replace)


def show(screen: str, params: Optional[Mapping[str, str]] = None, *, transition: Optional[str] = None) -> Command:
    """``show``: the screen the way the manifest declares it (pushed or presented)."""
    return _command("show", screen=screen, params=params, transition=transition)


_NO_RESULT = object()


def dismiss(result: Any = _NO_RESULT) -> Command:
    """``dismiss``; ``result`` (any JSON value) is delivered to the presenter as a ``result`` message."""
    return _command("dismiss") if result is _NO_RESULT else Command({"command": "dismiss", "result": result})


def dismiss_just_from_presented() -> Command:
    return _command("dismissJustFromPresented")


def hide() -> Command:
    return _command("hide")


def dismiss_all() -> Command:
    return _command("dismissAll")


# -- back and forward ------------------------------------------------------------------------------

def go_back(result: Any = _NO_RESULT) -> Command:
    """``goBack`` (a pop, a dismissal or the tabs' back behaviour); ``result`` as for :func:`dismiss`."""
    return _command("goBack") if result is _NO_RESULT else Command({"command": "goBack", "result": result})


def go_back_to_root() -> Command:
    return _command("goBackToRoot")


def go_back_to(*, screen: Optional[str] = None, tag: Optional[str] = None, model: Optional[Reference] = None,
               index: Optional[int] = None, params: Optional[Mapping[str, str]] = None,
               params_containing: Optional[Mapping[str, str]] = None) -> Command:
    """``goBackTo`` exactly one of ``screen``, ``tag``, ``model`` or ``index`` (the daemon refuses none or several):
    the nearest matching route counting from the top, the top included (a match on top changes nothing).

    With ``screen``, ``params`` matches the screen's value (its params equal these) and ``params_containing`` is a
    predicate (its params include these pairs); at most one of the two.
    """
    return _command("goBackTo", screen=screen, tag=tag, model=model, index=index,
                    params=None if params is None else dict(params),
                    paramsContaining=None if params_containing is None else dict(params_containing))


def pop_at(count: Optional[int] = None) -> Command:
    """``pop`` (React Navigation's ``pop(count)`` with a source): run it ``.from_(model)``: that model's stack
    element and the ``count - 1`` below it go, the elements above stay (from the active model: the top)."""
    return _command("pop", count=count)


def pop_to(screen: str, params: Optional[Mapping[str, str]] = None, *, merge: bool = False) -> Command:
    """``popTo`` (React Navigation's ``popTo(name, params, {merge})``): back to the nearest element of the stack
    showing ``screen`` (the top included), its params then set from ``params`` (merged with ``merge``); not in the
    stack, it takes the top element's place."""
    return _command("popTo", screen=screen, params=None if params is None else dict(params), merge=merge or None)


def go_forward(count: Optional[int] = None) -> Command:
    return _command("goForward", count=count)


def bring_to_front(*, screen: Optional[str] = None, tag: Optional[str] = None,
                   model: Optional[Reference] = None) -> Command:
    return _command("bringToFront", screen=screen, tag=tag, model=model)


# -- containers ------------------------------------------------------------------------------------

def select_tab(tab: str) -> Command:
    """``tabsSelectItem``."""
    return _command("tabsSelectItem", tab=tab)


def switch_model(model: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *,
                 save_state: Optional[bool] = None, restore_state: Optional[bool] = None) -> Command:
    return _command("switchModel", model=_spec(model, params), saveState=save_state, restoreState=restore_state)


def clear_saved_state(screen: Optional[str] = None) -> Command:
    return _command("clearSavedState", screen=screen)


def select_child(child: Union[int, str, Mapping[str, Any]], *, container: Optional[Reference] = None) -> Command:
    """``selectChild``: an index, a ``"tag:…"`` reference or ``{"model": ref}``."""
    return _command("selectChild", child=child, container=container)


def set_column_visibility(visibility: str, *, container: Optional[Reference] = None) -> Command:
    return _command("setColumnVisibility", visibility=visibility, container=container)


def set_tab_bar_rule(hidden_when_not_root: bool, *, stack: Optional[Reference] = None,
                     animated: Optional[bool] = None) -> Command:
    return _command("setTabBarRule", hiddenWhenNotRoot=hidden_when_not_root, stack=stack, animated=animated)


def set_routes(routes: Sequence[Union[Route, Mapping[str, Any]]], *, stack: Optional[Reference] = None) -> Command:
    return _command("setRoutes", routes=[r if isinstance(r, Mapping) else r.to_json() for r in routes], stack=stack)


# -- models ----------------------------------------------------------------------------------------

def set_params(params: Optional[Mapping[str, str]] = None, *, title: Optional[str] = None,
               model: Optional[Reference] = None, tag: Optional[str] = None, merge: Optional[bool] = None) -> Command:
    return _command("setParams", model=model, tag=tag, params=params, title=title, merge=merge)


def push_params(params: Mapping[str, str], *, model: Optional[Reference] = None, tag: Optional[str] = None) -> Command:
    """``pushParams`` (React Navigation's ``pushParams``): the params become exactly ``params`` and ``goBack``
    restores the previous ones first."""
    return _command("pushParams", model=model, tag=tag, params=dict(params))


def set_appearance(appearance: Mapping[str, Any], *, model: Optional[Reference] = None, tag: Optional[str] = None,
                   merge: Optional[bool] = None) -> Command:
    return _command("setAppearance", model=model, tag=tag, appearance=appearance, merge=merge)


def protect(reason: str, *, model: Optional[Reference] = None, tag: Optional[str] = None,
            dialog: Optional[str] = None) -> Command:
    return _command("protect", model=model, tag=tag, reason=reason, dialog=dialog)


def unprotect(*, model: Optional[Reference] = None, tag: Optional[str] = None) -> Command:
    return _command("unprotect", model=model, tag=tag)


def prepare(screen: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *,
            title: Optional[str] = None) -> Command:
    """``prepare`` (React Navigation's ``preload``; ``Window1.Prepare``): a plain screen — a name with ``params``
    (and ``title``), or a :class:`~navsession.specs.Screen` without a tag or presentation — made ahead of being
    shown; a later push of the same screen and params shows it under the id taken now (the ``prepared``
    property lists it). Not an undo entry."""
    return _command("prepare", model=_element(screen, params, title, None, None))


def set_renderer_state(model: Reference, state: Mapping[str, Any]) -> Command:
    """``setRendererState`` (``model`` 0: the window's own)."""
    return _command("setRendererState", model=model, state=state)


# -- windows, effects, messages --------------------------------------------------------------------

def open_window(scene: str, params: Optional[Mapping[str, str]] = None) -> Command:
    return _command("openWindow", scene=scene, params=dict(params or {}))


def dismiss_window(window: Optional[str] = None) -> Command:
    return _command("dismissWindow", window=window)


def move_model(model: Optional[Reference] = None, to_window: Union[int, "Window"] = 0,
               placement: Optional[Mapping[str, Any]] = None) -> Command:
    """``moveModel``: Session1 ``MoveModel`` from a window's batch, where it must be alone (the daemon refuses it
    beside other commands, in a ``sequence``, a handler or a schedule). ``model`` (an id or ``"tag:…"``; ``None``:
    the entry's executing model, the active one by default) moves with everything under it into window
    ``to_window`` (a number or a :class:`navsession.Window`; 0: a new window); ``placement`` as for
    :meth:`navsession.Session.move_model` (``{"stack": id, "position": n}``, ``{"tabs": id, "tab": "newid",
    "select": False}``, ``{"presentOn": id}``, ``{"scene": "name"}``). ``Window.apply`` returns the source
    window's new version."""
    number = to_window if isinstance(to_window, int) else to_window.number
    return _command("moveModel", model=model, toWindow=number, placement=placement)


def open_url(url: str) -> Command:
    return _command("openURL", url=url)


def trigger(name: str, payload: Optional[str] = None) -> Command:
    return _command("trigger", name=name, payload=payload)


def send_message(name: str, payload: Optional[str] = None, *, to: Optional[Reference] = None) -> Command:
    """``sendMessage`` to ``"self"`` (default), ``"presenter"``, ``"parent"`` or a model reference."""
    return _command("sendMessage", name=name, payload=payload, to=to)


def sequence(commands: Sequence[CommandLike]) -> Command:
    return _command("sequence", commands=[to_json(c) for c in commands])


def transaction(payload: Mapping[str, Any]) -> Command:
    return _command("transaction", payload=payload)


def schedule(commands: Sequence[CommandLike], after_ms: int, *, id: Optional[str] = None,
             overdue: Optional[str] = None) -> Command:
    return _command("schedule", afterMs=after_ms, commands=[to_json(c) for c in commands], id=id, overdue=overdue)


def cancel_scheduled(id: str) -> Command:
    return _command("cancelScheduled", id=id)


__all__ = [
    "Command", "CommandLike", "to_json", "batch_json", "push", "push_all", "pop", "pop_to_root", "set_root",
    "existing", "set_path", "present", "show", "dismiss", "dismiss_just_from_presented", "hide", "dismiss_all",
    "go_back", "go_back_to_root", "go_back_to", "pop_to", "pop_at", "push_params", "go_forward", "bring_to_front", "select_tab", "switch_model",
    "clear_saved_state", "select_child", "set_column_visibility", "set_tab_bar_rule", "set_routes", "set_params",
    "set_appearance", "protect", "unprotect", "prepare", "set_renderer_state", "open_window", "dismiss_window",
    "move_model", "open_url", "trigger", "send_message", "sequence", "transaction", "schedule", "cancel_scheduled",
]

# The helpers of the commands not written above, generated from their declarations (scripts/generate-schemas).
from ._commands_generated import *  # noqa: E402,F401,F403
from ._commands_generated import DECLARED_COMMANDS, __all__ as _generated  # noqa: E402

__all__ += _generated

#: Every command name the builders produce: the ones above and the generated ones, so every declared command (a
#: test compares it with the daemon's list).
COMMAND_NAMES = DECLARED_COMMANDS
