"""Pages: the application's widgets for its screens.

An application registers a **page factory** per screen name (:class:`navsession.gtk.NavigationApp`'s ``pages``).
When a model of that screen first appears in a window, the binding calls the factory with a :class:`PageContext`
— the model's id, screen, params, title and the renderer state kept for it, the :class:`navsession.Window` and the
application — and shows what it returns:

- a :class:`Page` (a subclass's constructor is a factory: ``pages={"note": NotePage}``): the binding calls its
  :meth:`Page.build` for the widget, :meth:`Page.restore_state` with the kept state, and later
  :meth:`Page.update` when the model's params or title change and :meth:`Page.closed` when the model finishes;
- a plain ``Gtk.Widget`` (``pages={"inbox": lambda ctx: Gtk.Label(label="Inbox")}``): wrapped in a
  :class:`WidgetPage`, which calls the factory again for new params (the default state carried over).

A page is made once per model and lives as long as the model (a stack keeps its pages, so going back shows the
same widgets). A model prepared ahead of being shown (``Window1.Prepare``, React Navigation's ``preload``) gets its
page as soon as the window's ``Prepared`` property lists it — the context has the id the model will have — and a
push naming that id shows that very page; one dropped or expired unshown is closed. Whatever the page shows sits in a :class:`PageHost`, the widget the binding's containers (stacks,
tabs, sheets) hold; the host gives its child all of its space.

**Renderer state.** Each model has a small JSON object the daemon keeps with the graph across restarts
(Docs/renderers.md, "Renderer state"). A page's is what :meth:`Page.save_state` returns — by default the scroll
positions, text drafts and selections of its widgets (:mod:`navsession.gtk.widget_state`), watched without code of
the application — saved 300 ms after the last change (:meth:`Page.state_changed` asks for a save) and handed back
to :meth:`Page.build` and :meth:`Page.restore_state` when the page is made again (after the application or the
daemon restarted).

**Protection.** :meth:`Page.protect` marks the page's model protected (``Window1.Protect``; the mark is the
application's connection's, so it goes when the application exits): the daemon refuses any change that would
finish it — back, a pop, a dismissal, a deep link elsewhere — with ``Prevented``, and, when the mark names a
dialog the manifest declares (the application's ``discard_dialog``), presents that dialog instead, which the
binding shows like any alert. Its re-applying action ("Discard") re-applies the refused change.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol, Sequence, Union

from gi.repository import Gio, GLib, Gtk, Pango

import navsession
from navsession import NavSessionError
from navsession.commands import CommandLike

from .widget_state import WidgetState

if TYPE_CHECKING:
    from .app import NavigationApp

log = logging.getLogger("navsession.gtk.pages")


class PageServices(Protocol):
    """What a page needs from the window that shows it (the window view implements it)."""

    discard_dialog: str | None

    def protect(self, model: int, reason: str, dialog: str) -> None: ...
    def unprotect(self, model: int) -> None: ...
    def save_state(self, model: int, make: Callable[[], dict[str, Any] | None]) -> None: ...
    def screen_changed(self) -> None: ...
    def navigate(self, batch: Sequence[CommandLike], expected_version: int | None,
                 on_done: Callable[[int], None] | None, on_error: Callable[[NavSessionError], None] | None) -> None: ...
    def shown_version(self) -> int | None: ...


@dataclass
class PageContext:
    """What a page factory gets: the model it draws and the means to act.

    ``model_id`` is the model's id in the window, ``screen`` its screen name, ``params`` its parameters (strings),
    ``title`` its title (the model's own, else the screen's made readable), ``state`` the renderer state kept for
    it (``{}`` the first time), ``window`` the :class:`navsession.Window` it is in and ``app`` the
    :class:`~navsession.gtk.NavigationApp`. ``params`` and ``title`` follow the model (they are current when
    :meth:`Page.update` runs); ``state`` is what was kept when the page was made."""

    model_id: int
    screen: str
    params: dict[str, str]
    title: str
    state: dict[str, Any]
    window: navsession.Window
    app: "NavigationApp"
    services: PageServices = field(repr=False)

    def navigate(self, *commands: CommandLike, expected_version: int | None = None,
                 on_done: Callable[[int], None] | None = None,
                 on_error: Callable[[NavSessionError], None] | None = None) -> None:
        """Applies the commands (:mod:`navsession.commands`) as one batch without blocking (``Window1.Apply``):
        ``ctx.navigate(c.push("note", {"id": "7"}))``. Nothing changes on screen until the daemon's change
        arrives. ``expected_version``: only if the window is still at that version (:meth:`shown_version` is the
        one on screen), else ``VersionMismatch``; ``on_done(version)`` / ``on_error(error)`` run on the main
        loop (without ``on_error`` a refusal is logged)."""
        self.services.navigate(list(commands), expected_version, on_done, on_error)

    def shown_version(self) -> int | None:
        """The window's version on screen (``None`` before the first render)."""
        return self.services.shown_version()

    def screen_changed(self) -> None:
        """Tells the application something on screen changed without a D-Bus event (its ``screen_changed``)."""
        self.services.screen_changed()


