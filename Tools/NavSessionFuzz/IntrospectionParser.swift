import DBusKit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses introspection XML into interfaces and child names. A method with an argument type that does not
/// parse is dropped (calls to it could not be typed), as is such a property.
final class IntrospectionParser: NSObject, XMLParserDelegate {
    private var interfaces: [InterfaceDescription] = []
    private var children: [String] = []
    private var current: InterfaceDescription?
    private var method: InterfaceDescription.Method?
    private var methodIsValid = true
    private var nodeDepth = 0

    /// The object at `path` described by `xml`; nil when the XML does not parse.
    static func parse(_ xml: String, path: ObjectPath) -> ObjectDescription? {
        let delegate = IntrospectionParser()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = delegate
        // The DOCTYPE names an external DTD; never fetch it.
        parser.shouldResolveExternalEntities = false
        guard parser.parse() else { return nil }
        return ObjectDescription(path: path, interfaces: delegate.interfaces, children: delegate.children)
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "node":
            nodeDepth += 1
            if nodeDepth == 2, let name = attributes["name"], !name.isEmpty { children.append(name) }
        case "interface" where nodeDepth == 1:
            current = InterfaceDescription(name: attributes["name"] ?? "")
        case "method" where current != nil:
            method = InterfaceDescription.Method(name: attributes["name"] ?? "", inputs: [], outputs: [])
            methodIsValid = true
        case "arg" where method != nil:
            guard let type = try? SignatureType(parsing: attributes["type"] ?? "") else {
                methodIsValid = false
                return
            }
            let argument = InterfaceDescription.Argument(name: attributes["name"] ?? "", type: type)
            if attributes["direction"] == "out" { method?.outputs.append(argument) } else { method?.inputs.append(argument) }
        case "property" where current != nil:
            guard let type = try? SignatureType(parsing: attributes["type"] ?? "") else { return }
            current?.properties.append(
                InterfaceDescription.Property(name: attributes["name"] ?? "", type: type, access: attributes["access"] ?? "read"))
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "node":
            nodeDepth -= 1
        case "interface":
            if let current { interfaces.append(current) }
            current = nil
        case "method":
            if let method, methodIsValid { current?.methods.append(method) }
            method = nil
        default:
            break
        }
    }
}
