"""Read-only helpers over one GetState snapshot (Docs/state-schema.md, "Window snapshot")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

Model = dict[str, Any]

DIALOG_KINDS = ("alert", "confirmationDialog")


@dataclass
class Graph:
    version: int
    root: int
    models: dict[int, Model]
    order: list[int]  # graph pre-order, as GetState lists them
    #: The manifest's screen titles (Session1 ``ScreenTitles``): a model without its own title shows its screen's.
    titles: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: dict[str, Any], titles: dict[str, str] | None = None) -> "Graph":
        models = {int(m["id"]): m for m in state["models"]}
        return cls(int(state.get("version", 0)), int(state["root"]), models,
                   [int(m["id"]) for m in state["models"]], dict(titles or {}))

    def __getitem__(self, model_id: int) -> Model:
        return self.models[model_id]

    def __contains__(self, model_id: int) -> bool:
        return model_id in self.models

    def kind(self, model_id: int) -> str:
        return str(self.models[model_id]["kind"])

    def parent(self, model_id: int) -> int | None:
        parent = self.models[model_id].get("parent")
        return int(parent) if parent is not None else None

    def attachment(self, model_id: int) -> str:
        return str(self.models[model_id].get("attachment", {}).get("type", "root"))

    def presentation_style(self, model_id: int) -> str:
        """``sheet``, ``fullScreenCover``, ``alert``, ``confirmationDialog`` or a custom name."""
        style = self.models[model_id].get("attachment", {}).get("style", {})
        if style.get("kind") == "custom":
            return str(style.get("name", "custom"))
        return str(style.get("kind", "sheet"))

    def presented(self) -> Iterator[int]:
        """Every presented model on screen, presenters before what they present (not those in a branch a
        switched container keeps: they are suspended until it switches back)."""
        return (m for m in self.order if self.attachment(m) == "presented" and not self.is_kept(m))

    def is_kept(self, model_id: int | None) -> bool:
        """Whether ``model_id`` is in a kept (saved) branch of a switched container."""
        while model_id is not None and model_id in self.models:
            if self.attachment(model_id) == "saved":
                return True
            model_id = self.parent(model_id)
        return False

    def presentation_of(self, model_id: int | None) -> int | None:
        """The presented model that contains ``model_id`` (itself included), None in the window's base."""
        while model_id is not None and model_id in self.models:
            if self.attachment(model_id) == "presented":
                return model_id
            model_id = self.parent(model_id)
        return None

    def nearest_stack(self, model_id: int | None) -> int | None:
        """The stack ``model_id`` is in (walking up, itself included), stopping at a presentation."""
        while model_id is not None and model_id in self.models:
            if self.kind(model_id) == "stack":
                return model_id
            if self.attachment(model_id) == "presented":
                return None
            model_id = self.parent(model_id)
        return None

    def path(self, stack_id: int) -> list[int]:
        return [int(e["model"]) for e in self.models[stack_id].get("path", [])]

    def screen_title(self, model_id: int) -> str:
        """A model's own title, else its screen's title in the manifest, else its screen name made readable."""
        model = self.models[model_id]
        if model.get("title"):
            return str(model["title"])
        dialog = model.get("dialog")
        if dialog:
            return str(dialog.get("title", ""))
        screen = str(model.get("screen", model["kind"]))
        return self.titles.get(screen) or screen.replace("_", " ").capitalize()

    def visible_leaf(self, model_id: int) -> int:
        """The screen a container shows: last stack element, selected tab, switched model."""
        seen = 0
        while seen < len(self.models):
            seen += 1
            model = self.models[model_id]
            kind = model["kind"]
            if kind == "stack" and model.get("path"):
                model_id = int(model["path"][-1]["model"])
            elif kind == "tabs":
                selected = next((t for t in model["tabs"] if t["id"] == model.get("selectedTab")), model["tabs"][0])
                model_id = int(selected["model"])
            elif kind == "switched" and model.get("switchedModel") is not None:
                model_id = int(model["switchedModel"])
            else:
                return model_id
        return model_id

    def focused_leaf(self, model_id: int) -> int:
        """The screen the user looks at: as :meth:`visible_leaf`, and also into a custom container's selected
        child (a split's focused column), which is what a custom container shows collapsed or focused."""
        seen = 0
        while seen < len(self.models):
            seen += 1
            leaf = self.visible_leaf(model_id)
            model = self.models[leaf]
            children = [int(c) for c in model.get("children") or []]
            if model["kind"] != "custom" or not children:
                return leaf
            index = int(model.get("selected", len(children) - 1))
            model_id = children[index] if 0 <= index < len(children) else children[-1]
        return model_id

    def tab_container(self) -> int | None:
        """The tab container the window's base shows (the first one met going down from the root along what is
        shown: a stack's top, a switched container's model, a custom container's selected child), or ``None``."""
        model_id: int | None = self.root
        seen = 0
        while model_id is not None and model_id in self.models and seen < len(self.models):
            seen += 1
            model = self.models[model_id]
            kind = model["kind"]
            if kind == "tabs":
                return model_id
            if kind == "stack" and model.get("path"):
                model_id = int(model["path"][-1]["model"])
            elif kind == "switched" and model.get("switchedModel") is not None:
                model_id = int(model["switchedModel"])
            elif kind == "custom" and model.get("children"):
                children = [int(c) for c in model["children"]]
                index = int(model.get("selected", len(children) - 1))
                model_id = children[index] if 0 <= index < len(children) else children[-1]
            else:
                return None
        return None

    def tab_model(self, tabs_id: int, tab: str) -> int | None:
        """The model of tab ``tab`` of tab container ``tabs_id``, or ``None``."""
        model = self.models.get(tabs_id)
        if model is None or model["kind"] != "tabs":
            return None
        return next((int(t["model"]) for t in model.get("tabs") or [] if t["id"] == tab), None)

    # -- appearance (Docs/renderers.md, "Appearance") ------------------------------------------------

    def appearance(self, model_id: int) -> dict[str, Any]:
        """The appearance that applies to a model: GetState's resolved ``appearance`` (absent: the defaults)."""
        shown = dict(DEFAULT_APPEARANCE)
        shown.update(self.models[model_id].get("appearance") or {})
        return shown

    def tab_bar(self, tabs_id: int) -> tuple[bool, bool]:
        """(visible, animated) for a tab container's tab bar: the selected tab's active model must allow it
        (``tabBar``) and no stack on the way down hides it by its rule while not at its root (hidden wins)."""
        model = self.models[tabs_id]
        tabs = model.get("tabs") or []
        if not tabs:
            return True, True
        selected = next((t for t in tabs if t["id"] == model.get("selectedTab")), tabs[0])
        leaf = self.visible_leaf(int(selected["model"]))
        visible, animated = bool(self.appearance(leaf)["tabBar"]), True
        current: int | None = leaf
        while current is not None and current != tabs_id and current in self.models:
            node = self.models[current]
            if node["kind"] == "stack" and node.get("hidesTabBarWhenNotAtRoot"):
                animated = animated and node.get("hidesTabBarAnimated", True) is not False
                if len(node.get("path", [])) > 1:
                    visible = False
            current = self.parent(current)
        return visible, animated


DEFAULT_APPEARANCE: dict[str, Any] = {"backButton": True, "navigationBar": True, "tabBar": True,
                                      "titleDisplayMode": "automatic"}
