/// A message delivered to a model's listeners: a name and a string payload.
///
/// The core itself sends ``finished`` (when a model's life ends), ``suspended`` and ``resumed`` (when a switched
/// container keeps a branch it leaves and brings it back) and ``actionChosen(_:)`` (to the
/// presenter of an alert or dialog whose action the user chose). Applications define their own names.
public struct NavigationMessage: Hashable, Sendable, Codable {
    /// The message name, e.g. `finished` or an application name such as `confirmed`.
    public var name: String
    /// A free-form payload (may be empty).
    public var payload: String

    /// Creates a message.
    public init(_ name: String, payload: String = "") {
        self.name = name
        self.payload = payload
    }

    /// The name of the lifecycle message sent once to every model whose life ends.
    public static let finishedName = "finished"
    /// The name of the message the presenter gets when an alert/dialog action is chosen.
    public static let actionChosenName = "actionChosen"

    /// The name of the message a dismissal or `goBack` with a result delivers to the presenter.
    public static let resultName = "result"

    /// Delivered by `dismiss`/`goBack` with a `result`; the payload is the result's JSON text.
    public static func result(_ json: String) -> NavigationMessage {
        NavigationMessage(resultName, payload: json)
    }

    /// The lifecycle message sent to every model removed from the graph (never to the root).
    public static let finished = NavigationMessage(finishedName)

    /// The name of the lifecycle message sent to every model of a branch a switched container keeps.
    public static let suspendedName = "suspended"
    /// The name of the lifecycle message sent to every model of a kept branch that comes back.
    public static let resumedName = "resumed"
    /// Sent to every model of a branch a switched container keeps when it leaves it (ids kept, not finished).
    public static let suspended = NavigationMessage(suspendedName)
    /// Sent to every model of a kept branch when the container switches back to it.
    public static let resumed = NavigationMessage(resumedName)

    /// Sent to an alert's presenter; the payload is the chosen action id.
    public static func actionChosen(_ actionID: String) -> NavigationMessage {
        NavigationMessage(actionChosenName, payload: actionID)
    }

    enum CodingKeys: String, CodingKey { case name, payload }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        payload = try c.decodeIfPresent(String.self, forKey: .payload) ?? ""
    }
}

/// A message as delivered: recipient, optional sender and the message.
public struct DeliveredMessage: Hashable, Sendable, Codable {
    /// The model whose listeners received it.
    public var recipient: ModelID
    /// The model that sent it (`nil` for messages sent from outside the graph).
    public var sender: ModelID?
    /// The message.
    public var message: NavigationMessage

    /// Creates a delivery record.
    public init(recipient: ModelID, sender: ModelID?, message: NavigationMessage) {
        self.recipient = recipient
        self.sender = sender
        self.message = message
    }
}

/// Who receives a ``NavigationCommand/sendMessage(_:to:)``.
///
/// JSON: `"self"`, `"presenter"`, `"parent"`, a model id number or `"tag:<tag>"`.
public enum MessageTarget: Hashable, Sendable {
    /// The executing model itself.
    case current
    /// The model presenting the presentation that contains the executing model (e.g. a dialog's presenter).
    case presenter
    /// The executing model's parent.
    case parent
    /// Any model by id or tag.
    case model(ModelReference)
}

extension MessageTarget: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let id = try? c.decode(Int.self) {
            self = .model(.id(ModelID(rawValue: id)))
            return
        }
        let text = try c.decode(String.self)
        switch text {
        case "self": self = .current
        case "presenter": self = .presenter
        case "parent": self = .parent
        default:
            if let reference = ModelReference(tagReference: text) {
                self = .model(reference)
                return
            }
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "unknown message target \"\(text)\"; expected self, presenter, parent, an id or \"tag:<tag>\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .current: try c.encode("self")
        case .presenter: try c.encode("presenter")
        case .parent: try c.encode("parent")
        case .model(let reference): try reference.encode(to: encoder)
        }
    }
}
