/// Builds `org.freedesktop.DBus.Introspectable` XML from the interface declarations.
extension Bus {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static let standardInterfacesXML = """
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg name="machine_uuid" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>

        """

    static let propertiesXML = """
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="props" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>

        """

    static let objectManagerXML = """
          <interface name="org.freedesktop.DBus.ObjectManager">
            <method name="GetManagedObjects">
              <arg name="object_paths_interfaces_and_properties" type="a{oa{sa{sv}}}" direction="out"/>
            </method>
            <signal name="InterfacesAdded">
              <arg name="object_path" type="o"/>
              <arg name="interfaces_and_properties" type="a{sa{sv}}"/>
            </signal>
            <signal name="InterfacesRemoved">
              <arg name="object_path" type="o"/>
              <arg name="interfaces" type="as"/>
            </signal>
          </interface>

        """

    func introspectionXML(for path: ObjectPath, object: ExportedObject?) -> String {
        var xml = Self.doctype + "<node>\n" + Self.standardInterfacesXML
        if let object {
            if !object.interfaces.isEmpty { xml += Self.propertiesXML }
            if object.isManager { xml += Self.objectManagerXML }
            for interface in object.interfaces { Self.append(interface, to: &xml) }
        }
        for child in childNames(of: path) {
            xml += "  <node name=\"\(child)\"/>\n"
        }
        xml += "</node>\n"
        return xml
    }

    /// The distinct next path elements of every object below `path`, sorted.
    func childNames(of path: ObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<Substring>()
        for candidate in objects.keys where candidate.rawValue.hasPrefix(prefix) && candidate != path {
            let rest = candidate.rawValue.dropFirst(prefix.count)
            if let element = rest.split(separator: "/").first { names.insert(element) }
        }
        return names.map(String.init).sorted()
    }

    private static func append(_ interface: Interface, to xml: inout String) {
        xml += "  <interface name=\"\(interface.name)\">\n"
        appendAnnotations(interface.annotations, indent: "    ", to: &xml)
        for method in interface.methods {
            xml += "    <method name=\"\(method.name)\">\n"
            for arg in method.inputs { appendArgument(arg, direction: "in", to: &xml) }
            for arg in method.outputs { appendArgument(arg, direction: "out", to: &xml) }
            appendAnnotations(method.annotations, indent: "      ", to: &xml)
            xml += "    </method>\n"
        }
        for signal in interface.signals {
            xml += "    <signal name=\"\(signal.name)\">\n"
            for arg in signal.arguments { appendArgument(arg, direction: nil, to: &xml) }
            appendAnnotations(signal.annotations, indent: "      ", to: &xml)
            xml += "    </signal>\n"
        }
        for property in interface.properties {
            xml += "    <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(property.access.rawValue)\">\n"
            let policy = Interface.Annotation(
                "org.freedesktop.DBus.Property.EmitsChangedSignal", property.emitsChangedSignal.rawValue)
            appendAnnotations([policy] + property.annotations, indent: "      ", to: &xml)
            xml += "    </property>\n"
        }
        xml += "  </interface>\n"
    }

    private static func appendArgument(_ arg: Interface.Argument, direction: String?, to xml: inout String) {
        xml += "      <arg"
        if !arg.name.isEmpty { xml += " name=\"\(escape(arg.name))\"" }
        xml += " type=\"\(arg.type)\""
        if let direction { xml += " direction=\"\(direction)\"" }
        xml += "/>\n"
    }

    private static func appendAnnotations(_ annotations: [Interface.Annotation], indent: String, to xml: inout String) {
        for annotation in annotations {
            xml += "\(indent)<annotation name=\"\(escape(annotation.name))\" value=\"\(escape(annotation.value))\"/>\n"
        }
    }

    /// The five XML specials and their entities.
    private static let entities: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
    ]

    /// Escapes the five XML specials; names from callers may contain anything.
    static func escape(_ text: String) -> String {
        text.reduce(into: "") { out, character in out += entities[character] ?? String(character) }
    }
}
