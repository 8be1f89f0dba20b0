import NavSessionInterface
import NavigationCore
import NavigationRouting
import NavigationSession
import Testing

@testable import NavSessionService

/// The service names every typed error once (`ErrorNames.swift`): a failed batch by its command's own error, each
/// name one the contract declares.
struct ErrorNamesTests {
    @Test func sessionErrorsAreNamedByTheService() {
        #expect(SessionError.versionNotKept(window: 1, version: 7, oldest: 0, newest: 2).errorName == "org.navsession.Error.VersionNotKept")
        #expect(SessionError.unknownClosedWindow("7").errorName == "org.navsession.Error.UnknownClosedWindow")
        #expect(SessionError.limitsExceeded("x").errorName == "org.freedesktop.DBus.Error.LimitsExceeded")
        #expect(SessionError.unknownWindow(3).errorName == "org.freedesktop.DBus.Error.UnknownObject")
    }

    @Test func aFailedBatchIsNamedByItsCommandsError() {
        let error = NavigationError.batchCommandFailed(index: 1, .nothingToDismiss(from: 2))
        #expect(SessionError.navigation(error).errorName == "org.navsession.Error.NothingToDismiss")
    }

    @Test func everyNameGivenIsOneTheContractDeclares() {
        let names = [
            SessionError.invalidBatch("x"), .invalidArguments("x"), .storageFailed("x"), .guardTaken("g", provider: ":1.2"),
            .navigation(.routeNotFound("x")), .deepLink(.unknownRoute(path: "x")),
        ].map(\.errorName)
        #expect(Set(names).isSubset(of: Set(NavSessionInterface.ErrorName.all)), "\(names)")
    }
}
