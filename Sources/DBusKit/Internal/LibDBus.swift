internal import CDBus
import Glibc

/// Thin wrappers over the libdbus calls DBusKit makes, so C types and conventions stay in one place.
///
/// All functions taking a `DBusConnection` must run on the connection's bus thread.
enum LibDBus {
    typealias Connection = OpaquePointer
    typealias MessagePointer = OpaquePointer

    /// Runs `body` with an initialised `DBusError` and turns a set error into a ``ConnectionError``.
    /// This is the only place a `DBusError` out-parameter becomes a Swift error.
    static func withBusError<T>(
        _ code: ConnectionError.Code,
        _ body: (UnsafeMutablePointer<DBusError>) -> T
    ) throws(ConnectionError) -> T {
        var error = DBusError()
        dbus_error_init(&error)
        let result = body(&error)
        if dbus_error_is_set(&error) != 0 {
            let name = error.name.map { String(cString: $0) } ?? ""
            let message = error.message.map { String(cString: $0) } ?? ""
            dbus_error_free(&error)
            throw ConnectionError(code, name.isEmpty ? message : "\(name): \(message)")
        }
        return result
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    static func messageType(_ message: MessagePointer) -> Int32 { dbus_message_get_type(message) }
    static func path(_ message: MessagePointer) -> String? { string(dbus_message_get_path(message)) }
    static func interface(_ message: MessagePointer) -> String? { string(dbus_message_get_interface(message)) }
    static func member(_ message: MessagePointer) -> String? { string(dbus_message_get_member(message)) }
    static func sender(_ message: MessagePointer) -> String? { string(dbus_message_get_sender(message)) }
    static func errorName(_ message: MessagePointer) -> String? { string(dbus_message_get_error_name(message)) }
    static func signature(_ message: MessagePointer) -> String { string(dbus_message_get_signature(message)) ?? "" }
    static func noReply(_ message: MessagePointer) -> Bool { dbus_message_get_no_reply(message) != 0 }

    /// Compares header fields without building Swift strings (hot path of the signal filter).
    static func equals(_ pointer: UnsafePointer<CChar>?, _ string: StaticString) -> Bool {
        guard let pointer else { return false }
        return strcmp(pointer, UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    static let messageTypeMethodCall = Int32(DBUS_MESSAGE_TYPE_METHOD_CALL)
    static let messageTypeMethodReturn = Int32(DBUS_MESSAGE_TYPE_METHOD_RETURN)
    static let messageTypeError = Int32(DBUS_MESSAGE_TYPE_ERROR)
    static let messageTypeSignal = Int32(DBUS_MESSAGE_TYPE_SIGNAL)
}

/// `DBUS_TYPE_*` are `((int) 'c')` casts, which Swift cannot import (STYLE Part B #1); spelled once here.
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int16 = Int32(UInt8(ascii: "n"))
    static let uint16 = Int32(UInt8(ascii: "q"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d"))
    static let string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o"))
    static let signature = Int32(UInt8(ascii: "g"))
    static let unixFD = Int32(UInt8(ascii: "h"))
    static let array = Int32(UInt8(ascii: "a"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let structure = Int32(UInt8(ascii: "r"))
    static let dictEntry = Int32(UInt8(ascii: "e"))
}
