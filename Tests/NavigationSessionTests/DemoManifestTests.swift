import NavigationSession
import Testing

// Placeholder so the test target declared in Package.swift has a source file (the session branch
// declares the target before committing its tests).
@Test func demoManifestLoads() throws {
    #expect(try Manifest.demo().applicationID == "org.navsession.Demo")
}
