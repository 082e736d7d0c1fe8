import Foundation
import Testing

@testable import JWSVerify

/// `VerificationError`'s mapping to Apple's `VerificationStatus` and its equality.
@Suite("Verification errors")
struct VerificationErrorTests {
    /// Input: every code JWSVerify defines. Expected: the `VerificationStatus` case Apple's App Store
    /// Server Library reports for the same failure (INVALID_CHAIN_LENGTH, INVALID_CERTIFICATE for
    /// certificate and chain problems, RETRYABLE_VERIFICATION_FAILURE when OCSP gave no answer,
    /// INVALID_APP_IDENTIFIER, INVALID_ENVIRONMENT, FAILURE for configuration, VERIFICATION_FAILURE for
    /// the rest).
    @Test("every code maps to Apple's VerificationStatus name")
    func appleVerificationStatus() {
        let expected: [VerificationError.Code: String] = [
            .malformedToken: "VERIFICATION_FAILURE",
            .unsupportedAlgorithm: "VERIFICATION_FAILURE",
            .missingCertificateChain: "VERIFICATION_FAILURE",
            .invalidChainLength: "INVALID_CHAIN_LENGTH",
            .invalidCertificate: "INVALID_CERTIFICATE",
            .untrustedChain: "INVALID_CERTIFICATE",
            .certificateExpired: "INVALID_CERTIFICATE",
            .missingAppleExtension: "INVALID_CERTIFICATE",
            .unsupportedKey: "INVALID_CERTIFICATE",
            .invalidSignature: "VERIFICATION_FAILURE",
            .revokedCertificate: "INVALID_CERTIFICATE",
            .revocationUnavailable: "RETRYABLE_VERIFICATION_FAILURE",
            .payloadDecodingFailed: "VERIFICATION_FAILURE",
            .invalidAppIdentifier: "INVALID_APP_IDENTIFIER",
            .invalidEnvironment: "INVALID_ENVIRONMENT",
            .invalidConfiguration: "FAILURE",
            // Apple's libraries verify no receipts: their general failure.
            .malformedReceipt: "VERIFICATION_FAILURE",
            .deviceHashMismatch: "VERIFICATION_FAILURE",
            // Apple's libraries check no API response envelope: their general failure.
            .envelopeMismatch: "VERIFICATION_FAILURE",
        ]
        #expect(Set(expected.keys) == Set(VerificationError.Code.all))
        for code in VerificationError.Code.all {
            #expect(code.appleVerificationStatus == expected[code], "\(code)")
        }
        #expect(VerificationError.Code(rawValue: "someFutureCode").appleVerificationStatus == "VERIFICATION_FAILURE")
    }

    /// Input: errors with the same code but different checks, messages and OpenSSL text, and errors
    /// with different codes. Expected: equal (and one element of a set) exactly when the codes are equal.
    @Test("errors are equal and hash alike when their codes are")
    func equalityByCode() {
        let first = VerificationError(.untrustedChain, check: .chain, "one", underlying: "a")
        let second = VerificationError(.untrustedChain, check: .signature, "two")
        let other = VerificationError(.certificateExpired, check: .chain, "one", underlying: "a")
        #expect(first == second)
        #expect(first != other)
        #expect(Set([first, second, other]).count == 2)
        var hasher = Hasher()
        hasher.combine(VerificationError.Code.untrustedChain)
        var errorHasher = Hasher()
        first.hash(into: &errorHasher)
        #expect(hasher.finalize() == errorHasher.finalize())
    }

    /// Input: the error and the failure of a token that is not a JWS, each as `any Error` (as a `catch`
    /// or a logger sees it). Expected: `localizedDescription` is the error's message, not Foundation's
    /// "The operation could not be completed. (JWSVerify.VerificationError error 1.)".
    @Test("localizedDescription of an error and of a failure is the message")
    func localizedDescriptionIsTheMessage() throws {
        let verifier = try SignedDataVerifier(bundleId: nil, environment: nil)
        guard case .failed(let failure) = verifier.verifyAndDecodeTransaction("not a token") else {
            Issue.record("a string that is not a JWS verified")
            return
        }
        #expect(failure.error.code == .malformedToken && failure.error.check == .format)
        #expect(!failure.error.message.isEmpty)
        let error: any Error = failure.error
        #expect(error.localizedDescription == failure.error.message)
        let asFailure: any Error = failure
        #expect(asFailure.localizedDescription == failure.error.message)
        let made: any Error = VerificationError(.untrustedChain, check: .chain, "no path to a trusted root")
        #expect(made.localizedDescription == "no path to a trusted root")
    }
}
