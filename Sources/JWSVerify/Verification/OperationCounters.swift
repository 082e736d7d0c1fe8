import Synchronization

/// Process-wide counts of the expensive operations, so that benchmarks and tests can prove what
/// the caches save (for example: a warm token costs exactly one P-256 verification).
package enum OperationCounters {
    private static let es256 = Atomic<Int>(0)
    private static let p384 = Atomic<Int>(0)
    private static let parses = Atomic<Int>(0)
    private static let ocsp = Atomic<Int>(0)
    private static let tokens = Atomic<Int>(0)

    /// ES256 (P-256) signature verifications of tokens.
    package static var es256Verifications: Int { es256.load(ordering: .relaxed) }
    /// Certificate signature verifications done by chain checks (P-384 for Apple's chain).
    package static var certificateSignatureVerifications: Int { p384.load(ordering: .relaxed) }
    /// DER certificates parsed by OpenSSL (`d2i_X509`) from tokens.
    package static var certificateParses: Int { parses.load(ordering: .relaxed) }
    /// Tokens taken apart by check 1 (`FormatCheck`), nested tokens included: one per token verified.
    package static var tokenParses: Int { tokens.load(ordering: .relaxed) }
    /// OCSP requests sent by online checks, of every verifier (a warm revocation cache sends none).
    package static var ocspRequests: Int { ocsp.load(ordering: .relaxed) }

    /// Every count as one JSON object: what `jwsverify` writes to standard error as it exits when the environment
    /// holds `JWSVERIFY_OPERATION_COUNTS=1` (`jwsverify-operations {"certificateParses":…,"tokenParses":…}`).
    package static var jsonValue: JSONValue {
        .object([
            "certificateParses": .integer(Int64(certificateParses)),
            "certificateSignatureVerifications": .integer(Int64(certificateSignatureVerifications)),
            "es256Verifications": .integer(Int64(es256Verifications)),
            "ocspRequests": .integer(Int64(ocspRequests)),
            "tokenParses": .integer(Int64(tokenParses)),
        ])
    }

    static func countES256() { es256.add(1, ordering: .relaxed) }
    static func countCertificateSignatures(_ count: Int) { p384.add(count, ordering: .relaxed) }
    static func countParse() { parses.add(1, ordering: .relaxed) }
    static func countOCSPRequest() { ocsp.add(1, ordering: .relaxed) }
    static func countTokenParse() { tokens.add(1, ordering: .relaxed) }
}
