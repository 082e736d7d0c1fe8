import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The rules by which JWSVerify refuses receipts that OpenSSL's `CMS_verify` (purpose any, the embedded
/// certificates untrusted, the configured root trusted) accepts. These are stricter by design; every other
/// disagreement with OpenSSL is a bug (``ReceiptDifferentialTests``):
/// - ``markers``: the certificate the SignerInfo names must carry 1.2.840.113635.100.6.11.1 and its issuer
///   1.2.840.113635.100.6.2.1 (check 6); without this a developer's own WWDR certificate forges receipts.
/// - ``rsaKeySize``: the signer's key is RSA of at least 2048 bits (check 7); OpenSSL takes 1024.
/// - ``digest``: the SignerInfo's digest is SHA-1 or SHA-256 (check 2); OpenSSL takes SHA-384, SHA-512, MD5.
/// - ``signatureAlgorithm``: rsaEncryption, or sha1/sha256WithRSAEncryption naming the SignerInfo's own digest
///   (check 2); OpenSSL takes any `*WithRSAEncryption` OID, and ECDSA.
/// - ``chainLength``: the chain is exactly signer ← an embedded intermediate ← a configured root (check 4);
///   OpenSSL takes a signer issued by the root, or the root itself.
/// - ``trailingBytes``: nothing after the ContentInfo (check 1); OpenSSL's `d2i` ignores what follows.
/// - ``contentType``: eContentType is id-data (check 1).
/// - ``oneSigner``: exactly one SignerInfo (check 1); OpenSSL verifies every one.
/// - ``contentDER``: the content is the strict DER of a receipt's attributes, with no duplicate of an attribute
///   Apple defines once (check 1); OpenSSL signs and verifies bytes.
enum StricterRule: String, Sendable {
    case markers, rsaKeySize, digest, signatureAlgorithm, chainLength, trailingBytes, contentType, oneSigner
    case contentDER
}

/// One crafted receipt: the bytes, the verifier that judges them, and the expected verdict.
struct CraftedReceipt: Sendable {
    enum Expected: Sendable, Equatable, CustomStringConvertible {
        case verified
        case failed(VerificationError.Code, VerificationError.Check, VerificationReport.StepName)

        var description: String {
            switch self {
            case .verified: return "verified"
            case .failed(let code, let check, let step): return "\(code)/\(check)/\(step.rawValue)"
            }
        }
    }

    var id: String
    var receipt: [UInt8]
    /// A good receipt of the same PKI (the same envelope, other content, where one exists) that warms a verifier.
    var primer: [UInt8]
    var expected: Expected
    /// The validation time: the receipt's creation date (the verifiers use ``ValidationTime/signedDate``).
    var time: Date = ReceiptFixture.created
    var bundleId: String? = ReceiptFixture.bundleId
    var appAppleId: Int64?
    var environments: [AppStoreEnvironment] = [.production]
    var deviceIdentifier: [UInt8]?
    /// Why OpenSSL may accept what JWSVerify refuses at checks 1 to 8.
    var stricter: StricterRule?

    /// A verifier for this case with a cache of `capacity` chains.
    func verifier(capacity: Int) throws -> AppReceiptVerifier {
        try ReceiptVerifiers.make(
            capacity: capacity, bundleId: bundleId, appAppleId: appAppleId, environments: environments)
    }

    func outcome(_ verifier: AppReceiptVerifier) -> ReceiptOutcome {
        verifier.outcome(receipt, deviceIdentifier: deviceIdentifier)
    }
}

/// Every crafted receipt of the contract and one-verdict suites, by id. ``ReceiptDifferentialTests`` runs
/// OpenSSL on each of them.
enum CraftedReceipts {
    static let all = Result { try make(ReceiptFixture.get()) }

    static let ids: [String] = (try? all.get().map(\.id)) ?? []

    /// The receipt check a crafted case tests, by the prefix of its id (`good-`: verified receipts).
    enum Check: String, CaseIterable, Sendable {
        case good
        case format, algorithm, signer, trust, validity, markers, key, signature, claims
        case deviceHash = "device-hash"
    }

    /// The ids of the cases of one check: those starting with its prefix and a dash.
    static func ids(check: Check) -> [String] {
        ids.filter { $0.hasPrefix(check.rawValue + "-") }
    }

    static func named(_ id: String) throws -> CraftedReceipt {
        try #require(try all.get().first { $0.id == id }, "no crafted receipt \(id)")
    }

