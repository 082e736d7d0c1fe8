import Foundation
import JWSVerifyTesting

/// The crafted-chain tests' variant of ``TestHierarchy`` (`.appStoreEC`, named by a label: its option
/// ``TestHierarchy/Options/label``), in the shape the OpenSSL-level tests use: DER bytes, EC keys and the names
/// as ``CraftedName``s exactly as encoded, so that ``CraftedCertificate/leafProfile(name:issuer:publicKey:issuerKey:notBefore:notAfter:serialNumber:signatureDigest:extra:)``
/// can issue more leaves under the intermediate. Keys and names derive from `label` and `seed`; valid 2025 ... 2035.
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
        let hierarchy = try TestHierarchy.generate(.appStoreEC, seed: seed, options: .init(label: label))
        guard let rootKey = hierarchy.rootKey.ec, let intermediateKey = hierarchy.intermediateKey.ec,
            let leafKey = hierarchy.leafKey.ec
        else { throw JWSTestingError.invalidArgument("an .appStoreEC hierarchy has EC keys") }
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        self.leafKey = leafKey
        rootName = try hierarchy.root.subjectName
        intermediateName = try hierarchy.intermediate.subjectName
        leafName = try hierarchy.leaf.subjectName
        root = hierarchy.root.der
        intermediate = hierarchy.intermediate.der
        leaf = hierarchy.leaf.der
    }

    /// The test's fixture, or the failure that keeps it from being made.
    static func fixture<T>(_ make: () throws -> T) -> T {
        do { return try make() } catch { fatalError("crafted hierarchy: \(error)") }
    }
}
