import NavigationRouting

/// The router most deep-link tests share, declared in Swift and, identically, in JSON.
enum RouterFixture {
    static let main = WindowTarget(scene: "main")

    static func routes() throws -> [DeepLinkRoute] {
        [
            try DeepLinkRoute("home", pattern: "", destination: DeepLinkDestination(window: main)),
            try DeepLinkRoute(
                "new-detail", pattern: "detail/new",
                destination: DeepLinkDestination(window: main, push: [ScreenSpec("newDetail")])),
            try DeepLinkRoute(
                "detail", pattern: "detail/:id(int)", query: [.optional("ref")],
                destination: DeepLinkDestination(
                    window: main, push: [ScreenSpec("detail", params: ["id": "{id}", "ref": "{ref}"])])),
            try DeepLinkRoute(
                "item", pattern: "tabs/:tab(enum:home|search)/item/:id(int)",
                query: [.optional("edit", .bool, default: "false"), .required("source")],
                destination: DeepLinkDestination(
                    window: main, tab: "{tab}",
                    push: [ScreenSpec("item", params: ["id": "{id}", "edit": "{edit}"])],
                    present: [
                        DeepLinkPresentation(
                            .sheet, withNavigation: true, root: ScreenSpec("compose", params: ["from": "{source}"]),
                            push: [ScreenSpec("preview", params: ["item": "item-{id}"])]),
                    ])),
            try DeepLinkRoute(
                "note", pattern: "note/:title", query: [.optional("q")],
                destination: DeepLinkDestination(window: main, push: [ScreenSpec("note", params: ["title": "{title}", "q": "{q}"])])),
            try DeepLinkRoute(
                "search", pattern: "search", query: [.optional("q")],
                destination: DeepLinkDestination(
                    window: WindowTarget(scene: "search", open: .new, params: ["query": "{q}"]), reset: false)),
        ]
    }

    static func router() throws -> DeepLinkRouter {
        try DeepLinkRouter(schemes: ["myapp", "MyApp-Dev"], routes: routes())
    }

    static let json = #"""
        {
          "schemes": ["myapp", "MyApp-Dev"],
          "routes": [
            {"name": "home", "pattern": "", "destination": {"window": {"scene": "main"}}},
            {"name": "new-detail", "pattern": "detail/new",
             "destination": {"window": {"scene": "main"}, "push": [{"screen": "newDetail"}]}},
            {"name": "detail", "pattern": "detail/:id(int)", "query": [{"name": "ref"}],
             "destination": {"window": {"scene": "main"},
                             "push": [{"screen": "detail", "params": {"id": "{id}", "ref": "{ref}"}}]}},
            {"name": "item", "pattern": "tabs/:tab(enum:home|search)/item/:id(int)",
             "query": [{"name": "edit", "type": "bool", "default": "false"}, {"name": "source", "required": true}],
             "destination": {"window": {"scene": "main", "open": "existing"}, "tab": "{tab}",
                             "push": [{"screen": "item", "params": {"id": "{id}", "edit": "{edit}"}}],
                             "present": [{"style": "sheet", "withNavigation": true,
                                          "root": {"screen": "compose", "params": {"from": "{source}"}},
                                          "push": [{"screen": "preview", "params": {"item": "item-{id}"}}]}]}},
            {"name": "note", "pattern": "note/:title", "query": [{"name": "q", "type": "string"}],
             "destination": {"window": {"scene": "main"},
                             "push": [{"screen": "note", "params": {"title": "{title}", "q": "{q}"}}]}},
            {"name": "search", "pattern": "search", "query": [{"name": "q"}],
             "destination": {"window": {"scene": "search", "open": "new", "params": {"query": "{q}"}}, "reset": false}}
          ]
        }
        """#
}
