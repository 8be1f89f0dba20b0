"""Namesakes: scenarios from the documentation of FlowStacks, React Navigation 7 and Jetpack Navigation, each action
expressed with the NavSession equivalent Docs/coming-from.md gives, each result checked against what the library
documents (its stack or state after the actions).

Where NavSession deliberately gives another result, the test states the library's result and is marked
``xfail(strict=True, raises=AssertionError)`` with the difference as its reason: the NavSession side of the scenario
runs (any other error fails the test), only the library's expected state is not met.

Screens, scenes and the ``initialParams`` used here are declared in namesakes.json: scene ``stack`` is a stack at
``home``; the ``tabs*`` scenes are tabs ``home``/``list``/``settings`` (each a stack) with one ``backBehavior`` each;
``app`` switches between the states ``login`` and ``main`` (tabs ``home``/``settings``) and keeps ``main``.
"""

import contextlib

import pytest

from navsession import commands as c
from navsession import errors
from navsession import specs as s
from navsession.specs import Route

MANIFEST = "namesakes.json"

# Every test gets a daemon serving namesakes.json and a window of its first scene, `stack`.
pytestmark = pytest.mark.navsession(manifest=MANIFEST)


def scene(name):
    """The marker for a window of another scene of namesakes.json."""
    return pytest.mark.navsession(manifest=MANIFEST, scene=name)


def differs(reason):
    """A scenario whose documented result NavSession deliberately does not give: the assertion of the library's
    result fails (any other exception is a real failure)."""
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)


def push(screen, params=None):
    return Route("push", screen, dict(params or {}))


def sheet(screen, params=None, navigation=False):
    return Route("sheet", screen, dict(params or {}), navigation)


def cover(screen, params=None, navigation=False):
    return Route("cover", screen, dict(params or {}), navigation)


def back_stack(window):
    """The root stack's elements, element 0 included, as (screen, params): a whole stack as React Navigation's
    ``state.routes`` and Jetpack's back stack list it (NavSession's routes leave the root element out)."""
    state = window.state()
    models = {m["id"]: m for m in state["models"]}
    root = models[state["root"]]
    return [(models[e["model"]]["screen"], models[e["model"]]["params"]) for e in root["path"]]


def back_stack_ids(window):
    state = window.state()
    models = {m["id"]: m for m in state["models"]}
    return [e["model"] for e in models[state["root"]]["path"]]


def screens(window):
    return [screen for screen, _params in back_stack(window)]


def tab_stack(window, tab):
    """The screens of one tab's stack (the tab need not be selected)."""
    state = window.state()
    models = {m["id"]: m for m in state["models"]}
    tabs = next(m for m in state["models"] if m["kind"] == "tabs")
    stack = models[next(t["model"] for t in tabs["tabs"] if t["id"] == tab)]
    return [models[e["model"]]["screen"] for e in stack["path"]]


def pushes(window, *routes):
    """Pushes each (screen, params) or screen name; returns the new models' ids."""
    ids = []
    for route in routes:
        screen, params = (route, None) if isinstance(route, str) else route
        window.push(screen, params)
        ids.append(window.active_model)
    return ids


# =====================================================================================================================
# FlowStacks (johnpatrickmorgan/FlowStacks 1.x): the routes array is the navigation state; NavSession's routes are
# that array (the root screen is not in it, as FlowStacks' root view is not). Sources: README ("Convenience
# methods"), Sources/FlowStacks/Convenience methods/Array+convenienceMethods.swift (doc comments) and
# Tests/FlowStacksTests/ConvenienceMethodsTests.swift.
# =====================================================================================================================

# push: "Pushes a new screen onto the stack" — a `.push` route appended to the array.
def test_flowstacks_push_appends_a_push_route(navsession_window):
    window = navsession_window
    assert window.current_routes == [] and window.can_go_back is False
    window.apply([c.push("detail", {"id": "1"})])
    window.push("about")
    assert window.current_routes == [push("detail", {"id": "1"}), push("about")]
    assert window.can_go_back is True


# presentSheet(_:withNavigation:) appends a `.sheet` route; withNavigation defaults to false.
def test_flowstacks_present_sheet_appends_a_sheet_route(navsession_window):
    window = navsession_window
    window.push("detail", {"id": "1"})
    window.apply([c.present(s.sheet("about"))])
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("about")]
    assert window.active_screen == "about"


# presentSheet(_, withNavigation: true) (README: "if you want to be able to push screens from the presented
# screen"): later pushes land in the sheet's navigation, after the sheet route.
def test_flowstacks_pushes_after_a_sheet_with_navigation_land_in_the_sheet(navsession_window):
    window = navsession_window
    window.push("detail", {"id": "1"})
    window.apply([c.present(s.sheet(s.Stack([s.Screen("editor", {"id": "1"})])))])
    window.push("about")
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("editor", {"id": "1"}, True), push("about")]
    assert screens(window) == ["home", "detail"]  # the stack under the sheet did not grow


# presentCover(_:withNavigation:) appends a `.cover` route.
def test_flowstacks_present_cover_appends_a_cover_route(navsession_window):
    window = navsession_window
    window.apply([c.present(s.cover("player", {"track": "1"}))])
    assert window.routes() == [cover("player", {"track": "1"})]


# goBack: "Goes back one screen in the stack" — removeLast(1), whatever the last route's style.
def test_flowstacks_go_back_removes_the_last_route_whatever_its_style(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), sheet("list", navigation=True), push("about"),
                       cover("profile", navigation=True), push("settings")])
    window.go_back()
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("list", navigation=True), push("about"),
                                     cover("profile", navigation=True)]
    window.go_back()
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("list", navigation=True), push("about")]
    window.go_back()
    window.go_back()
    assert window.current_routes == [push("detail", {"id": "1"})]


