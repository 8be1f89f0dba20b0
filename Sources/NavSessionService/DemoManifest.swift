import NavigationSession

/// The built-in demo application, `org.navsession.Demo` (served when no `--manifest` is given).
///
/// Temporary home: NavigationSession will provide the demo manifest itself; until then the service
/// carries this copy so the daemon, its tests and the benchmark have an application to serve.
///
/// - Scene `main` (default, several windows): starts logged out (`login`, a plain screen); the `main`
///   state is tabs `home` and `settings`, each a stack. Deep links need the `main` state.
/// - Scene `waiting` (one window): a single stack with `waiting`.
/// - Dialog `logout`: a confirmation dialog whose `logout` action switches back to `login`.
/// - Deep links (`navsession-demo:`): `detail/<int id>`, `settings`, `onboarding`, `external`.
public enum DemoManifest {
    /// The demo manifest's JSON text (`navsessiond --print-demo-manifest`).
    public static let json = """
        {
          "format": 1,
          "id": "org.navsession.Demo",
          "title": "NavSession Demo",
          "screens": [
            {"name": "login", "title": "Log In"},
            {"name": "home", "title": "Home"},
            {"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"]},
            {"name": "settings", "title": "Settings"},
            {"name": "profile", "title": "Profile", "optional": ["user"]},
            {"name": "compose", "title": "Compose", "optional": ["to"]},
            {"name": "onboarding", "title": "Welcome"},
            {"name": "permissions", "title": "Permissions"},
            {"name": "waiting", "title": "Waiting Room"}
          ],
          "scenes": [
            {"name": "main", "title": "Demo", "default": true, "instances": "multiple",
             "initialState": "login", "deepLinkState": "main",
             "states": {
               "login": {"screen": "login"},
               "main": {"kind": "tabs", "selectedTab": "home", "tabs": [
                 {"id": "home", "title": "Home", "model": {"kind": "stack", "path": [{"screen": "home"}]}},
                 {"id": "settings", "title": "Settings", "model": {"kind": "stack", "path": [{"screen": "settings"}]}}
               ]}
             }},
            {"name": "waiting", "title": "Waiting", "instances": "single",
             "root": {"kind": "stack", "path": [{"screen": "waiting"}]}}
          ],
          "dialogs": {
            "logout": {"kind": "confirmationDialog", "title": "Log out?", "message": "You can log in again later.",
                       "actions": [
                         {"id": "logout", "title": "Log Out", "role": "destructive",
                          "commands": [{"command": "switchModel", "model": {"screen": "login"}}]},
                         {"id": "cancel", "title": "Cancel", "role": "cancel"}]}
          },
          "capabilities": {"multiDismiss": false, "pushesInOne": false},
          "deepLinks": {
            "schemes": ["navsession-demo"],
            "routes": [
              {"name": "detail", "pattern": "detail/:id(int)",
               "query": [{"name": "edit", "type": "bool", "default": "false"}],
               "destination": {"window": {"scene": "main"}, "tab": "home",
                               "push": [{"screen": "detail", "params": {"id": "{id}", "edit": "{edit}"}}]}},
              {"name": "settings", "pattern": "settings",
               "destination": {"window": {"scene": "main"}, "tab": "settings"}},
              {"name": "onboarding", "pattern": "onboarding",
               "destination": {"window": {"scene": "main"}, "reset": false,
                               "present": [{"style": "cover", "withNavigation": true,
                                            "root": {"screen": "onboarding"},
                                            "push": [{"screen": "permissions"}]}]}},
              {"name": "compose", "pattern": "compose",
               "query": [{"name": "to"}],
               "destination": {"window": {"scene": "main", "open": "new"},
                               "present": [{"style": "sheet", "root": {"screen": "compose", "params": {"to": "{to}"}}}]}}
            ]
          }
        }
        """

    /// The parsed demo manifest.
    ///
    /// - Throws: ``ManifestError`` only if the text above is broken (a test pins that it is not).
    public static func load() throws(ManifestError) -> Manifest {
        try Manifest(json: json)
    }
}
