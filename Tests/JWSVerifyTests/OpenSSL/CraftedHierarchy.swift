import Foundation
import JWSVerifyTesting

/// An Apple-shaped crafted hierarchy for the OpenSSL-level tests: a P-384 root and intermediate of
/// TestPKI's profiles (``CraftedCertificate/rootProfile(name:key:notBefore:notAfter:serialNumber:extra:)``
/// and ``CraftedCertificate/intermediateProfile(name:issuer:key:issuerKey:notBefore:notAfter:serialNumber:extra:)``),
/// a P-256 leaf of the leaf profile, names and keys derived from `label`, valid 2025 ... 2035.
struct CraftedHierarchy: Sendable {
    /// 2025-01-01T00:00:00Z.
    static let from: Int64 = 1_735_689_600
    /// 2035-01-01T00:00:00Z.
    static let until: Int64 = 2_051_222_400

    let rootKey: TestPrivateKey
    let intermediateKey: TestPrivateKey
    let leafKey: TestPrivateKey
    let rootName: CraftedName
    let intermediateName: CraftedName
    let leafName: CraftedName
    /// DER of the root, the intermediate (issued by the root) and the leaf (issued by the intermediate).
    let root: Data
    let intermediate: Data
    let leaf: Data

    init(label: String, seed: UInt64) throws {
        rootKey = try TestPrivateKey.generate(curve: .p384, seed: seed, label: "\(label)-root")
        intermediateKey = try TestPrivateKey.generate(curve: .p384, seed: seed, label: "\(label)-intermediate")
        leafKey = try TestPrivateKey.generate(curve: .p256, seed: seed, label: "\(label)-leaf")
        func name(_ role: String) throws -> CraftedName {
            try CraftedName([.commonName("\(label) \(role) NOT APPLE"), .organization("JWSVerify Tests")])
        }
        rootName = try name("Root")
        intermediateName = try name("Intermediate")
        leafName = try name("Leaf")
        root = try CraftedCertificate.rootProfile(
            name: rootName, key: rootKey, notBefore: Self.from, notAfter: Self.until
        ).sign(with: rootKey)
        intermediate = try CraftedCertificate.intermediateProfile(
            name: intermediateName, issuer: rootName, key: intermediateKey, issuerKey: rootKey, notBefore: Self.from,
            notAfter: Self.until
        ).sign(with: rootKey)
        leaf = try CraftedCertificate.leafProfile(
            name: leafName, issuer: intermediateName, publicKey: .key(leafKey), issuerKey: intermediateKey,
            notBefore: Self.from, notAfter: Self.until
        ).sign(with: intermediateKey)
    }

    /// The test's fixture, or the failure that keeps it from being made.
    static func fixture<T>(_ make: () throws -> T) -> T {
        do { return try make() } catch { fatalError("crafted hierarchy: \(error)") }
    }
}