# canGoBack(): count - 1 > rootIndex (-1); goBack on an empty array asserts and leaves it unchanged
# (NavSession refuses with NothingToGoBack and changes nothing).
def test_flowstacks_can_go_back_is_false_once_the_routes_are_empty(navsession_window):
    window = navsession_window
    window.push("detail", {"id": "1"})
    assert window.can_go_back is True
    window.go_back()
    assert window.current_routes == [] and window.can_go_back is False
    version = window.version
    with pytest.raises(errors.NothingToGoBack):
        window.go_back()
    assert window.version == version and window.current_routes == []


# goBackToRoot: "Goes back to the root screen (index 0). The resulting array's count will be 0" — presentations go too.
def test_flowstacks_go_back_to_root_empties_the_routes_across_presentations(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), sheet("editor", {"id": "1"}, True), push("about"),
                       cover("player")])
    window.go_back_to_root()
    assert window.current_routes == [] and window.can_go_back is False
    assert screens(window) == ["home"]


# goBackToRoot: `guard !isEmpty else { return }` — nothing to do on an empty array.
def test_flowstacks_go_back_to_root_with_no_routes_changes_nothing(navsession_window):
    window = navsession_window
    version = window.version
    window.go_back_to_root()
    assert window.version == version and window.current_routes == []


# goBackTo(index:): "The resulting array count will be index + 1" (ConvenienceMethodsTests.testGoBackToIndex:
# three pushes, index 2 → 3, index 1 → 2, index 0 → 1).
def test_flowstacks_go_back_to_index_keeps_index_plus_one_routes(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), push("list"), push("about")])
    window.apply([c.go_back_to(index=2)])
    assert len(window.current_routes) == 3
    window.apply([c.go_back_to(index=1)])
    assert window.current_routes == [push("detail", {"id": "1"}), push("list")]
    window.apply([c.go_back_to(index=0)])
    assert window.current_routes == [push("detail", {"id": "1"})]


# goBackTo(index:) counts every route, presented or pushed: going back below a sheet dismisses it.
def test_flowstacks_go_back_to_an_index_across_a_presentation_dismisses_what_follows(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), sheet("list", navigation=True), push("about"),
                       push("settings")])
    window.apply([c.go_back_to(index=2)])
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("list", navigation=True), push("about")]
    window.apply([c.go_back_to(index=0)])
    assert window.current_routes == [push("detail", {"id": "1"})]


# goBackTo(_ screen): "the topmost (most recently shown) screen ... equal to the given screen" — when that is the
# top, goBackTo(index: count - 1) goes back zero screens.
def test_flowstacks_go_back_to_a_screen_on_top_changes_nothing(navsession_window):
    window = navsession_window
    pushes(window, "list", "about")
    version = window.version
    window.go_back_to("about")
    assert window.version == version
    assert window.current_routes == [push("list"), push("about")]


# goBackTo(_ screen): "If no screens are found, the routes array will be unchanged" (testGoBackToInstance:
# goBackTo("non-matching") keeps the count). FlowStacks returns false; NavSession refuses with RouteNotFound.
def test_flowstacks_go_back_to_a_missing_screen_leaves_the_routes_unchanged(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    version = window.version
    with pytest.raises(errors.RouteNotFound):
        window.go_back_to("player")
    assert window.version == version
    assert window.current_routes == [push("list"), push("detail", {"id": "1"}), push("about")]


# goBackTo(.detail(id: 1)) (a screen value, Equatable): the most recently shown equal value wins.
def test_flowstacks_go_back_to_a_screen_value_goes_to_the_most_recent_equal_one(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "about", ("detail", {"id": "1"}), "settings")
    window.apply([c.go_back_to(screen="detail", params={"id": "1"})])
    assert window.current_routes == [push("detail", {"id": "1"}), push("about"), push("detail", {"id": "1"})]


# goBackTo(.detail(id: 1)): other values of the same case are not equal, so they are gone back past.
def test_flowstacks_go_back_to_a_screen_value_skips_other_values_of_that_screen(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "list", ("detail", {"id": "1", "edit": "1"}), ("detail", {"id": "2"}),
           "about")
    window.apply([c.go_back_to(screen="detail", params={"id": "1"})])
    assert window.current_routes == [push("detail", {"id": "1"})]


# goBackTo(where:): "the topmost (most recently shown) screen in the stack that satisfies the given condition";
# a predicate on the id is paramsContaining.
def test_flowstacks_go_back_to_where_a_predicate_holds_picks_the_most_recent_match(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), ("detail", {"id": "1", "edit": "1"}), ("detail", {"id": "2"}), "about")
    window.apply([c.go_back_to(screen="detail", params_containing={"id": "1"})])
    assert window.current_routes == [push("detail", {"id": "1"}), push("detail", {"id": "1", "edit": "1"})]


# goBackTo(_ screen) looks at every route, presented ones included: going back to a sheet keeps the sheet.
def test_flowstacks_go_back_to_a_presented_screen_keeps_it_and_drops_what_is_above(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), sheet("editor", {"id": "1"}, True), push("about"),
                       push("settings")])
    window.go_back_to("editor")
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("editor", {"id": "1"}, True)]
    assert window.active_screen == "editor"


# dismiss: "Dismisses the most recently presented screen"; dismissAll: "Dismisses all presented sheets and
# modals". ConvenienceMethodsTests.testDismissAll: [.push(1), .sheet("two"), .push(3), .cover("four"), .push(5),
# .cover("six"), .push(7)]: dismiss() → 5 routes, then dismissAll() → 1.
def test_flowstacks_dismiss_removes_the_latest_presentation_and_dismiss_all_every_one(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), sheet("list", navigation=True), push("about"),
                       cover("profile", navigation=True), push("settings"), cover("player", navigation=True),
                       push("home")])
    window.dismiss()
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("list", navigation=True), push("about"),
                                     cover("profile", navigation=True), push("settings")]
    window.dismiss_all()
    assert window.current_routes == [push("detail", {"id": "1"})]


