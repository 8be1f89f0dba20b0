"""Modal windows: sheets, covers and custom presentations (their own header bar), and alerts and
confirmation dialogs (headline, message, one button per action).

They never close themselves: a close request, Escape or a button calls back into the window view,
which reports to the daemon; the window closes when GetState no longer holds its model.
"""

from __future__ import annotations

from typing import Any, Callable

from gi.repository import GLib, Gtk, Pango

Callback = Callable[[], None]

# A presentation's transition name (the `transition` of its `present` step and of its model in
# GetState) → the Gtk.Revealer transition its content opens with.  Unknown names fall back to the style's default
# (Docs/renderers.md, "Transition names").
REVEALER_TRANSITIONS: dict[str, str] = {
    "slide": "SLIDE_UP",
    "slide-up": "SLIDE_UP",
    "slide-down": "SLIDE_DOWN",
    "slide-left": "SLIDE_LEFT",
    "slide-right": "SLIDE_RIGHT",
    "fade": "CROSSFADE",
    "crossfade": "CROSSFADE",
    "dissolve": "CROSSFADE",
    "zoom": "SWING_UP",
    "flip": "SWING_LEFT",
    "swing": "SWING_DOWN",
    "none": "NONE",
}
TRANSITION_MS = 250


def revealer_transition(name: str | None, style: str) -> Gtk.RevealerTransitionType:
    """The revealer transition for a transition name; the style's default (a sheet slides up, anything else
    crossfades) for no name or one the binding does not know; types this GTK lacks fall back to CROSSFADE."""
    default = "SLIDE_UP" if style == "sheet" else "CROSSFADE"
    wanted = REVEALER_TRANSITIONS.get(name or "", default)
    return getattr(Gtk.RevealerTransitionType, wanted, Gtk.RevealerTransitionType.CROSSFADE)


def escape_shortcut(window: Gtk.Window, on_escape: Callback) -> None:
    controller = Gtk.ShortcutController(scope=Gtk.ShortcutScope.MANAGED)
    controller.add_shortcut(Gtk.Shortcut.new(
        Gtk.ShortcutTrigger.parse_string("Escape"),
        Gtk.CallbackAction.new(lambda *_: (on_escape(), True)[1])))
    window.add_controller(controller)


def history_bindings(window: Gtk.Window, on_back: Callback, on_forward: Callback,
                     on_undo: Callback | None = None, on_redo: Callback | None = None) -> None:
    """Alt+Left / Alt+Right and the mouse's back and forward buttons (8 and 9), as in a
    browser or Files: the daemon's goBack and goForward; Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y), as in an editor or a
    GNOME application: the daemon's Undo and Redo of the window's last change. A focused text field keeps its own
    Ctrl+Z (the shortcut is managed: it runs only when no widget handled the key)."""
    controller = Gtk.ShortcutController(scope=Gtk.ShortcutScope.MANAGED)
    bindings: list[tuple[str, Callback]] = [("<Alt>Left", on_back), ("<Alt>Right", on_forward)]
    if on_undo is not None:
        bindings.append(("<Control>z", on_undo))
    if on_redo is not None:
        bindings += [("<Control><Shift>z", on_redo), ("<Control>y", on_redo)]
    for trigger, callback in bindings:
        controller.add_shortcut(Gtk.Shortcut.new(
            Gtk.ShortcutTrigger.parse_string(trigger),
            Gtk.CallbackAction.new(lambda *_, c=callback: (c(), True)[1])))
    window.add_controller(controller)
    click = Gtk.GestureClick(button=0)

    def pressed(gesture: Gtk.GestureClick, *_: object) -> None:
        button = gesture.get_current_button()
        if button == 8:
            on_back()
        elif button == 9:
            on_forward()

    click.connect("pressed", pressed)
    window.add_controller(click)
    # The test hook presses buttons 8 and 9 through this (GTK cannot synthesise a pointer press).
    window._history_pressed = pressed  # type: ignore[attr-defined]


