import DBusTestSupport
import Foundation
import Testing

/// The `Package.swift` lines Docs/client.md and Docs/testing.md give a depending package name
/// what this package has: its products, its release, and the identity SwiftPM derives from the URL.
struct DependencyLinesDocumentationTests {
    static let documents = ["Docs/client.md", "Docs/testing.md"]

    static func text(_ path: String) throws -> String {
        try String(contentsOf: PrivateBus.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// `(name, package)` of every `.product(name: "…", package: "…")` in `text`.
    static func products(in text: String) -> [(name: String, package: String)] {
        text.matches(of: #/\.product\(name: "([^"]+)", package: "([^"]+)"\)/#).map { (String($0.1), String($0.2)) }
    }

    /// The `url` and `from` of every `.package(url: "…", from: "…")` in `text`.
    static func packages(in text: String) -> [(url: String, from: String)] {
        text.matches(of: #/\.package\(url: "([^"]+)", from: "([^"]+)"\)/#).map { (String($0.1), String($0.2)) }
    }

    @Test(arguments: documents) func everyDocumentedProductIsAProductOfPackageSwift(document: String) throws {
        let manifest = try Self.text("Package.swift")
        let declared = Set(manifest.matches(of: #/\.(?:library|executable)\(name: "([^"]+)"/#).map { String($0.1) })
        let documented = Self.products(in: try Self.text(document))
        #expect(!documented.isEmpty)
        for product in documented {
            #expect(declared.contains(product.name), "\(document) names \(product.name), not a product of \(declared.sorted())")
        }
    }

    @Test(arguments: documents) func theDependencyLinesIncludeTheDaemonAndTheTestKit(document: String) throws {
        let names = Set(Self.products(in: try Self.text(document)).map(\.name))
        #expect(names.isSuperset(of: ["navsessiond", "NavSessionTesting", "NavSessionClient"]), "\(document): \(names)")
    }

    @Test(arguments: documents) func theProductsNameThePackageLinesIdentityAndThisRelease(document: String) throws {
        let text = try Self.text(document)
        let package = try #require(Self.packages(in: text).first, "\(document) has no .package(url:from:) line")
        let release = try Self.text("Sources/NavigationCore/Support/NavSessionRelease.swift")
        let version = try #require(release.firstMatch(of: #/static let version = "([^"]+)"/#)).1
        #expect(package.from == version)
        let last = package.url.split(separator: "/").last.map(String.init) ?? ""
        let identity = (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
        for product in Self.products(in: text) {
            #expect(product.package.lowercased() == identity, "\(document): \(product) vs the identity \(identity)")
        }
    }
}