# dismissAll: "without popping any pushed screens in the bottommost presentation layer".
def test_flowstacks_dismiss_all_keeps_the_pushes_below_the_first_presentation(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), push("about"), sheet("list", navigation=True),
                       push("settings")])
    window.dismiss_all()
    assert window.current_routes == [push("detail", {"id": "1"}), push("about")]


# dismissAll: `guard count > 0 else { return }` — nothing presented, nothing changes.
def test_flowstacks_dismiss_all_without_presentations_changes_nothing(navsession_window):
    window = navsession_window
    pushes(window, "list", "about")
    version = window.version
    window.dismiss_all()
    assert window.version == version and window.current_routes == [push("list"), push("about")]


# Setting the routes array (README, "Deep-linking": make any change to the array, several layers at once).
def test_flowstacks_setting_the_routes_array_shows_exactly_those_routes(navsession_window):
    window = navsession_window
    version = window.version
    routes = [push("detail", {"id": "1"}), sheet("editor", {"id": "1"}, True), push("about")]
    window.set_routes(routes)
    assert window.version == version + 1  # one change, however many layers
    assert window.routes() == routes and window.current_routes == routes
    assert window.active_screen == "about"


# Writing back a changed array: the routes become exactly the new array; NavSession keeps the models of the
# unchanged prefix (Docs/coming-from.md: same ids, no lifecycle events).
def test_flowstacks_setting_the_routes_array_keeps_the_unchanged_prefix(navsession_window):
    window = navsession_window
    window.set_routes([push("detail", {"id": "1"}), sheet("list", navigation=True), push("about")])
    detail = back_stack_ids(window)[1]
    window.set_routes([push("detail", {"id": "1"}), sheet("list", navigation=True), push("settings")])
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("list", navigation=True), push("settings")]
    assert back_stack_ids(window)[1] == detail


# pop: "Pops the current screen if it was pushed".
def test_flowstacks_pop_removes_the_last_pushed_screen(navsession_window):
    window = navsession_window
    pushes(window, "list", "about")
    window.pop()
    assert window.current_routes == [push("list")]


# popToRoot: "The resulting screen count will be 0" (testPopToRoot: three pushes → 0).
def test_flowstacks_pop_to_root_pops_every_pushed_screen(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "list", "about")
    window.pop_to_root()
    assert window.current_routes == [] and screens(window) == ["home"]


