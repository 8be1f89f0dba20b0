/// Rules for an application id: a D-Bus well-known bus name whose elements are also valid object-path
/// elements (so `org.navsession.Demo` can map to `/org/navsession/Demo`).
enum ApplicationID {
    /// Throws ``ManifestError/invalidApplicationID(key:id:reason:)`` for an invalid id.
    ///
    /// Valid: `org.navsession.Demo`, `com.example.App_2`. Invalid: `Demo` (one element), `org..x`,
    /// `org.1x` (element starts with a digit), `org.my-app` (hyphen: not an object-path character),
    /// `:1.42` (a unique name), more than 255 characters.
    static func validate(_ id: String, key: String) throws(ManifestError) {
        func fail(_ reason: String) -> ManifestError { .invalidApplicationID(key: key, id: id, reason: reason) }
        guard !id.isEmpty else { throw fail("it is empty") }
        guard id.utf8.count <= 255 else { throw fail("it is longer than 255 characters") }
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { throw fail("it needs at least two elements separated by '.'") }
        for element in elements {
            guard let first = element.unicodeScalars.first else { throw fail("it has an empty element") }
            guard !("0"..."9").contains(first) else { throw fail("element '\(element)' starts with a digit") }
            for scalar in element.unicodeScalars {
                let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "_"
                guard ok else {
                    throw fail("element '\(element)' contains '\(scalar)' (only ASCII letters, digits and '_')")
                }
            }
        }
    }
}
