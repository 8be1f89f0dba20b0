"""NavSession for GTK 4 applications: windows that follow navsessiond, drawn with the application's own widgets.

    import gi
    gi.require_version("Gtk", "4.0")
    from gi.repository import Gtk
    from navsession.gtk import NavigationApp, Page

    class NotePage(Page):
        def build(self, params, state):
            return Gtk.Label(label=f"note {params['id']}")

    app = NavigationApp(application_id="org.example.NotesApp", bus_name="org.example.Notes",
                        pages={"note": NotePage, "list": lambda ctx: Gtk.Label(label="Notes")})
    app.run()

:class:`NavigationApp` (a ``Gtk.Application``) follows every window of one daemon: a top-level window each, the
switched root, tabs and stacks as ``Gtk.Stack`` pages, sheets and covers as modal windows, alerts and dialogs with
one button per action, a header with the title and a back button. Each screen is drawn by the **page factory** the
application registered for it (:mod:`navsession.gtk.pages`): a :class:`Page` subclass or a callable returning a
``Gtk.Widget``; screens without one show a :class:`Placeholder`. A screen prepared ahead (``Window1.Prepare``) gets
its page as soon as the window's ``Prepared`` property lists it, and the push that names its id shows that page.
Nothing changes on screen before the daemon says so: the user's back (button, Escape, Alt+Left, mouse button 8, a
swipe from the left edge) asks the daemon first (``BeginBack``) and goes back only when allowed (``CommitBack``);
tabs, segments, dialog buttons and window closes are reported; a tab's context menu moves the tab to a new window or
into another window's tabs (``MoveModel``); each shown version is reported settled; renderer state — the window's
size, each page's scroll positions, drafts and selections — is saved in the daemon and restored after a restart. Each
announcement of a window (Window1 ``Announcement``, Docs/announcements.md) moves keyboard focus to its model's page
or dialog and is the window's status for assistive technologies. On each window the application registers as a
renderer (Window1 ``RegisterRenderer``, Docs/renderers.md) — the primary by default, or a mirror
(``NavigationApp(role="mirror")``: it shows the windows and never changes them) — and animates the ``Steps`` planned
for what it can animate; a primary reports the window's width class (``ReportWidthClass``) and every renderer shows
the pages ``VisibleModels`` lists of one stack side by side (a scene's panes, Docs/panes.md).
``python3 -m navsession.gtk [--mirror]`` runs the binding with placeholder pages (``__main__``).

This subpackage needs PyGObject with GTK 4 (Debian: ``python3-gi``, ``gir1.2-gtk-4.0``); ``import navsession``
does not import it. Docs/python.md, "Your own widgets: navsession.gtk", has a complete example.

Modules: ``app`` (the application and its reports), ``window_view`` (one navigation window), ``content`` (the
containers), ``pages`` (pages and factories), ``widget_state`` (the default renderer state), ``dialogs`` (modal
windows), ``announcer`` (announcements: focus and the status label), ``graph`` (a GetState snapshot), ``steps``
(``Changed``'s steps), ``animator`` (their order),
``swipe`` (the back swipe), ``renderer_state`` (what is kept in the daemon), ``probe`` (what tests see:
``NAVSESSION_GTK_TEST_REPORT``).
"""

from __future__ import annotations

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
gi.require_version("Gsk", "4.0")
gi.require_version("Graphene", "1.0")

from .app import NavigationApp, WindowReporter  # noqa: E402
from .pages import (DEFAULT, BrowserPage, FailedPage, Page, PageContext, PageFactory, PageHost,  # noqa: E402
                    Placeholder, WidgetPage)
from .probe import REPORT_ENV  # noqa: E402
from .window_view import NavWindowView  # noqa: E402

__all__ = ["NavigationApp", "Page", "PageContext", "PageFactory", "Placeholder", "WidgetPage", "BrowserPage",
           "FailedPage", "PageHost", "NavWindowView", "WindowReporter", "REPORT_ENV", "DEFAULT"]