# popTo(_ screen): pops to "the topmost (most recently pushed) screen ... equal to the given screen"
# (testPopToInstance: popTo("two") → 2 routes).
def test_flowstacks_pop_to_a_pushed_screen_pops_the_screens_above_it(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.apply([c.pop_to("list")])
    assert window.current_routes == [push("list")]


# popTo(_ screen): "If no screens are found, the routes array will be unchanged" (testPopToInstance:
# popTo("non-matching") keeps 3 routes).
@differs("NavSession's popTo is React Navigation's: a screen that is not on the stack takes the top element's "
         "place (routes become [list, settings]); FlowStacks' popTo leaves the array unchanged. goBackTo is the "
         "command that refuses (RouteNotFound) and changes nothing.")
def test_flowstacks_pop_to_a_missing_screen_leaves_the_routes_unchanged(navsession_window):
    window = navsession_window
    pushes(window, "list", "about")
    window.apply([c.pop_to("settings")])
    assert window.current_routes == [push("list"), push("about")]


# Bindings (README): a screen given a binding to its own value updates it in place in the routes array.
def test_flowstacks_a_screen_binding_edited_in_place_updates_its_route(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1"}))
    window.apply([c.set_params({"id": "2"}, model=detail)])
    assert window.current_routes == [push("detail", {"id": "2"})]
    assert window.active_model == detail


# push: "This should only be called if the most recently presented screen is embedded in a NavigationView" — an
# assertion otherwise (canPush is false); FlowStacks never puts a route below a presentation.
@differs("A push while a sheet without navigation is on top is not refused: stackAppend walks up to the nearest "
         "stack, the presenter's, and pushes there beneath the sheet (routes become [push list, sheet about]); "
         "FlowStacks asserts that the latest presentation has navigation and only ever appends after it.")
def test_flowstacks_a_push_never_lands_below_a_sheet_without_navigation(navsession_window):
    window = navsession_window
    window.apply([c.present(s.sheet("about"))])
    with contextlib.suppress(errors.NavSessionError):
        window.push("list")
    assert window.current_routes[0] == sheet("about")


# =====================================================================================================================
# React Navigation 7. A stack's `state.routes` is NavSession's whole stack (element 0 included: `back_stack`).
# Sources: reactnavigation.org/docs/7.x — navigation-object ("navigate", "setParams", "replaceParams", "goBack",
# "reset"), stack-actions, params ("Initial params"), bottom-tab-navigator ("backBehavior"), upgrading-from-6.x;
# and packages/routers/src/StackRouter.tsx and SwitchRouter.tsx on the 7.x branch where the docs are brief.
# =====================================================================================================================

# navigate in a stack: "If you're on a different screen, it will push the new screen onto the stack".
def test_react_navigate_to_another_screen_pushes_it(navsession_window):
    window = navsession_window
    window.apply([c.push("detail", {"id": "1"}, single_top=True)])
    window.apply([c.push("about", single_top=True)])
    assert back_stack(window) == [("home", {}), ("detail", {"id": "1"}), ("about", {})]


# upgrading-from-6.x: navigate no longer goes back to a screen already in the stack (that is popTo); it pushes.
def test_react_navigate_pushes_even_when_the_screen_is_deeper_in_the_stack(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "about")
    window.apply([c.push("detail", {"id": "2"}, single_top=True)])
    assert back_stack(window) == [("home", {}), ("detail", {"id": "1"}), ("about", {}), ("detail", {"id": "2"})]


# navigate: "If you're already on a screen with the same name, it will update its params and not push a new
# screen" — `merge` defaults to false: the params are replaced.
def test_react_navigate_to_the_focused_screen_updates_its_params_without_pushing(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1", "edit": "1"}))
    window.apply([c.push("detail", {"id": "7"}, single_top=True)])
    assert back_stack(window) == [("home", {}), ("detail", {"id": "7"})]
    assert window.active_model == detail


# navigate(name, params, { merge: true }): "Whether params should be merged with the existing route params".
@differs("Docs/coming-from.md maps navigate({name, params, merge: true}) to stackAppend with singleTop, which "
         "replaces the top's params: the result is {id: 7}, not React's merged {id: 7, edit: 1}.")
def test_react_navigate_with_merge_merges_into_the_focused_screens_params(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1", "edit": "1"}))
    window.apply([c.push("detail", {"id": "7"}, single_top=True)])
    assert back_stack(window)[-1] == ("detail", {"id": "7", "edit": "1"})


# params, "Initial params": initial params "are also shallow merged with any params that you pass" — navigate to
# the focused screen builds its params as {...initialParams, ...params} (StackRouter NAVIGATE,
# createParamsFromAction).
@differs("initialParams apply only when a model is created: stackAppend with singleTop replaces the top's params "
         "with exactly the given ones ({id: 2}); React merges the screen's initialParams under them "
         "({tab: info, id: 2}).")
def test_react_navigate_to_the_focused_screen_applies_initial_params_again(navsession_window):
    window = navsession_window
    pushes(window, ("article", {"id": "1", "tab": "reviews"}))
    window.apply([c.push("article", {"id": "2"}, single_top=True)])
    assert back_stack(window)[-1] == ("article", {"id": "2", "tab": "info"})


# push: "push will always add on top, so a route can be present multiple times".
def test_react_push_adds_the_screen_even_when_it_is_focused(navsession_window):
    window = navsession_window
    first, second = pushes(window, ("profile", {"user": "Wojtek"}), ("profile", {"user": "Wojtek"}))
    assert back_stack(window) == [("home", {}), ("profile", {"user": "Wojtek"}), ("profile", {"user": "Wojtek"})]
    assert first != second


# pop(count): "takes you back to a previous screen in the stack ... how many screens to pop back by".
def test_react_pop_goes_back_count_screens(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.pop(2)
    assert screens(window) == ["home", "list"]
    window.pop(1)
    assert screens(window) == ["home"]


# StackRouter POP keeps at least the first route (Math.max(index - count + 1, 1)).
def test_react_pop_more_than_the_stack_holds_stops_at_the_first_screen(navsession_window):
    window = navsession_window
    pushes(window, "list", "about")
    window.pop(5)
    assert screens(window) == ["home"]


# popToTop: "takes you back to the first screen in the stack, dismissing all the others".
def test_react_pop_to_top_goes_back_to_the_first_screen(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.pop_to_root()
    assert screens(window) == ["home"] and window.can_go_back is False


# dispatch({...StackActions.pop(2), source: route.key, target: state.key}): StackRouter POP counts from the source
# route: it and the one below it go, the routes above it stay.
def test_react_pop_with_a_source_removes_that_route_and_keeps_those_above(navsession_window):
    window = navsession_window
    _list, detail, _about = pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.apply([c.pop_at(2).from_(detail)])
    assert screens(window) == ["home", "about"]


# StackRouter POP with a source never removes the first route, whatever the count.
def test_react_pop_with_a_source_never_removes_the_first_screen(navsession_window):
    window = navsession_window
    _list, detail, _about = pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.pop_at(detail, 5)
    assert screens(window) == ["home", "about"]


# popTo(name, params): back to the screen by name, params passed to it; merge "Defaults to false" (replaced).
def test_react_pop_to_an_earlier_screen_replaces_its_params(navsession_window):
    window = navsession_window
    detail, _about, _settings = pushes(window, ("detail", {"id": "1", "edit": "1"}), "about", "settings")
    window.pop_to("detail", {"id": "2"})
    assert back_stack(window) == [("home", {}), ("detail", {"id": "2"})]
    assert window.active_model == detail


# popTo(name, params, { merge: true }): the params are merged with the route's params.
def test_react_pop_to_with_merge_merges_the_params(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1", "edit": "1"}), "about")
    window.apply([c.pop_to("detail", {"id": "2"}, merge=True)])
    assert back_stack(window) == [("home", {}), ("detail", {"id": "2", "edit": "1"})]


# StackRouter POP_TO searches from the focused route downwards: the most recent route of that name.
def test_react_pop_to_goes_back_to_the_most_recent_screen_of_that_name(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "about", ("detail", {"id": "2"}), "settings")
    window.pop_to("detail", {"id": "3"})
    assert back_stack(window) == [("home", {}), ("detail", {"id": "1"}), ("about", {}), ("detail", {"id": "3"})]


# POP_TO: the focused route itself matches first — nothing is popped, its params are set.
def test_react_pop_to_the_focused_screen_pops_nothing_and_sets_its_params(navsession_window):
    window = navsession_window
    _about, detail = pushes(window, "about", ("detail", {"id": "1"}))
    window.pop_to("detail", {"id": "2"})
    assert back_stack(window) == [("home", {}), ("about", {}), ("detail", {"id": "2"})]
    assert window.active_model == detail


# popTo: "If a matching screen is not found in the stack, this will pop the current screen and add a new screen
# with the specified name and params - essentially behaving like a replace".
def test_react_pop_to_a_screen_not_in_the_stack_replaces_the_focused_screen(navsession_window):
    window = navsession_window
    pushes(window, "about", "list")
    window.pop_to("detail", {"id": "9"})
    assert back_stack(window) == [("home", {}), ("about", {}), ("detail", {"id": "9"})]


# The same from the first screen: it is the current screen, so it is the one replaced.
def test_react_pop_to_a_screen_not_in_the_stack_from_the_first_screen_replaces_it(navsession_window):
    window = navsession_window
    window.pop_to("detail", {"id": "9"})
    assert back_stack(window) == [("detail", {"id": "9"})]
    assert window.can_go_back is False


# popTo's merge "Defaults to false": the existing route's params are replaced by the params passed — none passed,
# the route is left with none (StackRouter POP_TO: createParamsFromAction gives the initialParams, here none).
@differs("popTo without params keeps the route's params (Window1.PopTo: 'none keeps them'); React's popTo(name) "
         "with merge false replaces them with what was passed, i.e. none: profile's params become {}.")
def test_react_pop_to_without_params_replaces_the_routes_params(navsession_window):
    window = navsession_window
    pushes(window, ("profile", {"user": "jane", "edit": "1"}), "about")
    window.pop_to("profile")
    assert back_stack(window) == [("home", {}), ("profile", {})]


# params, "Initial params": shallow merged with any params passed — POP_TO replaces an existing route's params with
# {...initialParams, ...params}.
@differs("initialParams apply only when a model is created: popTo replaces an existing article's params with "
         "exactly {id: 2}; React merges the screen's initialParams under them ({tab: info, id: 2}).")
def test_react_pop_to_an_existing_screen_applies_initial_params_again(navsession_window):
    window = navsession_window
    pushes(window, ("article", {"id": "1", "tab": "reviews"}), "about")
    window.pop_to("article", {"id": "2"})
    assert back_stack(window) == [("home", {}), ("article", {"id": "2", "tab": "info"})]


# replace: "replace the current screen with a new one". Docs/coming-from.md has no row for it; the focused screen
# popped and the new one pushed in one batch is the same change.
def test_react_replace_swaps_the_focused_screen(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}))
    version = window.version
    window.apply([c.pop(), c.push("profile", {"user": "jane"})])
    assert back_stack(window) == [("home", {}), ("list", {}), ("profile", {"user": "jane"})]
    assert window.version == version + 1


# setParams: "merge new params onto the route's params".
def test_react_set_params_merges_into_the_current_params(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1", "edit": "1"}))
    window.set_params(0, {"id": "2"})  # 0: the active model, the screen calling setParams
    assert back_stack(window)[-1] == ("detail", {"id": "2", "edit": "1"})
    assert window.active_model == detail


# replaceParams: "replace the route's params with new params" (BaseRouter REPLACE_PARAMS: exactly the payload,
# initialParams not merged in again).
def test_react_replace_params_replaces_the_params(navsession_window):
    window = navsession_window
    detail, article = pushes(window, ("detail", {"id": "1", "edit": "1"}), ("article", {"id": "1"}))
    window.set_params(detail, {"id": "2"}, replace=True)
    window.set_params(article, {"id": "3"}, replace=True)
    assert back_stack(window)[1:] == [("detail", {"id": "2"}), ("article", {"id": "3"})]


# goBack: "go back to the previous screen, this will pop the current screen when used in a stack"; on the first
# screen canGoBack is false and GO_BACK is not handled.
def test_react_go_back_pops_the_focused_screen_and_not_past_the_first(navsession_window):
    window = navsession_window
    pushes(window, "about")
    window.go_back()
    assert screens(window) == ["home"] and window.can_go_back is False
    with pytest.raises(errors.NothingToGoBack):
        window.go_back()
    assert screens(window) == ["home"]


# reset: "replace the navigation state of the navigator with the given state".
def test_react_reset_replaces_the_stacks_routes(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}))
    # reset({index: 1, routes: [{name: "home"}, {name: "profile", params: {user: "jane"}}]})
    window.set_routes([push("profile", {"user": "jane"})])
    assert back_stack(window) == [("home", {}), ("profile", {"user": "jane"})]


# navigation-object, reset example: reset({index: 0, routes: [{name: "Settings", params}]}) leaves Settings alone.
@differs("setRoutes (Docs/coming-from.md's reset) gives the routes above the stack's root: the root element — "
         "React's first route — is not in the route view and stays, so the stack becomes [home, settings] "
         "(can go back) instead of React's [settings].")
def test_react_reset_to_a_single_route_replaces_the_first_screen(navsession_window):
    window = navsession_window
    pushes(window, "list")
    window.set_routes([push("settings")])
    assert screens(window) == ["settings"]


# params, "Initial params": "If you didn't specify any params when navigating to this screen, the initial params
# will be used".
def test_react_initial_params_fill_params_not_given(navsession_window):
    window = navsession_window
    window.apply([c.push("article", {"id": "1"}, single_top=True)])
    assert back_stack(window)[-1] == ("article", {"id": "1", "tab": "info"})


# "They are also shallow merged with any params that you pass": a given key wins; the same for a route created by
# reset (StackRouter getRehydratedState merges initialParams too).
def test_react_initial_params_are_shallow_merged_under_the_given_params(navsession_window):
    window = navsession_window
    window.push("article", {"id": "2", "tab": "reviews"})
    assert back_stack(window)[-1] == ("article", {"id": "2", "tab": "reviews"})
    window.set_routes([push("article", {"id": "5"})])
    assert back_stack(window) == [("home", {}), ("article", {"id": "5", "tab": "info"})]


# bottom-tab-navigator, backBehavior `history`: "return to last visited screen in the navigator; if the same screen
# is visited multiple times, the older entries are dropped from the history".
@scene("tabsHistory")
def test_react_tabs_history_drops_older_visits_of_the_same_tab(navsession_window):
    window = navsession_window
    for tab in ("list", "settings", "list"):
        window.select_tab(tab)  # jumpTo
    window.go_back()
    assert window.selected_tab == "settings"
    window.go_back()
    assert window.selected_tab == "home" and window.can_go_back is False
    with pytest.raises(errors.NothingToGoBack):
        window.go_back()


# `history`: revisiting the first tab drops its older entry, so going back from it reaches the tab left.
@scene("tabsHistory")
def test_react_tabs_history_after_revisiting_the_first_tab(navsession_window):
    window = navsession_window
    window.select_tab("list")
    window.select_tab("home")
    window.go_back()
    assert window.selected_tab == "list" and window.can_go_back is False


# backBehavior `fullHistory`: "return to last visited screen in the navigator; doesn't drop duplicate entries".
@scene("tabsFullHistory")
def test_react_tabs_full_history_keeps_every_visit(navsession_window):
    window = navsession_window
    for tab in ("list", "settings", "list"):
        window.select_tab(tab)
    visited = []
    while window.can_go_back:
        window.go_back()
        visited.append(window.selected_tab)
    assert visited == ["settings", "list", "home"]


# `fullHistory`: jumping to the focused tab adds no visit (SwitchRouter changeIndex: the last entry is moved, not
# duplicated).
@scene("tabsFullHistory")
def test_react_tabs_full_history_ignores_jumping_to_the_focused_tab(navsession_window):
    window = navsession_window
    window.select_tab("list")
    window.select_tab("list")
    window.go_back()
    assert window.selected_tab == "home" and window.can_go_back is False


# backBehavior `order`: "return to screen defined before the focused screen".
@scene("tabsOrder")
def test_react_tabs_order_goes_back_to_the_tab_defined_before(navsession_window):
    window = navsession_window
    window.select_tab("settings")
    window.go_back()
    assert window.selected_tab == "list"
    window.go_back()
    assert window.selected_tab == "home" and window.can_go_back is False


# backBehavior `firstRoute`: "return to the first screen defined in the navigator" (NavSession's `firstTab`).
@scene("tabsFirstRoute")
def test_react_tabs_first_route_goes_back_to_the_first_tab(navsession_window):
    window = navsession_window
    window.select_tab("settings")
    window.select_tab("list")
    window.go_back()
    assert window.selected_tab == "home" and window.can_go_back is False


# backBehavior `initialRoute`: "return to initial screen passed in initialRouteName prop" (here `list`, not the
# first tab); nothing to go back to on it.
@scene("tabsInitialRoute")
def test_react_tabs_initial_route_goes_back_to_the_initial_tab(navsession_window):
    window = navsession_window
    assert window.selected_tab == "list" and window.can_go_back is False
    window.select_tab("home")
    window.go_back()
    assert window.selected_tab == "list"
    window.select_tab("settings")
    window.go_back()
    assert window.selected_tab == "list" and window.can_go_back is False


# backBehavior: `firstRoute` is "(default)".
@differs("A tabs spec without backBehavior has 'none' (GoBack at a tab's root is NothingToGoBack, CanGoBack false); "
         "React's bottom tabs default to 'firstRoute' and go back to the first tab.")
@scene("tabsDefault")
def test_react_tabs_go_back_to_the_first_tab_by_default(navsession_window):
    window = navsession_window
    window.select_tab("settings")
    with contextlib.suppress(errors.NothingToGoBack):
        window.go_back()
    assert window.selected_tab == "home"


# A stack nested in a tab keeps its state while another tab is focused, and goBack is handled by the focused
# (deepest) navigator first, then bubbles up to the tabs (nesting-navigators: "each navigator keeps its own
# navigation history").
@scene("tabsHistory")
def test_react_tabs_keep_each_stack_and_go_back_pops_the_nested_stack_first(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1"}))
    window.select_tab("settings")
    window.go_back()
    assert window.selected_tab == "home"
    assert window.current_routes == [push("detail", {"id": "1"})] and window.active_model == detail
    window.go_back()
    assert window.selected_tab == "home" and window.current_routes == [] and window.can_go_back is False


# =====================================================================================================================
# Jetpack Navigation. The back stack is NavSession's whole stack (start destination included: `screens`).
# Sources: developer.android.com/guide/navigation — backstack ("Basic behavior", "Pop back", "Pop back to a
# particular destination", "Handle failed pops", "Pop up to a destination"), backstack/circular,
# backstack/multi-back-stacks, principles ("Up and Back"), use-graph/pass-data / Compose "Navigate with arguments"
# (defaultValue); the NavOptionsBuilder and NavController references (launchSingleTop, restoreState,
# clearBackStack).
# =====================================================================================================================

# "Each call NavController.navigate() pushes the given destination to the top of the stack."
def test_jetpack_navigate_pushes_the_destination_on_the_back_stack(navsession_window):
    window = navsession_window
    window.apply([c.push("list")])
    window.apply([c.push("detail", {"id": "1"})])
    assert back_stack(window) == [("home", {}), ("list", {}), ("detail", {"id": "1"})]


# navigate without launchSingleTop: the same destination twice is two back stack entries.
def test_jetpack_navigate_twice_to_the_same_destination_stacks_two_copies(navsession_window):
    window = navsession_window
    first, second = pushes(window, ("detail", {"id": "1"}), ("detail", {"id": "1"}))
    assert screens(window) == ["home", "detail", "detail"] and first != second


# launchSingleTop: "there will be at most one copy of a given destination on the top of the back stack" — the top
# entry is reused with the new arguments.
def test_jetpack_launch_single_top_reuses_the_destination_on_top(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1", "edit": "1"}))
    window.apply([c.push("detail", {"id": "2"}, single_top=True)])
    assert back_stack(window) == [("home", {}), ("detail", {"id": "2"})]
    assert window.active_model == detail


# launchSingleTop only looks at the top: another destination on top means a new entry.
def test_jetpack_launch_single_top_pushes_when_another_destination_is_on_top(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "about")
    window.apply([c.push("detail", {"id": "2"}, single_top=True)])
    assert screens(window) == ["home", "detail", "about", "detail"]


# Argument default values apply whenever the argument is not passed; the single-top entry is rebuilt with the new
# arguments plus the destination's defaults (NavController.launchSingleTopInternal: addInDefaultArgs(args)).
@differs("A screen's initialParams (Jetpack's argument defaults) apply only when a model is created: singleTop "
         "replaces the top's params with exactly {id: 2}; Jetpack's single-top entry gets {id: 2, tab: info}.")
def test_jetpack_launch_single_top_applies_argument_defaults_again(navsession_window):
    window = navsession_window
    pushes(window, ("article", {"id": "1", "tab": "reviews"}))
    window.apply([c.push("article", {"id": "2"}, single_top=True)])
    assert back_stack(window)[-1] == ("article", {"id": "2", "tab": "info"})


# popUpTo(route): "pops all non-matching destinations from the back stack until this destination is found", then
# the navigation happens — one change.
def test_jetpack_pop_up_to_the_start_destination_before_navigating(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}))
    version = window.version
    window.apply([c.go_back_to(screen="home"), c.push("profile")])
    assert screens(window) == ["home", "profile"] and window.version == version + 1


# popUpTo a destination in the middle keeps it (inclusive defaults to false).
def test_jetpack_pop_up_to_a_destination_keeps_it(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.apply([c.go_back_to(screen="list"), c.push("profile")])
    assert screens(window) == ["home", "list", "profile"]


# popUpTo(route) { inclusive = true }: "Whether the popUpTo destination should be popped from the back stack".
def test_jetpack_pop_up_to_inclusive_pops_that_destination_too(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.apply([c.go_back_to(screen="list"), c.go_back(), c.push("profile")])
    assert screens(window) == ["home", "profile"]


# backstack/circular: A → B → C, then C → A with popUpTo(A) { inclusive = true }: B and C are removed and "it also
# pops the first A" — one A on the back stack. Here the loop is list → detail → about → list inside home.
def test_jetpack_circular_navigation_with_pop_up_to_inclusive_keeps_one_copy(navsession_window):
    window = navsession_window
    first, _detail, _about = pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.apply([c.go_back_to(screen="list"), c.go_back(), c.push("list")])
    assert screens(window) == ["home", "list"]
    assert back_stack_ids(window)[1] != first  # a new entry, the first A popped


# backstack/circular with A the start destination: inclusive "also pops the first A, effectively clearing the
# stack" before the new A is pushed — the back stack is [A].
@differs("A stack's root element is never popped (goBack/stackDropLast at the root: NothingToGoBack/AlreadyAtRoot), "
         "so popUpTo(start destination) { inclusive = true } expressed as goBackTo + goBack + push is refused whole "
         "and the stack stays [home, list, detail]; Jetpack pops the start destination and leaves one new [home]. "
         "stackSetRoot(home, clear) gives that stack.")
def test_jetpack_circular_navigation_back_to_the_start_destination_keeps_one_copy(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}))
    with contextlib.suppress(errors.NothingToGoBack):
        window.apply([c.go_back_to(screen="home"), c.go_back(), c.push("home")])
    assert screens(window) == ["home"]


# popBackStack(): "attempts to pop the current destination off the back stack and navigate to the previous
# destination".
def test_jetpack_pop_back_stack_pops_the_top_destination(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}))
    window.go_back()
    assert screens(window) == ["home", "list"]


# popBackStack(route, inclusive = false): pops "everything on the stack above that destination" — its most recent
# entry.
def test_jetpack_pop_back_stack_to_a_route_pops_everything_above_its_latest_entry(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}), "list", ("detail", {"id": "2"}), "about")
    window.go_back_to("detail")
    assert back_stack(window) == [("home", {}), ("detail", {"id": "1"}), ("list", {}), ("detail", {"id": "2"})]


