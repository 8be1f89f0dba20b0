import Foundation
import Testing

@testable import NavigationSession

/// What NavigationSession did through full Foundation and now does with FoundationEssentials or POSIX:
/// the same text and the same errors as before.
struct FoundationEssentialsPortTests {
    @Test func setAsideTimestampIsUTCInISO8601BasicFormatWithMilliseconds() {
        // 1 800 000 000.25 s after the epoch is 2027-01-15 08:00:00.250 UTC.
        #expect(SessionStore.timestamp(Date(timeIntervalSince1970: 1_800_000_000.25)) == "20270115T080000.250Z")
    }

    @Test func setAsideTimestampMatchesThePOSIXDateFormatter() {
        let date = Date(timeIntervalSince1970: 1_234_567_890.5)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        #expect(SessionStore.timestamp(date) == formatter.string(from: date))
    }

    @Test func manifestFileLoadsTheSameManifestAsItsText() throws {
        let path = NSTemporaryDirectory() + "manifest-\(UUID()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Manifest.demoJSON.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Manifest(contentsOfFile: path) == Manifest(json: Manifest.demoJSON))
    }

    @Test func missingManifestFileIsUnreadableWithTheSystemsReason() {
        let path = NSTemporaryDirectory() + "no-such-manifest-\(UUID()).json"
        #expect(throws: ManifestError.unreadable(path: path, detail: "cannot open \(path): No such file or directory")) {
            try Manifest(contentsOfFile: path)
        }
    }

    @Test func manifestPathThatIsADirectoryIsUnreadable() {
        let path = NSTemporaryDirectory()
        #expect(throws: ManifestError.unreadable(path: path, detail: "cannot read \(path): Is a directory")) {
            try Manifest(contentsOfFile: path)
        }
    }

    @Test func manifestFileThatIsNotUTF8IsUnreadable() throws {
        let path = NSTemporaryDirectory() + "manifest-\(UUID()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ManifestError.unreadable(path: path, detail: "the file is not UTF-8 text")) {
            try Manifest(contentsOfFile: path)
        }
    }

    @Test func manifestFileWithAByteOrderMarkReadsAsFoundationsStringDataDecodesIt() throws {
        let path = NSTemporaryDirectory() + "manifest-\(UUID()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Data([0xEF, 0xBB, 0xBF] + Array(Manifest.demoJSON.utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        let throughFoundation = String(data: bytes, encoding: .utf8).flatMap { try? Manifest(json: $0) }
        #expect((try? Manifest(contentsOfFile: path)) == throughFoundation)
    }

    @Test func defaultStateDirectoryWithoutXDGStateHomeIsUnderTheHomeDirectory() {
        #expect(SessionStore.defaultDirectory(applicationID: "org.x.Y", environment: [:])
            == NSHomeDirectory() + "/.local/state/navsession/org.x.Y")
    }
}