class _Default:
    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()  # protect()'s dialog: the application's discard_dialog


class Page:
    """One screen drawn by the application: subclass it and register the class as the screen's factory.

    Override :meth:`build` (required), and :meth:`update`, :meth:`save_state`, :meth:`restore_state`,
    :meth:`closed` as needed. A subclass that defines ``__init__`` must call ``super().__init__(context)``.

    The binding calls, in order: ``build(params, state)`` once; ``restore_state(state)`` with the state kept for
    the model (also ``{}``); ``update(params)`` whenever the model's params or title changed; ``closed()`` once
    the model finished (or the window went). All on the main loop.

    What a page can do: :meth:`navigate` (commands, without blocking), :attr:`window` (the
    :class:`navsession.Window`: every method of the Python client), :meth:`protect` / :meth:`unprotect`,
    :meth:`state_changed` (save the renderer state), and read :attr:`model_id`, :attr:`screen`, :attr:`params` and
    the rest of :attr:`context` (``context.title``, ``context.state``…)."""

    def __init__(self, context: PageContext) -> None:
        self.context = context
        #: The widget :meth:`build` returned (what the page shows).
        self.widget: Gtk.Widget | None = None
        self._protected: tuple[str, str] | None = None
        self._closed = False
        self._widget_state = WidgetState(self.state_changed, context.screen_changed)

    # -- what a subclass overrides --------------------------------------------------------------

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        """Makes the page's widget for ``params``; ``state`` is the renderer state kept for the model (``{}``
        the first time). The default state (scroll, drafts, selection) is restored afterwards by
        :meth:`restore_state`, so ``build`` need not read it."""
        raise NotImplementedError(f"{type(self).__name__}.build")

    def update(self, params: dict[str, str]) -> None:
        """The model's params (or its title, ``self.context.title``) changed: show them. The default does
        nothing."""

    def save_state(self) -> dict[str, Any]:
        """The renderer state to keep for the model: a JSON object of at most 4 096 bytes (with the other keys of
        the model's object), replacing the one kept. The default: the scroll positions, text drafts and selections
        of the page's widgets (:mod:`navsession.gtk.widget_state`). Extend it with
        ``{**super().save_state(), "zoom": self.zoom}``; call :meth:`state_changed` when your own part changes."""
        return self._widget_state.save(self.widget)

    def restore_state(self, state: dict[str, Any]) -> None:
        """Shows the kept ``state`` (after :meth:`build`). The default restores what the default
        :meth:`save_state` keeps, leaving other keys alone."""
        self._widget_state.restore(self.widget, state)

    def closed(self) -> None:
        """The model finished (popped, dismissed…), its window closed, or — for a page made ahead — its prepared
        model was dropped without being shown: the page will not be shown again. The default does nothing; a
        protection mark goes with the model."""

    # -- what a page can do ---------------------------------------------------------------------

    @property
    def model_id(self) -> int:
        """The model's id in its window."""
        return self.context.model_id

    @property
    def screen(self) -> str:
        return self.context.screen

    @property
    def params(self) -> dict[str, str]:
        """The model's current params."""
        return self.context.params

    @property
    def window(self) -> navsession.Window:
        """The :class:`navsession.Window` the page is in: ``self.window.push("note", {"id": "7"})``, ``present``,
        ``go_back``… (blocking round trips; :meth:`navigate` does not block)."""
        return self.context.window

    @property
    def app(self) -> "NavigationApp":
        return self.context.app

    def navigate(self, *commands: CommandLike, expected_version: int | None = None,
                 on_done: Callable[[int], None] | None = None,
                 on_error: Callable[[NavSessionError], None] | None = None) -> None:
        """Applies ``commands`` as one batch without blocking (:meth:`PageContext.navigate`)."""
        self.context.navigate(*commands, expected_version=expected_version, on_done=on_done, on_error=on_error)

    @property
    def protected(self) -> bool:
        """Whether this page asked for its model to be protected (and has not unprotected it since)."""
        return self._protected is not None

    def protect(self, reason: str = "unsaved changes", *, dialog: Optional[str] = DEFAULT) -> None:
        """Protects the page's model (``Window1.Protect(model, reason, dialog)``, sent without blocking): the daemon
        refuses every change that would finish it with ``Prevented``; with a ``dialog`` (default: the
        application's ``discard_dialog``, ``None`` for none) it presents that manifest dialog instead, and its
        re-applying action re-applies the refused change. Calling it again with the same arguments sends
        nothing; the mark goes with the model, with :meth:`unprotect`, or when the application exits."""
        name = self.context.services.discard_dialog if dialog is DEFAULT else dialog
        wanted = (reason, name or "")
        if self._protected == wanted or self._closed:
            return
        self._protected = wanted
        self.context.services.protect(self.model_id, reason, name or "")

    def unprotect(self) -> None:
        """Removes the page's protection mark (``Window1.Unprotect``); nothing when there is none."""
        if self._protected is None or self._closed:
            return
        self._protected = None
        self.context.services.unprotect(self.model_id)

    def state_changed(self) -> None:
        """The page's renderer state changed: :meth:`save_state` is called once the changes pause (300 ms) and
        its object sent when it differs from the kept one. The default state's widgets call it themselves."""
        if not self._closed:
            self.context.services.save_state(self.model_id, self._save)

    def _save(self) -> dict[str, Any] | None:
        """What the keeper sends once the changes pause; nothing once the page closed (its model went)."""
        return None if self._closed else self.save_state()

    # -- driven by the binding ------------------------------------------------------------------

    def _start(self) -> Gtk.Widget:
        """Builds the widget, watches its default state and restores the kept state."""
        widget = self.build(dict(self.context.params), dict(self.context.state))
        if not isinstance(widget, Gtk.Widget):
            raise TypeError(f"{type(self).__name__}.build returned {type(widget).__name__}, not a Gtk.Widget")
        self.widget = widget
        self._widget_state.watch(widget)
        self.restore_state(dict(self.context.state))
        return widget

    def _refresh(self, params: dict[str, str], title: str) -> None:
        """The model as the latest render has it: :meth:`update` when its params or title changed."""
        if params == self.context.params and title == self.context.title:
            return
        self.context.params, self.context.title = dict(params), title
        self.update(dict(params))
        self._widget_state.watch(self.widget)

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._widget_state.close()
        try:
            self.closed()
        except Exception:  # an application's hook must not break rendering
            log.exception("%s.closed failed", type(self).__name__)