# popBackStack(route, inclusive = true): "NavController also pops the given destination off the back stack".
def test_jetpack_pop_back_stack_to_a_route_inclusive_pops_it_as_well(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}), "about")
    window.apply([c.go_back_to(screen="list"), c.go_back()])
    assert screens(window) == ["home"]


# popBackStack(route, inclusive = false) with that route on top: nothing above it, nothing popped.
def test_jetpack_pop_back_stack_to_the_current_destination_pops_nothing(navsession_window):
    window = navsession_window
    pushes(window, "list")
    version = window.version
    window.go_back_to("list")
    assert window.version == version and screens(window) == ["home", "list"]


# popBackStack(route, …) returns "true if the stack was popped at least once ..., false otherwise": a route not on
# the back stack pops nothing. NavSession refuses with RouteNotFound and changes nothing.
def test_jetpack_pop_back_stack_to_a_route_not_on_the_back_stack_pops_nothing(navsession_window):
    window = navsession_window
    pushes(window, "list", "about")
    version = window.version
    with pytest.raises(errors.RouteNotFound):
        window.go_back_to("profile")
    assert window.version == version and screens(window) == ["home", "list", "about"]


# backstack, "Handle failed pops": when popBackStack() pops the last destination, "the app has popped the last
# destination off the back stack" — getCurrentDestination() is null and the user sees a blank screen.
@differs("GoBack never removes a stack's root element: on the start destination it is NothingToGoBack and the stack "
         "stays [home]; Jetpack's popBackStack() pops the start destination and leaves an empty back stack (returns "
         "false, current destination null).")
