"""What assistive technologies get of a window's announcements (Window1 ``Announcement``, Docs/announcements.md).

The daemon says, after each change that moves focus and each alert or dialog presented, what a screen reader should
say and which model takes keyboard focus. A window view (window_view.py) hands each announcement here once it shows
the version the announcement is about (when it reports that version settled: the pages are built and their
transitions are over, so a page can take focus):

- **focus** moves to the widget the view made for the focus model (:func:`move_focus`): the first widget of the
  page that takes keyboard focus, in Tab order (a page where focus already is keeps it); a page with none takes
  focus itself (it becomes focusable, not by clicking); an alert or dialog focuses its cancel action's button, else
  its first one (unless focus is on one of its buttons already);
- **the text** goes to a status label in the window's header bar (:func:`status_label`): transparent, not
  focusable, not a click target, with the accessible role ``STATUS`` and its accessible label set to the text, so a
  screen reader reads it as the window's status (:func:`say`).

GTK 4.8 (Debian 12) has no ``gtk_accessible_announce`` (GTK 4.14) and no live regions: there the text is the status
label's and what a screen reader says on its own when focus lands; with GTK 4.14 or later :func:`say` also calls
``Gtk.Accessible.announce`` — ``HIGH`` priority (interrupting) for an alert or dialog, ``MEDIUM`` otherwise, as the
daemon's polite/assertive rule says. What this GTK supports is probed at run time (``hasattr``).
"""

from __future__ import annotations

import logging

from gi.repository import Gtk, Pango

log = logging.getLogger("navsession.gtk.announcer")

#: ``Gtk.AccessibleRole.STATUS``, when this GTK has it (every GTK 4 so far).
STATUS_ROLE = getattr(Gtk.AccessibleRole, "STATUS", None)
#: ``Gtk.Accessible.announce`` (GTK 4.14): said at once by the screen reader, with a priority.
CAN_ANNOUNCE = hasattr(Gtk.Accessible, "announce") and hasattr(Gtk, "AccessibleAnnouncementPriority")
#: The CSS class of the status label (``opacity: 0`` is set on the widget itself).
CSS_CLASS = "navsession-announcer"


def status_label() -> Gtk.Label:
    """The window's status label: what assistive technologies read as the window's status, not seen (transparent,
    one character wide at most, ellipsized), never focused or clicked."""
    kwargs = {"accessible_role": STATUS_ROLE} if STATUS_ROLE is not None else {}
    label = Gtk.Label(label="", opacity=0.0, ellipsize=Pango.EllipsizeMode.END, width_chars=0, max_width_chars=1,
                      single_line_mode=True, focusable=False, can_target=False, **kwargs)
    label.add_css_class(CSS_CLASS)
    return label


def say(label: Gtk.Label, text: str, assertive: bool) -> None:
    """``text`` as the status label's text and accessible label; with GTK 4.14 or later also announced at once
    (``assertive``: interrupting)."""
    label.set_label(text)
    if hasattr(label, "update_property"):
        try:
            label.update_property([Gtk.AccessibleProperty.LABEL], [text])
        except (TypeError, ValueError) as error:  # an older PyGObject without the override
            log.debug("cannot set the status label's accessible label: %s", error)
    if CAN_ANNOUNCE and text:
        priority = Gtk.AccessibleAnnouncementPriority.HIGH if assertive else Gtk.AccessibleAnnouncementPriority.MEDIUM
        label.announce(text, priority)  # type: ignore[attr-defined]


def move_focus(target: Gtk.Widget, first: Gtk.Widget | None = None) -> bool:
    """Moves keyboard focus into ``target`` (a page's host, or a dialog's window) within its window: kept where it is
    when it is inside ``target`` already (the field the user left on a screen they come back to; the button they
    moved to in a dialog announced again), else to ``first`` (a dialog's cancel button) when given, else to
    ``target`` itself when it takes focus, else to its first widget that does (Tab order); a target with none
    becomes focusable (not on click) and takes it. ``False``: the widget is in no window, insensitive or not
    shown."""
    root = target.get_root()
    if root is None or not target.is_sensitive():
        return False
    focus = root.get_focus()
    if focus is not None and (focus is target or focus.is_ancestor(target)):
        return True
    if first is not None and first.grab_focus():
        return True
    if target.get_focusable():
        return target.grab_focus()
    if target.child_focus(Gtk.DirectionType.TAB_FORWARD):
        return True
    if not target.is_drawable():
        return False  # not shown (a page of a stack that shows another): a later announcement will bring it
    target.set_focus_on_click(False)
    target.set_focusable(True)
    return target.grab_focus()


__all__ = ["status_label", "say", "move_focus", "STATUS_ROLE", "CAN_ANNOUNCE", "CSS_CLASS"]