PageFactory = Callable[[PageContext], Union[Page, Gtk.Widget]]


def model_params(model: Mapping[str, Any]) -> dict[str, str]:
    """A model's params from a GetState snapshot, as the strings they are on the bus."""
    return {str(key): str(value) for key, value in (model.get("params") or {}).items()}


class WidgetPage(Page):
    """The page of a factory that returns a plain widget: shows it, and for new params calls the factory again,
    carrying the default state (scroll, drafts, selection) over to the new widget."""

    def __init__(self, context: PageContext, factory: PageFactory, widget: Gtk.Widget) -> None:
        super().__init__(context)
        self.factory = factory
        self._first: Gtk.Widget | None = widget

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        widget, self._first = self._first, None
        return widget if widget is not None else self._make()

    def update(self, params: dict[str, str]) -> None:
        kept = self.save_state()
        self.widget = self._make()
        self._widget_state.watch(self.widget)
        self.restore_state(kept)

    def _make(self) -> Gtk.Widget:
        made = self.factory(self.context)
        if not isinstance(made, Gtk.Widget) or isinstance(made, Page):
            raise TypeError(f"the factory of {self.screen!r} returned {type(made).__name__}, not a Gtk.Widget")
        return made


class Placeholder(Page):
    """What a screen without a factory shows: its title, the screen's name, the model id and the params, centred
    in a scrolled area (the reference renderer draws every screen so)."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.scroller = Gtk.ScrolledWindow(hexpand=True, vexpand=True, hscrollbar_policy=Gtk.PolicyType.NEVER)
        self.box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, valign=Gtk.Align.CENTER,
                           halign=Gtk.Align.CENTER, margin_top=24, margin_bottom=24, margin_start=24, margin_end=24)
        self.scroller.set_child(self.box)
        self.heading = Gtk.Label()
        self.heading.add_css_class("title-1")
        self.details = Gtk.Label(wrap=True, wrap_mode=Pango.WrapMode.WORD_CHAR, justify=Gtk.Justification.CENTER)
        self.details.add_css_class("dim-label")
        self.box.append(self.heading)
        self.box.append(self.details)
        self.update(params)
        return self.scroller

    def update(self, params: dict[str, str]) -> None:
        self.heading.set_label(self.context.title)
        lines = [f"screen “{self.screen}” · model {self.model_id}"]
        lines += [f"{key} = {value}" for key, value in sorted(params.items())]
        self.details.set_label("\n".join(lines))

    def scroll_to(self, value: float) -> None:
        """What the user's scrolling does."""
        self.scroller.get_vadjustment().set_value(value)