    private static func make(_ fixture: ReceiptFixture) throws -> [CraftedReceipt] {
        let pki = fixture.pki
        let content = ReceiptFixture.content()
        let signer = ReceiptSigner(hierarchy: pki)
        let good = try fixture.good()
        let developer = fixture.developer
        typealias Options = ReceiptSigner.Options
        func sign(_ options: Options = Options(), content: [UInt8] = content) throws -> [UInt8] {
            try signer.sign(content: content, options: options)
        }
        func failed(
            _ code: VerificationError.Code, _ check: VerificationError.Check, _ step: VerificationReport.StepName
        ) -> CraftedReceipt.Expected {
            .failed(code, check, step)
        }
        var cases: [CraftedReceipt] = []
        func add(
            _ id: String, _ receipt: [UInt8], _ expected: CraftedReceipt.Expected, primer: [UInt8]? = nil,
            stricter: StricterRule? = nil, _ edit: (inout CraftedReceipt) -> Void = { _ in }
        ) {
            var crafted = CraftedReceipt(
                id: id, receipt: receipt, primer: primer ?? good, expected: expected, stricter: stricter)
            edit(&crafted)
            cases.append(crafted)
        }
        let malformed = failed(.malformedReceipt, .format, .format)
        let badContent = failed(.malformedReceipt, .format, .content)
        let algorithm = failed(.unsupportedAlgorithm, .header, .algorithm)
        let noChain = failed(.missingCertificateChain, .header, .certificateChain)
        let untrusted = failed(.untrustedChain, .chain, .trust)
        let expired = failed(.certificateExpired, .chain, .validity)
        let markers = failed(.missingAppleExtension, .chain, .appleExtensions)
        let key = failed(.unsupportedKey, .chain, .signerKey)
        let signature = failed(.invalidSignature, .signature, .signature)

        // Apple's shapes, and shapes that share Apple's certificates field.
        add("good-sha256", good, .verified)
        add("good-sha1", try sign(.init(digest: .sha1)), .verified)
        add(
            "good-certificates-reversed", try sign(.init(certificates: [pki.root, pki.intermediate, pki.leaf])),
            .verified)
        add(
            "good-intermediate-first", try sign(.init(certificates: [pki.intermediate, pki.leaf, pki.root])), .verified)
        add("good-signed-attributes", try sign(.init(signedAttributes: true)), .verified)
        add("good-ber-envelope", try sign(.init(encoding: .berIndefiniteLength)), .verified)
        add(
            "good-signature-oid-sha256WithRSA",
            try ReceiptSurgery.signatureAlgorithm(good, ReceiptSurgery.sha256WithRSA), .verified)
        let withDuplicate = [pki.leaf, fixture.intermediateDuplicate, pki.intermediate, pki.root]
        let duplicateInside = Date(timeIntervalSince1970: TimeInterval(ReceiptFixture.windowStart + 100))
        add(
            "good-duplicate-intermediate-outside-its-window", try sign(.init(certificates: withDuplicate)),
            .verified)
        add(
            "good-duplicate-intermediate-inside-its-window",
            try sign(
                .init(certificates: withDuplicate), content: ReceiptFixture.content(created: duplicateInside)),
            .verified
        ) { $0.time = duplicateInside }

        add("good-signer-issuer-in-other-case", try ReceiptSurgery.signerIssuerUppercased(good), .verified)

        // 1, format: malformedReceipt.
        add("format-not-cms", [0x30, 0x03, 0x02, 0x01, 0x01], malformed)
        add("format-jws-as-receipt", Array("eyJhbGciOiJFUzI1NiJ9.e30.c2ln".utf8), malformed)
        add("format-trailing-byte", good + [0x00], malformed, stricter: .trailingBytes)
        add("format-trailing-element", good + [0x05, 0x00], malformed, stricter: .trailingBytes)
        add("format-detached", try sign(.init(detached: true)), malformed)
        add(
            "format-not-id-data", try sign(.init(contentTypeOID: "1.2.840.113549.1.7.2")), malformed,
            stricter: .contentType)
        add(
            "format-two-signers",
            try sign(
                .init(
                    certificates: pki.certificateChain + [developer.certificate],
                    additionalSigners: [.init(credential: pki.leafCredential, digest: .sha1)])),
            malformed, stricter: .oneSigner)
        add("format-no-signer", try sign(.init(includesSigner: false)), malformed)
        add(
            "format-content-not-der", try sign(content: [0x31, 0x06, 0x30, 0x04, 0x02, 0x01, 0x02]), badContent,
            stricter: .contentDER)
        add("format-content-not-a-set", try sign(content: [0x01, 0x02, 0x03]), badContent, stricter: .contentDER)
        var attributes = ReceiptContentEncoder.attributes(ReceiptFixture.receipt())
        attributes.append(ReceiptAttribute(type: 2, value: ReceiptContentEncoder.utf8String("com.example.evil")))
        add(
            "format-duplicate-bundle-id", try sign(content: ReceiptContentEncoder.content(attributes: attributes)),
            badContent, stricter: .contentDER)
        add(
            "format-content-ber-lengths",
            try sign(
                content: ReceiptContentEncoder.content(
                    attributes: ReceiptContentEncoder.attributes(ReceiptFixture.receipt()), lengths: .longForm)),
            badContent, stricter: .contentDER)

        // 2, algorithms: unsupportedAlgorithm.
        let sha256 = ReceiptDigest.sha256.oid
        let unknownDigest = ReceiptCheck02AlgorithmsTests.unknownDigestOID
        add(
            "good-digest-set-sha256-sha512", try sign(.init(digestAlgorithmOIDs: [sha256, ReceiptDigest.sha512.oid])),
            .verified)
        add(
            "algorithm-digest-set-unknown-beside-sha256",
            try sign(.init(digestAlgorithmOIDs: [sha256, unknownDigest])), algorithm)
        add("algorithm-digest-set-empty", try sign(.init(digestAlgorithmOIDs: [])), algorithm)
        add("algorithm-digest-set-unknown-only", try sign(.init(digestAlgorithmOIDs: [unknownDigest])), algorithm)
        add(
            "algorithm-digest-set-without-signer-digest",
            try sign(.init(digestAlgorithmOIDs: [ReceiptDigest.sha1.oid])), algorithm)
        add("algorithm-sha512", try sign(.init(digest: .sha512)), algorithm, stricter: .digest)
        add("algorithm-sha384", try sign(.init(digest: .sha384)), algorithm, stricter: .digest)
        add("algorithm-md5", try sign(.init(digest: .md5)), algorithm, stricter: .digest)
        add(
            "algorithm-signature-oid-sha512WithRSA",
            try ReceiptSurgery.signatureAlgorithm(good, ReceiptSurgery.sha512WithRSA), algorithm,
            stricter: .signatureAlgorithm)
        add(
            "algorithm-signature-oid-sha1WithRSA-over-sha256",
            try ReceiptSurgery.signatureAlgorithm(good, ReceiptSurgery.sha1WithRSA), algorithm,
            stricter: .signatureAlgorithm)
        add(
            "algorithm-signature-oid-md5WithRSA",
            try ReceiptSurgery.signatureAlgorithm(good, ReceiptSurgery.md5WithRSA), algorithm,
            stricter: .signatureAlgorithm)
        add(
            "algorithm-ecdsa-signer",
            try ReceiptSigner(
                signer: fixture.ecLeaf, certificates: [fixture.ecLeaf.certificate, pki.intermediate, pki.root]
            )
            .sign(content: content), algorithm, stricter: .signatureAlgorithm)

        // 3, signer: missingCertificateChain.
        add("signer-no-certificates", try sign(.init(certificates: [])), noChain)
        add("signer-not-embedded", try sign(.init(certificates: [pki.intermediate, pki.root])), noChain)

        // 4, trust: untrustedChain.
        add("trust-unrelated-root", try fixture.good(fixture.unrelated), untrusted)
        add(
            "trust-unrelated-root-without-its-root",
            try ReceiptSigner(hierarchy: fixture.unrelated).sign(
                content: content,
                options: .init(certificates: [fixture.unrelated.leaf, fixture.unrelated.intermediate])),
            untrusted)
        let underRoot = fixture.leafUnderRoot
        add(
            "trust-leaf-directly-under-root",
            try ReceiptSigner(signer: underRoot, certificates: [underRoot.certificate, pki.root]).sign(
                content: content),
            untrusted, stricter: .chainLength)
        add(
            "trust-leaf-directly-under-root-intermediate-embedded",
            try ReceiptSigner(signer: underRoot, certificates: [underRoot.certificate, pki.intermediate, pki.root])
                .sign(content: content), untrusted, stricter: .chainLength)
        add("trust-intermediate-not-embedded", try sign(.init(certificates: [pki.leaf, pki.root])), untrusted)
        add(
            "trust-root-names-itself",
            try sign(.init(signerCertificate: pki.root, signingKey: pki.rootKey)), untrusted,
            stricter: .chainLength)
        add(
            "trust-intermediate-names-itself",
            try sign(.init(signerCertificate: pki.intermediate, signingKey: pki.intermediateKey)), untrusted,
            stricter: .chainLength)

        // 5, validity: certificateExpired, to the second (notBefore is valid, notAfter is not).
        let start = ReceiptFixture.windowStart
        let end = ReceiptFixture.windowEnd
        for (name, windowPKI) in [("signer", fixture.signerWindow), ("intermediate", fixture.intermediateWindow)] {
            let primer = try fixture.good(windowPKI, created: Date(timeIntervalSince1970: TimeInterval(start + 1000)))
            for (label, second, verdict) in [
                ("one-second-before-not-before", start - 1, expired), ("at-not-before", start, .verified),
                ("last-second", end - 1, .verified), ("at-not-after", end, expired),
            ] as [(String, Int64, CraftedReceipt.Expected)] {
                let time = Date(timeIntervalSince1970: TimeInterval(second))
                add("validity-\(name)-\(label)", try fixture.good(windowPKI, created: time), verdict, primer: primer) {
                    $0.time = time
                }
            }
        }

        // 6, Apple's markers: missingAppleExtension.
        add(
            "markers-developer-certificate-signs",
            try ReceiptSigner(signer: developer, certificates: [developer.certificate, pki.intermediate, pki.root])
                .sign(content: content), markers, stricter: .markers)
        let unmarked = fixture.unmarkedIntermediate
        add("markers-intermediate-without-marker", try fixture.good(unmarked), markers, stricter: .markers)
        let crowded = [pki.leaf, developer.certificate, pki.intermediate, pki.root]
        add(
            "markers-real-leaf-embedded-developer-named",
            try ReceiptSigner(signer: developer, certificates: crowded).sign(content: content), markers,
            stricter: .markers)

        let twin = fixture.serialTwin
        add(
            "markers-serial-twin-embedded-first",
            try ReceiptSigner(signer: twin, certificates: [twin.certificate] + pki.certificateChain).sign(
                content: content), markers, stricter: .markers)
        let unmarkedLeaf = unmarked.leafCredential
        add(
            "markers-unmarked-issuer-beside-marked-intermediate",
            try ReceiptSigner(
                signer: unmarkedLeaf,
                certificates: [unmarked.leaf, pki.intermediate, unmarked.intermediate, pki.root]
            ).sign(content: content), markers, stricter: .markers)

        // 7, signer key: unsupportedKey.
        let small = fixture.rsa1024Leaf
        add(
            "key-rsa-1024",
            try ReceiptSigner(signer: small, certificates: [small.certificate, pki.intermediate, pki.root]).sign(
                content: content), key, stricter: .rsaKeySize)
        add(
            "key-ec-leaf-named-rsa-signature",
            try sign(
                .init(
                    certificates: [fixture.ecLeaf.certificate, pki.intermediate, pki.root],
                    signerCertificate: fixture.ecLeaf.certificate)), key)

        // 8, signature: invalidSignature.
        add(
            "signature-real-leaf-named-other-embedded-key",
            try sign(.init(certificates: crowded, signingKey: developer.privateKey)), signature)
        add(
            "signature-serial-twin-embedded-second-signs",
            try ReceiptSigner(signer: twin, certificates: pki.certificateChain + [twin.certificate]).sign(
                content: content), signature)
        add("signature-altered-content", try ReceiptSurgery.alterContent(good), signature)
        add("signature-altered-signature", try ReceiptSurgery.flipSignature(good), signature)
        add("signature-altered-sha1", try ReceiptSurgery.flipSignature(try sign(.init(digest: .sha1))), signature)
        add(
            "signature-altered-content-signed-attributes",
            try ReceiptSurgery.alterContent(try sign(.init(signedAttributes: true))), signature)
        add(
            "signature-altered-content-ber",
            try {
                var ber = try sign(.init(encoding: .berIndefiniteLength))
                let needle = Array(ReceiptFixture.bundleId.utf8)
                let at = try #require(
                    ber.indices.dropLast(needle.count).first { ber[$0..<($0 + needle.count)].elementsEqual(needle) })
                ber[at] ^= 0x20
                return ber
            }(), signature)

        // 9, claims.
        add(
            "claims-wrong-bundle-id", try sign(content: ReceiptFixture.content(bundleId: "com.example.other")),
            failed(.invalidAppIdentifier, .claims, .bundleId))
        add("claims-wrong-app-apple-id", good, failed(.invalidAppIdentifier, .claims, .appAppleId)) {
            $0.appAppleId = 7
        }
        add(
            "claims-wrong-environment",
            try sign(content: ReceiptFixture.content(receiptType: "ProductionSandbox")),
            failed(.invalidEnvironment, .claims, .environment))

        // 10, device hash.
        add("device-hash-matches", good, .verified) { $0.deviceIdentifier = ReceiptFixture.deviceIdentifier }
        add("device-hash-other-device", good, failed(.deviceHashMismatch, .claims, .deviceHash)) {
            $0.deviceIdentifier = Array(ReceiptFixture.deviceIdentifier.reversed())
        }
        add(
            "device-hash-of-another-bundle-id",
            try sign(content: ReceiptFixture.content(hashedBundleId: "com.example.other")),
            failed(.deviceHashMismatch, .claims, .deviceHash)
        ) { $0.deviceIdentifier = ReceiptFixture.deviceIdentifier }
        return cases
    }
}
