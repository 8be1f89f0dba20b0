"""Model specs, presentations and routes: small dataclasses whose ``to_json()`` is exactly the JSON the daemon
takes (Docs/state-schema.md, "Model spec", "Presentation", "Route"). Optional fields left at ``None`` are not
written, so the daemon's defaults apply."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Sequence, Union

JSON = Dict[str, Any]
#: A model reference in command JSON: an id, or ``"tag:<tag>"`` (see :func:`tag`).
Reference = Union[int, str]


def tag(name: str) -> str:
    """The model reference ``"tag:<name>"``: the model carrying that tag."""
    return f"tag:{name}"


def _put(out: JSON, key: str, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, Spec) or isinstance(value, Presentation) or isinstance(value, (Route, Action, Tab)):
        value = value.to_json()
    elif isinstance(value, Mapping):
        value = dict(value)
    elif isinstance(value, (list, tuple)):
        value = [v.to_json() if hasattr(v, "to_json") else v for v in value]
    out[key] = value


class Spec:
    """Base of the model specs (:class:`Screen`, :class:`Stack`, :class:`Tabs`, :class:`Switched`,
    :class:`Custom`)."""

    def to_json(self) -> JSON:  # pragma: no cover - every subclass defines it
        raise NotImplementedError


def _common(out: JSON, spec: Any) -> JSON:
    _put(out, "params", spec.params)
    _put(out, "title", spec.title)
    _put(out, "tag", spec.tag)
    _put(out, "appearance", spec.appearance)
    _put(out, "presented", spec.presented)
    _put(out, "transition", spec.transition)
    return out


@dataclass(frozen=True)
class Screen(Spec):
    """A screen: ``{"screen": …, "params"?, "title"?, "tag"?, "appearance"?, "presented"?, "transition"?}``.
    ``transition`` is for a stack element (a push's renderer transition)."""

    screen: str
    params: Optional[Mapping[str, str]] = None
    title: Optional[str] = None
    tag: Optional[str] = None
    appearance: Optional[Mapping[str, Any]] = None
    presented: Optional["Presentation"] = None
    transition: Optional[str] = None

    def to_json(self) -> JSON:
        return _common({"screen": self.screen}, self)


@dataclass(frozen=True)
class Stack(Spec):
    """A stack: ``{"kind": "stack", "path": [element specs], …}``."""

    path: Sequence[Spec] = ()
    screen: Optional[str] = None
    params: Optional[Mapping[str, str]] = None
    title: Optional[str] = None
    tag: Optional[str] = None
    appearance: Optional[Mapping[str, Any]] = None
    presented: Optional["Presentation"] = None
    transition: Optional[str] = None
    hides_tab_bar_when_not_at_root: Optional[bool] = None
    hides_tab_bar_animated: Optional[bool] = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": "stack"}
        _put(out, "screen", self.screen)
        _put(out, "path", list(self.path))
        _put(out, "hidesTabBarWhenNotAtRoot", self.hides_tab_bar_when_not_at_root)
        _put(out, "hidesTabBarAnimated", self.hides_tab_bar_animated)
        return _common(out, self)


@dataclass(frozen=True)
class Tab:
    """One tab of :class:`Tabs`: ``{"id", "title", "icon"?, "model": spec}``."""

    id: str
    title: str
    model: Spec
    icon: Optional[str] = None

    def to_json(self) -> JSON:
        out: JSON = {"id": self.id, "title": self.title}
        _put(out, "icon", self.icon)
        _put(out, "model", self.model)
        return out


@dataclass(frozen=True)
class Tabs(Spec):
    """A tab container: ``{"kind": "tabs", "tabs": […], "selectedTab"?, "reselect"?, "backBehavior"?}``."""

    tabs: Sequence[Tab] = ()
    selected_tab: Optional[str] = None
    reselect: Optional[str] = None
    back_behavior: Optional[str] = None
    screen: Optional[str] = None
    params: Optional[Mapping[str, str]] = None
    title: Optional[str] = None
    tag: Optional[str] = None
    appearance: Optional[Mapping[str, Any]] = None
    presented: Optional["Presentation"] = None
    transition: Optional[str] = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": "tabs"}
        _put(out, "screen", self.screen)
        _put(out, "tabs", list(self.tabs))
        _put(out, "selectedTab", self.selected_tab)
        _put(out, "reselect", self.reselect)
        _put(out, "backBehavior", self.back_behavior)
        return _common(out, self)


@dataclass(frozen=True)
class Switched(Spec):
    """A switched container showing one model: ``{"kind": "switched", "model": spec}``."""

    model: Spec
    screen: Optional[str] = None
    params: Optional[Mapping[str, str]] = None
    title: Optional[str] = None
    tag: Optional[str] = None
    appearance: Optional[Mapping[str, Any]] = None
    presented: Optional["Presentation"] = None
    transition: Optional[str] = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": "switched"}
        _put(out, "screen", self.screen)
        _put(out, "model", self.model)
        return _common(out, self)


@dataclass(frozen=True)
class Custom(Spec):
    """A custom container (``custom_kind="split"`` for a split view):
    ``{"kind": "custom", "customKind", "children", "selected"?, "columnVisibility"?}``."""

    custom_kind: str
    children: Sequence[Spec] = ()
    selected: Optional[int] = None
    column_visibility: Optional[str] = None
    screen: Optional[str] = None
    params: Optional[Mapping[str, str]] = None
    title: Optional[str] = None
    tag: Optional[str] = None
    appearance: Optional[Mapping[str, Any]] = None
    presented: Optional["Presentation"] = None
    transition: Optional[str] = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": "custom", "customKind": self.custom_kind}
        _put(out, "screen", self.screen)
        _put(out, "children", list(self.children))
        _put(out, "selected", self.selected)
        _put(out, "columnVisibility", self.column_visibility)
        return _common(out, self)


@dataclass(frozen=True)
class Action:
    """An alert's or dialog's action: ``{"id", "title", "role"?, "commands"?}``."""

    id: str
    title: str
    role: Optional[str] = None
    commands: Optional[Sequence[Any]] = None

    def to_json(self) -> JSON:
        out: JSON = {"id": self.id, "title": self.title}
        _put(out, "role", self.role)
        _put(out, "commands", self.commands)
        return out


@dataclass(frozen=True)
class Presentation:
    """What ``present`` shows: ``kind`` ``"sheet"``, ``"fullScreenCover"``, ``"custom"`` (with ``name``),
    ``"browser"`` (with ``url``), ``"alert"`` or ``"confirmationDialog"`` (with ``title``, ``message``,
    ``actions``, ``source_id``). Prefer the builders :func:`sheet`, :func:`cover`, :func:`alert`…"""

    kind: str
    model: Optional[Spec] = None
    detents: Optional[Sequence[str]] = None
    name: Optional[str] = None
    url: Optional[str] = None
    title: Optional[str] = None
    message: Optional[str] = None
    actions: Optional[Sequence[Action]] = None
    source_id: Optional[str] = None
    transition: Optional[str] = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": self.kind}
        _put(out, "name", self.name)
        _put(out, "url", self.url)
        _put(out, "detents", self.detents)
        _put(out, "title", self.title)
        _put(out, "message", self.message)
        _put(out, "actions", self.actions)
        _put(out, "sourceID", self.source_id)
        _put(out, "model", self.model)
        _put(out, "transition", self.transition)
        return out


def _spec(model: Union[Spec, str], params: Optional[Mapping[str, str]] = None) -> Spec:
    return Screen(model, params) if isinstance(model, str) else model


def sheet(model: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *,
          detents: Optional[Sequence[str]] = None, transition: Optional[str] = None) -> Presentation:
    """A sheet presenting ``model`` (a spec, or a screen name with ``params``)."""
    return Presentation("sheet", _spec(model, params), detents=detents, transition=transition)


def cover(model: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *,
          transition: Optional[str] = None) -> Presentation:
    """A full-screen cover presenting ``model``."""
    return Presentation("fullScreenCover", _spec(model, params), transition=transition)


def custom_presentation(name: str, model: Union[Spec, str], params: Optional[Mapping[str, str]] = None, *,
                        transition: Optional[str] = None) -> Presentation:
    """A custom presentation kind (``popover``…) presenting ``model``."""
    return Presentation("custom", _spec(model, params), name=name, transition=transition)


def browser(url: str, *, transition: Optional[str] = None) -> Presentation:
    """The built-in browser showing an http(s) ``url``."""
    return Presentation("browser", url=url, transition=transition)


def alert(title: str, actions: Sequence[Action], message: Optional[str] = None, *,
          transition: Optional[str] = None) -> Presentation:
    """An alert with ``actions``."""
    return Presentation("alert", title=title, message=message, actions=actions, transition=transition)


def confirmation_dialog(title: str, actions: Sequence[Action], message: Optional[str] = None, *,
                        source_id: Optional[str] = None, transition: Optional[str] = None) -> Presentation:
    """A confirmation dialog (action sheet) with ``actions``."""
    return Presentation("confirmationDialog", title=title, message=message, actions=actions,
                        source_id=source_id, transition=transition)


@dataclass(frozen=True)
class Route:
    """A route (``setRoutes``, ``GetRoutes``, the ``Routes`` property):
    ``{"style": "push"|"sheet"|"cover", "screen", "params"?, "withNavigation"?}`` (Docs/routing.md)."""

    style: str
    screen: str
    params: Mapping[str, str] = field(default_factory=dict)
    with_navigation: Optional[bool] = None

    def to_json(self) -> JSON:
        out: JSON = {"style": self.style, "screen": self.screen}
        if self.params:
            out["params"] = dict(self.params)
        if self.with_navigation is not None:
            out["withNavigation"] = self.with_navigation
        elif self.style != "push":
            out["withNavigation"] = False
        return out

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> "Route":
        return cls(value["style"], value["screen"], dict(value.get("params") or {}),
                   value.get("withNavigation"))


__all__ = ["Spec", "Screen", "Stack", "Tab", "Tabs", "Switched", "Custom", "Action", "Presentation", "Route",
           "Reference", "tag", "sheet", "cover", "custom_presentation", "browser", "alert", "confirmation_dialog"]
