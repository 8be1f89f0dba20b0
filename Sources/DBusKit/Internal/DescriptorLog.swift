import Glibc

/// The Unix descriptors decoded from one incoming call, closed once the call is answered.
///
/// `dbus_message_iter_get_basic` hands out a fresh `dup` of every `h` it decodes, wherever it sits
/// (variants, dictionaries, arrays); nobody else would close them, so a client could exhaust the
/// process's descriptors one call at a time. Used only on the bus thread, inside one decode.
final class DescriptorLog {
    private(set) var descriptors: [Int32] = []

    func record(_ descriptor: Int32) {
        if descriptor >= 0 { descriptors.append(descriptor) }
    }

    /// Closes every recorded descriptor.
    func closeAll() {
        for descriptor in descriptors { close(descriptor) }
        descriptors.removeAll()
    }
}
