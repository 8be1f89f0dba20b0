import NavigationCore

/// Something the bus must announce after a session operation, in order.
enum SessionEvent: Sendable {
    /// Window `number` opened: export it (InterfacesAdded), Session1 `Windows`/`Version` changed.
    case opened(Int)
    /// Window `number` closed: unexport it (InterfacesRemoved), Session1 `Windows`/`Version` changed.
    case closed(Int)
    /// A window changed: `Changed`, `Message` and `PropertiesChanged` for the properties that differ.
    case changed(WindowChange)
    /// A URL outside the application's schemes, for window `number`'s renderer to open.
    case externalURL(window: Int, url: String)
    /// An application-defined effect of window `number`.
    case effect(window: Int, name: String, args: [String: String])
}

/// One applied change of one window, ready for the `Changed` signal.
struct WindowChange: Sendable {
    var window: Int
    var version: UInt64
    var causeJSON: String
    var animated: Bool
    var started: [UInt64]
    var finished: [UInt64]
    var stepsJSON: String
    var messages: [DeliveredMessage]
    /// Names of the Window1 properties whose values differ from before the change.
    var changedProperties: [String]
}