def test_jetpack_pop_back_stack_on_the_start_destination_leaves_an_empty_back_stack(navsession_window):
    window = navsession_window
    with contextlib.suppress(errors.NothingToGoBack):
        window.go_back()
    assert back_stack(window) == []


# navigateUp (Docs/coming-from.md: "to the start destination" → goBackToRoot): Up from the destination right
# above the start destination returns to it.
def test_jetpack_navigate_up_from_the_second_destination_returns_to_the_start_destination(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}))
    window.go_back_to_root()
    assert screens(window) == ["home"] and window.can_go_back is False


# principles of navigation: "The Up button never exits your app" (it is not shown on the start destination) —
# nothing to do there.
def test_jetpack_navigate_up_on_the_start_destination_does_nothing(navsession_window):
    window = navsession_window
    version = window.version
    window.go_back_to_root()
    assert window.version == version and screens(window) == ["home"]


# backstack, "Basic behavior": "Tapping Up or Back calls the NavController.navigateUp() and
# NavController.popBackStack() methods, respectively. They pop the top destination off the stack"; principles:
# Up and Back are identical within the app's task.
@differs("Docs/coming-from.md maps navigateUp() to goBackToRoot, which returns to the start destination from any "
         "depth ([home]); Jetpack's navigateUp() pops only the top destination, like popBackStack() "
         "([home, list]). goBack is the equivalent below the second destination.")
