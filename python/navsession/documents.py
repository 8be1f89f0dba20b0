"""TypedDicts for the JSON documents the daemon answers (Docs/state-schema.md, Docs/dbus-api.md "Steps"), for
type checkers and editors; at run time they are plain dicts. Keys a document may omit are ``total=False``."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Union

if sys.version_info >= (3, 11):  # pragma: no cover - Debian 12 has 3.11
    from typing import NotRequired, TypedDict
else:  # pragma: no cover
    from typing_extensions import NotRequired, TypedDict  # type: ignore[assignment]


class Model(TypedDict):
    """One model of a window snapshot (``models[]``)."""

    id: int
    kind: str  # "screen", "stack", "tabs", "switched", "custom"
    screen: str
    params: Dict[str, str]
    attachment: Dict[str, Any]
    parent: NotRequired[int]
    title: NotRequired[str]
    tag: NotRequired[str]
    path: NotRequired[List[Dict[str, Any]]]
    presented: NotRequired[int]


class PreparedEntry(TypedDict):
    """A model prepared ahead of being shown, in a window snapshot (``prepared[]``; ``Window1.Prepare``): the id it
    will have, its screen and params, and the version that prepared it."""

    id: int
    screen: str
    params: Dict[str, str]
    version: int
    title: NotRequired[str]


class PreparedModel(TypedDict):
    """An entry of the ``Prepared`` property (``Window.prepared``), oldest first."""

    model: int
    screen: str
    params: Dict[str, str]
    title: NotRequired[str]


class WindowPolicy(TypedDict):
    """A window's policy (``Session.set_window_policy``, Session1 ``SetWindowPolicy``; Docs/window-policy.md): the
    principals that may change the window (``[]``: no client) and those that may replace or remove the policy."""

    change: List[str]  # "*", "host", "app:ID", a unique name ":1.42" ("self" is stored as the caller's)
    manage: List[str]  # default ["host"]; never empty


class ScreenStats(TypedDict):
    """One screen's entry of ``Session.get_stats()``'s ``screens`` (Session1 ``GetStats``; Docs/analytics.md)."""

    visits: int  # how many times a window's active screen became it
    milliseconds: int  # how long windows showed it, running visits counted up to "now"
    showing: int  # how many windows show it now


class FunnelStats(TypedDict):
    """One funnel of ``Session.get_stats()``'s ``funnels``: the manifest's declared ``steps`` and, for each, how
    many windows reached it in order (its first step starts an attempt)."""

    steps: List[str]
    reached: List[int]


class Stats(TypedDict):
    """``Session.get_stats()`` (Session1 ``GetStats``, JSON form): visits and time per screen, guard decisions per
    guard and verdict (``deny``, ``redirect``, ``timeout``, ``absent``), funnels; ``now`` and ``since`` in ms since
    the Unix epoch (``since`` absent before anything was counted)."""

    funnels: Dict[str, FunnelStats]
    guards: Dict[str, Dict[str, int]]
    now: int
    screens: Dict[str, ScreenStats]
    since: NotRequired[int]


class RendererCapabilities(TypedDict):
    """What a renderer can animate in one update (``Window.register_renderer``'s ``capabilities``)."""

    multiDismiss: bool  # several presentation layers dismissed at once
    pushesInOne: bool  # several screens pushed at once


class RegisteredRenderer(TypedDict):
    """An entry of the ``Renderers`` property (``Window.renderers``; Window1 ``RegisterRenderer``), in registration
    order."""

    id: str  # "r1", "r2", … per window
    client: str  # the unique bus name of the connection that registered it
    role: str  # "primary", "mirror" or "assistive"
    capabilities: RendererCapabilities
    settled: int  # the newest version it reported settled (ReportSettled), 0 before any


class WindowSnapshot(TypedDict):
    """``GetState``/``GetStateAt``: a window's whole graph (Docs/state-schema.md §1)."""

    format: str  # "navsession.window"
    formatVersion: int
    version: int
    nextModelID: int
    closed: bool
    root: int
    models: List[Model]
    scheduled: NotRequired[List[Dict[str, Any]]]
    forward: NotRequired[List[Dict[str, Any]]]
    rendererState: NotRequired[Dict[str, Any]]
    prepared: NotRequired[List[PreparedEntry]]  # absent when none
    policy: NotRequired[WindowPolicy]  # GetState only, absent when the window has none (SetState ignores it)


class Step(TypedDict, total=False):
    """One entry of ``Changed``'s ``steps_json``: ``kind`` (``push``, ``pop``, ``replacePath``, ``present``,
    ``dismiss``, ``selectTab``, ``switch``, ``replaceRoot``, ``update``, ``appearance``, ``tabBarRule``,
    ``selectChild``, ``columnVisibility``, ``collapse``, ``expand``, ``rendererState``) and that kind's fields."""

    kind: str
    stack: int
    models: List[int]
    presenter: int
    model: int
    style: str
    transition: str
    nested: List[Dict[str, Any]]
    tabs: int
    tab: str
    previous: Union[str, int]
    container: int
    saved: bool
    restored: bool
    appearance: Dict[str, Any]
    state: Dict[str, Any]


#: A ``Changed``'s ``cause_json`` ``moved`` (Session1 ``MoveModel``), the same in both windows' signals:
#: ``transaction`` pairs them; ``from``/``to`` the windows' numbers; ``model`` the moved model's id in the source;
#: ``ids`` each moved model's id in the source → its id in the target (equal in a new window); ``tab`` the tab's id
#: in the target, for a tab. (The functional form: ``from`` is a Python keyword.)
MovedCause = TypedDict("MovedCause", {
    "transaction": str, "from": int, "to": int, "model": int, "ids": Dict[str, int], "tab": NotRequired[str]})


class ChangeCause(TypedDict, total=False):
    """``Changed``'s ``cause_json``: ``commands`` or ``report``, with ``scheduled``, ``redirected`` or ``resumed``
    when they apply, or ``moved``, or ``reloaded`` (always ``True``: the window migrated to a new manifest, Session1
    ``ReloadManifest``; Docs/state-schema.md §4, Docs/manifest.md "Changing the manifest")."""

    commands: List[Dict[str, Any]]
    report: Dict[str, Any]
    scheduled: str
    redirected: Dict[str, Any]
    resumed: Dict[str, Any]
    setState: bool
    moved: MovedCause
    reloaded: bool


class ClosedWindow(TypedDict):
    """An entry of ``ListClosedWindows``."""

    id: str
    window: int
    scene: str
    title: str
    activeScreen: str
    closedAt: int
    snapshot: WindowSnapshot
    group: NotRequired[str]  # the window group it closed with (it reopens with them)


class HistoryEntry(TypedDict):
    """An entry of ``GetHistory`` (Docs/state-schema.md §5)."""

    version: int
    time: Union[int, None]
    cause: ChangeCause
    activeScreen: str


__all__ = ["Model", "PreparedEntry", "PreparedModel", "WindowPolicy", "ScreenStats", "FunnelStats", "Stats",
           "RendererCapabilities", "RegisteredRenderer", "WindowSnapshot", "Step", "MovedCause", "ChangeCause",
           "ClosedWindow", "HistoryEntry"]
