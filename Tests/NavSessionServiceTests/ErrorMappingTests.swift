import DBusKit
import NavSessionService
import NavigationSession
import Testing

@Test func sessionErrorsMapToTheirOwnNames() {
    #expect(ErrorMapping.busError(for: SessionError.unknownScene("x")).name.rawValue == "org.navsession.Error.UnknownScene")
    #expect(ErrorMapping.busError(for: SessionError.unknownWindow(7)).name == .unknownObject)
    #expect(ErrorMapping.busError(for: SessionError.limitsExceeded("too many")).name == .limitsExceeded)
    #expect(ErrorMapping.busError(for: SessionError.unknownWindow(7)).message == SessionError.unknownWindow(7).message)
}
