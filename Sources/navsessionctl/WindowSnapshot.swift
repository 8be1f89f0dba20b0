/// The parts of a GetState snapshot (Docs/state-schema.md §1) that `graph` needs.
struct WindowSnapshot: Decodable, Sendable {
    /// The root model's id.
    let root: UInt64
    /// Every model, in graph pre-order.
    let models: [Model]

    /// One model.
    struct Model: Decodable, Sendable {
        let id: UInt64
        let kind: String
        let screen: String?
        let parent: UInt64?
        let attachment: Attachment?
        let presented: UInt64?
        let path: [PathElement]?
        let tabs: [Tab]?
        let selectedTab: String?
        let switchedModel: UInt64?
        let customKind: String?
        let children: [UInt64]?
        /// A custom container's selected child (an index into `children`).
        let selected: Int?

        /// `custom:split` for custom models, else the kind.
        var kindLabel: String {
            if kind == "custom", let customKind { "custom:\(customKind)" } else { kind }
        }
    }

    /// How a model hangs from its parent.
    struct Attachment: Decodable, Sendable {
        let type: String
        let index: Int?
        let tab: String?
        let style: Style?
        /// The screen a kept branch is kept under (`saved`).
        let screen: String?

        /// `path[1]`, `tab home`, `switched`, `custom[0]`, `sheet`, `fullScreenCover`, `alert`, `popover`,
        /// `saved main`, ….
        var label: String {
            switch type {
            case "path": "path[\(index.map(String.init) ?? "?")]"
            case "custom": "custom[\(index.map(String.init) ?? "?")]"
            case "tab": "tab \(tab ?? "?")"
            case "saved": "saved \(screen ?? "?")"
            case "presented": style.map { $0.kind == "custom" ? ($0.name ?? "custom") : $0.kind } ?? "presented"
            default: type
            }
        }
    }

    /// A presentation style.
    struct Style: Decodable, Sendable {
        let kind: String
        let name: String?
    }

    /// One stack element.
    struct PathElement: Decodable, Sendable {
        let model: UInt64
    }

    /// One tab.
    struct Tab: Decodable, Sendable {
        let id: String
        let model: UInt64
    }

    /// The ids from the root to the active model: into the presented slot first, else the selected tab,
    /// the switched model, the last stack element or the selected custom child (Docs/navigation-core.md).
    var activePath: [UInt64] {
        let byID = Dictionary(models.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var path: [UInt64] = []
        var current = byID[root]
        while let model = current, !path.contains(model.id) {
            path.append(model.id)
            let next: UInt64?
            if let presented = model.presented {
                next = presented
            } else if let tabs = model.tabs {
                next = tabs.first { $0.id == model.selectedTab }?.model
            } else if let switched = model.switchedModel {
                next = switched
            } else if let last = model.path?.last {
                next = last.model
            } else if let children = model.children {
                next = model.selected.flatMap { children.indices.contains($0) ? children[$0] : nil } ?? children.last
            } else {
                next = nil
            }
            current = next.flatMap { byID[$0] }
        }
        return path
    }
}