def test_jetpack_navigate_up_from_deeper_pops_only_the_top_destination(navsession_window):
    window = navsession_window
    pushes(window, "list", ("detail", {"id": "1"}))
    window.go_back_to_root()
    assert screens(window) == ["home", "list"]


# navArgument("tab") { defaultValue = "info" }: an argument with a default value may be left out and gets it.
def test_jetpack_argument_default_is_used_when_the_argument_is_omitted(navsession_window):
    window = navsession_window
    window.apply([c.push("article", {"id": "1"})])
    assert back_stack(window)[-1] == ("article", {"id": "1", "tab": "info"})


# An argument passed with the route overrides its default value.
def test_jetpack_argument_given_overrides_its_default(navsession_window):
    window = navsession_window
    window.apply([c.push("article", {"id": "2", "tab": "reviews"})])
    assert back_stack(window)[-1] == ("article", {"id": "2", "tab": "reviews"})


# The default is part of the entry from then on: popping back to it shows the same arguments.
def test_jetpack_argument_defaults_stay_with_the_entry_when_popping_back_to_it(navsession_window):
    window = navsession_window
    article, _about = pushes(window, ("article", {"id": "1"}), "about")
    window.go_back()
    assert window.active_model == article
    assert back_stack(window)[-1] == ("article", {"id": "1", "tab": "info"})