class ModalWindow(Gtk.Window):
    """A presented sheet, cover or custom presentation, modal and transient for its presenter's window."""

    def __init__(self, model_id: int, style: str, parent: Gtk.Window, on_close: Callback, on_back: Callback,
                 on_escape: Callback, transition: str | None = None) -> None:
        super().__init__(transient_for=parent, modal=True, destroy_with_parent=True)
        self.model_id = model_id
        self.style = style
        self.transition = transition
        self.closing = False
        # The content opens with the presentation's transition (REVEALER_TRANSITIONS).
        self.revealer = Gtk.Revealer(transition_type=revealer_transition(transition, style),
                                     transition_duration=TRANSITION_MS, reveal_child=False, hexpand=True, vexpand=True)
        super().set_child(self.revealer)
        width, height = parent.get_default_size()
        if style == "fullScreenCover":
            self.set_default_size(max(width, 480), max(height, 360))
        elif style == "toast":
            # The demo's toast kind, small and not modal (a scheduled dismissal hides it).
            self.set_modal(False)
            self.set_default_size(280, 96)
        else:
            self.set_default_size(max(int(width * 0.8), 360), max(int(height * 0.7), 280))
        self.header = Gtk.HeaderBar(show_title_buttons=False)
        self.title_label = Gtk.Label()
        self.title_label.add_css_class("title")
        title_box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, valign=Gtk.Align.CENTER)
        title_box.append(self.title_label)
        if transition:
            subtitle = Gtk.Label(label=f"{style} · {transition}")
            subtitle.add_css_class("subtitle")
            subtitle.add_css_class("dim-label")
            title_box.append(subtitle)
        self.header.set_title_widget(title_box)
        self.back_button = Gtk.Button(icon_name="go-previous-symbolic", tooltip_text="Back")
        self.back_button.connect("clicked", lambda *_: on_back())
        self.close_button = Gtk.Button(label="Done" if style != "fullScreenCover" else "Close")
        self.close_button.connect("clicked", lambda *_: self.close())
        self.header.pack_start(self.back_button)
        self.header.pack_end(self.close_button)
        self.set_titlebar(self.header)
        self.connect("close-request", self._close_request, on_close)
        escape_shortcut(self, on_escape)

    def _close_request(self, _window: Gtk.Window, on_close: Callback) -> bool:
        if self.closing:
            return False
        on_close()
        return True  # stays until the daemon's state drops it

    def set_content(self, child: Gtk.Widget) -> None:
        if self.revealer.get_child() is not child:
            parent = child.get_parent()
            if parent is not None and hasattr(parent, "remove"):
                parent.remove(child)
            elif parent is not None and hasattr(parent, "set_child"):
                parent.set_child(None)
            self.revealer.set_child(child)

    def content(self) -> Gtk.Widget | None:
        return self.revealer.get_child()

    def present(self) -> None:
        super().present()
        # Revealed once the window is mapped, so the transition is seen.
        GLib.idle_add(lambda: (self.revealer.set_reveal_child(True), GLib.SOURCE_REMOVE)[1])

    def show_at_once(self) -> None:
        """Presented without animation (a change that is not animated)."""
        duration = self.revealer.get_transition_duration()
        self.revealer.set_transition_duration(0)
        super().present()
        self.revealer.set_reveal_child(True)
        self.revealer.set_transition_duration(duration)

    def close_now(self) -> None:
        self.closing = True
        self.destroy()


class DialogWindow(Gtk.Window):
    """An alert or confirmation dialog: headline, message and its actions.

    Cancel actions sit apart on the left; destructive ones are styled destructive."""

    def __init__(self, model_id: int, kind: str, dialog: dict[str, Any], parent: Gtk.Window,
                 on_action: Callable[[str], None], on_escape: Callback) -> None:
        # Assistive technologies read an alert at once (its accessible role; Docs/announcements.md).
        role = getattr(Gtk.AccessibleRole, "ALERT_DIALOG" if kind == "alert" else "DIALOG", None)
        super().__init__(transient_for=parent, modal=True, destroy_with_parent=True, resizable=False,
                         **({"accessible_role": role} if role is not None else {}))
        self.model_id = model_id
        self.kind = kind
        self.closing = False
        self.dialog = dialog
        self.buttons: dict[str, Gtk.Button] = {}
        self.set_default_size(360, -1)
        self.set_titlebar(Gtk.HeaderBar(show_title_buttons=False, title_widget=Gtk.Label(
            label="Confirm" if kind == "confirmationDialog" else "Alert")))
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=18, margin_bottom=18,
                      margin_start=18, margin_end=18)
        self.headline = Gtk.Label(label=str(dialog.get("title", "")), wrap=True)
        self.headline.add_css_class("title-2")
        box.append(self.headline)
        self.message = Gtk.Label(label=str(dialog.get("message") or ""), wrap=True,
                                 wrap_mode=Pango.WrapMode.WORD_CHAR, visible=bool(dialog.get("message")))
        box.append(self.message)
        row = Gtk.Box(spacing=6, margin_top=6)
        cancel_side = Gtk.Box(spacing=6, hexpand=True, halign=Gtk.Align.START)
        action_side = Gtk.Box(spacing=6, halign=Gtk.Align.END)
        row.append(cancel_side)
        row.append(action_side)
        box.append(row)
        for action in dialog.get("actions", []):
            action_id, role = str(action["id"]), action.get("role")
            button = Gtk.Button(label=str(action.get("title") or action_id))
            if role == "destructive":
                button.add_css_class("destructive-action")
            (cancel_side if role == "cancel" else action_side).append(button)
            button.connect("clicked", lambda _b, a=action_id: on_action(a))
            self.buttons[action_id] = button
        normal = [a for a in dialog.get("actions", []) if a.get("role") is None]
        if normal:
            self.buttons[str(normal[-1]["id"])].add_css_class("suggested-action")
        self.set_child(box)
        self.connect("close-request", self._close_request, on_escape)
        escape_shortcut(self, on_escape)

    def role(self, action_id: str) -> str | None:
        return next((a.get("role") for a in self.dialog.get("actions", []) if str(a["id"]) == action_id), None)

    def cancel_action(self) -> str | None:
        return next((str(a["id"]) for a in self.dialog.get("actions", []) if a.get("role") == "cancel"), None)

    def _close_request(self, _window: Gtk.Window, on_escape: Callback) -> bool:
        if self.closing:
            return False
        on_escape()
        return True

    def close_now(self) -> None:
        self.closing = True
        self.destroy()
