import Foundation
import Testing

@testable import JWSVerify

/// Bad input of every shape gives its code, never a crash: the base token is Apple's `transactionInfo`
/// (valid under the test CA), changed in one way per case. The suites of checks 1 to 5 and 10 share it.
protocol AppleTokenVariants {}

extension AppleTokenVariants {
    static func base() throws -> String { try AppleTestData.token("transactionInfo") }

    static func segments() throws -> [String] {
        try base().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    static func withHeader(_ change: (inout [String: Any]) -> Void) throws -> String {
        var parts = try TokenParts(base())
        change(&parts.header)
        let segments = try segments()
        return try TokenParts.segment(parts.header) + "." + segments[1] + "." + segments[2]
    }

    static func check(
        _ token: String, _ code: VerificationError.Code, _ check: VerificationError.Check, _ name: String
    ) throws {
        let result = try AppleTestData.verifier().verifyAndDecodeTransaction(token)
        #expect(result.error?.code == code, "\(name): got \(String(describing: result.error))")
        #expect(result.error?.check == check, "\(name)")
        #expect(!result.isVerified, "\(name)")
    }
}
