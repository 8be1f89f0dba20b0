/// A validated method, signal or property name such as `OpenWindow`.
///
/// Valid: `OpenWindow`, `Ping`, `_private`, `Get2`.
/// Invalid: `` (empty), `2Get`, `Open.Window`, `Open-Window`, names over 255 bytes.
public typealias MemberName = DBusName<MemberNameRule>

/// The rule of a ``MemberName``.
public enum MemberNameRule: NameRule {
    public static var kind: ValidationError.Kind { .memberName }
}
