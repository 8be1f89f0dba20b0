/// The built-in demo application, used when the daemon is started without a manifest.
extension Manifest {
    /// The demo manifest (`org.navsession.Demo`) parsed and validated.
    ///
    /// - Throws: never in practice (a test loads it); typed so callers need no `try!`.
    public static func demo() throws(ManifestError) -> Manifest {
        try Manifest(json: demoJSON)
    }

    /// The demo manifest's JSON text: the single source of truth (`navsessiond --print-demo-manifest`).
    ///
    /// Scenes: `main` (default, singleton; switched root with states `login` and `main`, `main` kept when
    /// left — logging out and in again brings it back; deep links need `main`, and so does the `account` screen,
    /// whose entry redirects to `login` and completes after logging in — Docs/guards.md), `waiting` (multi-instance) and
    /// `split` (single; a mail-like custom container of kind `split` — mailboxes, messages, a message — whose
    /// selected child, the focused column, `selectChild` changes). Deep links use the scheme `navsession-demo`.
    /// `compose` declares a default style (`sheet`: `Show("compose")` presents it) and transition (`slide`); the
    /// `transitions` rule gives it `fade` when shown from `settings`, and `flip` may only be used from `home` to it.
    /// The built-in `browser` kind needs no declaration.
    /// The guard `account` covers `profile`; it allows everything until a provider registers for it.
    /// Message handlers and scheduled commands: the `main` state's tab container (screen `main`) handles the message `saved` from any model
    /// below it by presenting the `toast` screen in the custom kind `toast` (tag `toast`); Docs/manifest.md shows the
    /// batch that shows a toast and schedules its dismissal.
    public static let demoJSON = #"""
        {
          "format": 1,
          "id": "org.navsession.Demo",
          "title": "NavSession Demo",
          "screens": [
            {"name": "login", "title": "Log in"},
            {"name": "onboarding1", "title": "Welcome"},
            {"name": "onboarding2", "title": "Stay in sync"},
            {"name": "onboarding3", "title": "All set"},
            {"name": "home", "title": "Home"},
            {"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"]},
            {"name": "editor", "title": "Editor", "required": ["id"],
             "appearance": {"backButton": false, "tabBar": false, "titleDisplayMode": "inline"}},
            {"name": "settings", "title": "Settings"},
            {"name": "profile", "title": "Profile", "optional": ["edit"]},
            {"name": "about", "title": "About"},
            {"name": "account", "title": "Account", "requires": {"state": "main"},
             "redirect": [{"command": "switchModel", "model": {"screen":"login"}}]},
            {"name": "waiting", "title": "Please wait", "optional": ["reason"]},
            {"name": "compose", "title": "Compose", "optional": ["to"], "style": "sheet", "transition": "slide"},
            {"name": "folders", "title": "Mailboxes"},
            {"name": "messages", "title": "Messages", "optional": ["folder"]},
            {"name": "message", "title": "Message", "optional": ["id"]},
            {"name": "toast", "title": "Saved", "optional": ["text"]},
            {"name": "main", "title": "NavSession Demo",
             "handlers": {"saved": [{"command": "present",
                                     "presentation": {"kind": "custom", "name": "toast", "model": {"screen": "toast", "tag": "toast"}}}]}}
          ],
          "transitions": {
            "rules": [{"from": ["settings"], "to": ["compose"], "transition": "fade"}],
            "eligible": {"flip": {"from": ["home"], "to": ["compose"]}}
          },
          "presentationKinds": ["popover", "toast"],
          "guards": {
            "account": {"covers": {"screens": ["profile"]}, "when": ["enter", "leave"], "timeoutMs": 500,
                        "onAbsent": "allow", "onTimeout": "deny"}
          },
          "capabilities": {"multiDismiss": false, "pushesInOne": false},
          "dialogs": {
            "logout": {
              "kind": "confirmationDialog",
              "title": "Log out?",
              "message": "You will need to log in again to see your items.",
              "actions": [
                {"id": "logout", "title": "Log out", "role": "destructive",
                 "commands": [{"command": "switchModel", "model": {"screen": "login"}}]},
                {"id": "cancel", "title": "Cancel", "role": "cancel"}
              ]
            },
            "error": {
              "kind": "alert",
              "title": "Something went wrong",
              "message": "Please try again.",
              "actions": [{"id": "ok", "title": "OK", "role": "cancel"}]
            },
            "discardChanges": {
              "kind": "alert",
              "title": "Discard changes?",
              "actions": [
                {"id": "discard", "title": "Discard", "role": "destructive", "commands": [{"command": "dismiss"}],
                 "reapply": true},
                {"id": "keep", "title": "Keep editing", "role": "cancel"}
              ]
            }
          },
          "scenes": [
            {
              "name": "main",
              "title": "NavSession Demo",
              "default": true,
              "instances": "single",
              "initialState": "login",
              "deepLinkState": "main",
              "savedStates": ["main"],
              "states": {
                "login": {"kind": "stack", "path": [{"screen": "login"}]},
                "main": {
                  "kind": "tabs",
                  "selectedTab": "home",
                  "reselect": "popToRoot",
                  "tabs": [
                    {"id": "home", "title": "Home", "icon": "go-home",
                     "model": {"kind": "stack", "path": [{"screen": "home"}]}},
                    {"id": "settings", "title": "Settings", "icon": "preferences-system",
                     "model": {"kind": "stack", "path": [{"screen": "settings"}]}}
                  ]
                }
              }
            },
            {
              "name": "waiting",
              "title": "Waiting",
              "instances": "multiple",
              "root": {"screen": "waiting"},
              "capabilities": {"multiDismiss": true, "pushesInOne": true}
            },
            {
              "name": "split",
              "title": "Mail",
              "instances": "single",
              "root": {
                "kind": "custom", "customKind": "split", "screen": "mail", "selected": 1,
                "children": [
                  {"kind": "stack", "tag": "sidebar", "path": [{"screen": "folders"}]},
                  {"kind": "stack", "tag": "messages", "path": [{"screen": "messages", "params": {"folder": "inbox"}}]},
                  {"kind": "stack", "tag": "detail", "path": [{"screen": "message"}]}
                ]
              }
            }
          ],
          "deepLinks": {
            "schemes": ["navsession-demo"],
            "routes": [
              {"name": "detail", "pattern": "detail/:id(int)",
               "query": [{"name": "edit", "type": "bool"}],
               "destination": {"window": {"scene": "main"}, "tab": "home",
                               "push": [{"screen": "detail", "params": {"id": "{id}", "edit": "{edit}"}}]}},
              {"name": "edit", "pattern": "detail/:id(int)/edit",
               "destination": {"window": {"scene": "main"}, "tab": "home",
                               "push": [{"screen": "detail", "params": {"id": "{id}"}}],
                               "present": [{"style": "sheet", "withNavigation": true,
                                            "root": {"screen": "editor", "params": {"id": "{id}"}}}]}},
              {"name": "profile", "pattern": "settings/profile",
               "query": [{"name": "edit", "type": "bool", "default": "false"}],
               "destination": {"window": {"scene": "main"}, "tab": "settings",
                               "push": [{"screen": "profile", "params": {"edit": "{edit}"}}]}},
              {"name": "about", "pattern": "settings/about",
               "destination": {"window": {"scene": "main"}, "tab": "settings",
                               "push": [{"screen": "about"}]}},
              {"name": "waiting", "pattern": "waiting",
               "query": [{"name": "reason"}],
               "destination": {"window": {"scene": "waiting", "open": "new", "params": {"reason": "{reason}"}}}},
              {"name": "account", "pattern": "account",
               "destination": {"window": {"scene": "main"}, "tab": "settings",
                               "push": [{"screen": "account"}]},
               "redirect": [{"command": "switchModel", "model": {"screen": "login"}}],
               "requires": {"state": "main"}},
              {"name": "help", "pattern": "help", "requires": {},
               "destination": {"window": {"scene": "main"},
                               "present": [{"style": "sheet", "root": {"screen": "about"}}]}}
            ]
          }
        }
        """#
}
