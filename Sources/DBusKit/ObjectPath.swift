/// A validated D-Bus object path.
///
/// Valid: `/`, `/org/navsession/Session1`, `/org/navsession/Session1/window/7`.
/// Invalid: `` (empty), `org` (no leading slash), `/a/` (trailing slash), `/a//b`, `/a-b`, `/a b`.
///
/// ```swift
/// let path = try ObjectPath("/org/navsession/Session1")
/// let window = try path.appending("window").appending("7")
/// ```
public typealias ObjectPath = DBusName<ObjectPathRule>

/// The rule of an ``ObjectPath``.
public enum ObjectPathRule: NameRule {
    public static var kind: ValidationError.Kind { .objectPath }
}

extension ObjectPath {
    /// The root path `/`.
    public static var root: ObjectPath { ObjectPath(trusted: "/") }

    /// Returns this path with one more element.
    ///
    /// - Parameter element: one path element, `[A-Za-z0-9_]+`; `7` and `window` are fine, `a/b` is not.
    /// - Throws: ``ValidationError`` when `element` is not a single valid element.
    public func appending(_ element: String) throws(ValidationError) -> ObjectPath {
        // `self` is valid, so only the element needs checking: a window's path is built on every change.
        var element = element
        let valid = element.withUTF8 { bytes in
            !bytes.isEmpty && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
                default: false
                }
            }
        }
        guard valid else {
            throw ValidationError(.objectPath, "\(quoted(element)) is not a single path element ([A-Za-z0-9_]+)")
        }
        return ObjectPath(trusted: rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// Whether `self` equals `ancestor` or lies below it (`/a/b` is under `/a` and `/`, not under `/ab`).
    public func isDescendant(of ancestor: ObjectPath) -> Bool {
        if ancestor.rawValue == "/" || ancestor == self { return true }
        return rawValue.hasPrefix(ancestor.rawValue + "/")
    }
}