class BrowserPage(Placeholder):
    """The built-in ``browser`` screen (a presented web page, ``specs.browser``): its URL and a button that opens
    it in the desktop's browser (no WebKit here). An application's own ``browser`` factory replaces it."""

    def build(self, params: dict[str, str], state: dict[str, Any]) -> Gtk.Widget:
        self.url = ""
        widget = super().build(params, state)
        self.open_button = Gtk.Button(label="Open in browser")
        self.open_button.add_css_class("suggested-action")
        self.open_button.connect("clicked", self._open_url)
        self.box.append(self.open_button)
        return widget

    def update(self, params: dict[str, str]) -> None:
        self.url = str(params.get("url", ""))
        self.heading.set_label("Browser")
        self.details.set_label(self.url)

    def _open_url(self, _button: Gtk.Button) -> None:
        try:
            Gio.AppInfo.launch_default_for_uri(self.url, None)  # xdg-open through GIO
        except GLib.Error as error:
            log.info("could not open %s: %s", self.url, error.message)


class FailedPage(Placeholder):
    """Shown in place of a page whose factory or ``build`` raised (the error is logged): rendering goes on."""

    def __init__(self, context: PageContext, error: BaseException) -> None:
        super().__init__(context)
        self.error = error

    def update(self, params: dict[str, str]) -> None:
        super().update(params)
        self.details.set_label(f"{self.details.get_label()}\n\ncould not be shown: "
                               f"{type(self.error).__name__}: {self.error}")


BUILTIN_PAGES: Mapping[str, PageFactory] = {"browser": BrowserPage}


def make_page(factory: PageFactory, context: PageContext) -> Page:
    """Calls ``factory`` and starts the page it made (a widget is wrapped in a :class:`WidgetPage`); a factory or
    page that raises is logged and replaced by a :class:`FailedPage`."""
    try:
        made = factory(context)
        if isinstance(made, Page):
            page = made
            if getattr(page, "_widget_state", None) is None:
                raise TypeError(f"{type(page).__name__}.__init__ must call super().__init__(context)")
        elif isinstance(made, Gtk.Widget):
            page = WidgetPage(context, factory, made)
        else:
            raise TypeError(f"the factory of {context.screen!r} returned {type(made).__name__}: "
                            "expected a navsession.gtk.Page or a Gtk.Widget")
        page._start()
        return page
    except Exception as error:
        log.exception("the page of screen %r (model %d) could not be made", context.screen, context.model_id)
        failed = FailedPage(context, error)
        failed._start()
        return failed


class SingleChild:
    """What a widget with one child of its own does (mixed into a ``Gtk.Widget`` subclass): keep it, take it from
    any parent it had, give it back when replaced — and on ``destroy`` (GTK emits it from dispose) leave no child
    behind."""

    _child: Gtk.Widget | None = None

    def _adopt_on_destroy(self) -> None:
        self.connect("destroy", lambda *_: self._adopt(None))  # type: ignore[attr-defined]

    def get_child(self) -> Gtk.Widget | None:
        return self._child

    def _adopt(self, child: Gtk.Widget | None) -> None:
        if child is self._child:
            return
        if self._child is not None:
            self._child.unparent()
        self._child = child
        if child is not None:
            if child.get_parent() is not None:
                child.unparent()
            child.set_parent(self)


class PageHost(SingleChild, Gtk.Widget):
    """The widget a screen's model is in the window: it holds the page's widget and gives it all of its space
    (``Gtk.BinLayout``), so containers move the host and never the application's widget."""

    def __init__(self, page: Page) -> None:
        super().__init__(layout_manager=Gtk.BinLayout(), hexpand=True, vexpand=True)
        self.page = page
        self.model_id = page.model_id
        self.screen = page.screen
        self._adopt_on_destroy()
        self._adopt(page.widget)

    def refresh(self, params: dict[str, str], title: str) -> None:
        """The model as the latest render has it: the page updates (and may have a new widget)."""
        try:
            self.page._refresh(params, title)
        except Exception:
            log.exception("%s.update failed (screen %r, model %d)", type(self.page).__name__, self.screen,
                          self.model_id)
        self._adopt(self.page.widget)

    def close(self) -> None:
        """The model finished: the page closes."""
        self.page._close()
