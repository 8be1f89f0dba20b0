import DBusKit
import NavSessionService
import Testing

@Test func serviceErrorsMapToDocumentedNames() {
    #expect(ErrorMapping.busError(for: ServiceError.unknownScene("x")).name.rawValue == "org.navsession.Error.UnknownScene")
    #expect(ErrorMapping.busError(for: ServiceError.unknownWindow("/w")).name == .unknownObject)
    #expect(ErrorMapping.busError(for: ServiceError.tooManyWindows(limit: 1)).name == .limitsExceeded)
}