# backstack/multi-back-stacks (bottom navigation with saveState/restoreState): each item's back stack is saved when
# another item is selected and restored when it is selected again.
@scene("app")
def test_jetpack_bottom_navigation_keeps_each_tabs_back_stack(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1"}))
    window.select_tab("settings")
    pushes(window, "about")
    window.select_tab("home")
    assert window.current_routes == [push("detail", {"id": "1"})] and window.active_model == detail
    window.select_tab("settings")
    assert window.current_routes == [push("about")]
    assert tab_stack(window, "home") == ["home", "detail"]


# The bottom-navigation pattern navigates with popUpTo(graph.findStartDestination()), so "to avoid building up a
# large stack of destinations" the back stack is [start destination, selected item]: Back from another item's root
# returns to the start destination's item, and Back there has nothing left in the app.
@scene("tabsFirstRoute")
def test_jetpack_bottom_navigation_back_returns_to_the_start_destinations_tab(navsession_window):
    window = navsession_window
    window.select_tab("list")
    window.select_tab("settings")
    window.go_back()
    assert window.selected_tab == "home" and window.can_go_back is False


# popUpTo(graph) { saveState = true } when leaving (logging out), restoreState = true when coming back: the saved
# back stack comes back (multi-back-stacks; NavOptionsBuilder.restoreState: "restore any state previously saved").
@scene("app")
def test_jetpack_saved_state_comes_back_on_restore(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1"}))
    window.apply([c.switch_model("login", save_state=True)])
    assert window.active_screen == "login" and window.selected_tab == ""
    window.switch_model("main")
    assert window.selected_tab == "home"
    assert window.current_routes == [push("detail", {"id": "1"})] and window.active_model == detail


# restoreState = false: the destination is built afresh, the saved state is not used.
@scene("app")
def test_jetpack_restore_state_false_builds_the_graph_afresh(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}))
    window.apply([c.switch_model("login", save_state=True)])
    window.apply([c.switch_model("main", restore_state=False)])
    assert window.selected_tab == "home" and window.current_routes == []


# NavController.clearBackStack(route): "Clears any saved state associated with route that was previously saved";
# navigating there again starts fresh.
@scene("app")
def test_jetpack_clear_back_stack_discards_the_saved_state(navsession_window):
    window = navsession_window
    pushes(window, ("detail", {"id": "1"}))
    window.select_tab("settings")
    window.apply([c.switch_model("login", save_state=True)])
    window.apply([c.clear_saved_state("main")])
    window.switch_model("main")
    assert window.selected_tab == "home" and window.current_routes == []
    assert tab_stack(window, "home") == ["home"]


# =====================================================================================================================
# SwiftUI / SwiftUINavigation: a destination presents (`.sheet(item:)` on a pushed view), its sheet goes when it is
# popped, and a result comes back to it; SwiftUINavigation's PresentOnGivenModelNavigationCommand on that view.
# =====================================================================================================================

# `.sheet` attached to a pushed destination: the sheet shows; popping the destination takes the sheet with it.
def test_swiftui_a_pushed_destinations_sheet_goes_when_it_is_popped(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1"}))
    window.apply([c.present(s.sheet("about"), on=detail)])
    assert window.current_routes == [push("detail", {"id": "1"}), sheet("about")]
    window.apply([c.pop(1).from_(detail)])
    assert window.current_routes == []


# The presented view's dismiss with a value reaches the destination that presented it (a binding or callback in
# SwiftUI; NavSession's `result` message to the opener).
def test_swiftui_a_pushed_destinations_sheet_returns_its_result_to_it(navsession_window):
    window = navsession_window
    [detail] = pushes(window, ("detail", {"id": "1"}))
    window.apply([c.present(s.sheet("about"), on=detail)])
    about = window.active_model
    state = window.state()
    assert next(m for m in state["models"] if m["id"] == about).get("resultTo") == detail
    window.apply([c.go_back(result={"picked": "red"})])
    assert window.current_routes == [push("detail", {"id": "1"})] and window.active_model == detail
