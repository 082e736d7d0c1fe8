import Foundation
import Testing

@testable import JWSVerify

/// ``ValidationTime``: one function decides the validation time of tokens and receipts, and one conversion
/// turns a `Date` into the seconds every certificate and OCSP check compares.
@Suite("Validation time of tokens and receipts")
struct ValidationTimeTests {
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 2_000_000_000.75) }

    /// Input: each configuration, with and without a signed date, offline and online. Expected: the signed date
    /// offline (rounded down), the clock's otherwise, flagged as "without a signed date" only offline.
    @Test("signed date offline, the clock's time otherwise")
    func rule() {
        let signed = Date(timeIntervalSince1970: 1_500_000_000.9)
        let fixed = Date(timeIntervalSince1970: -12.5)
        #expect(
            ValidationTime.signedDate.seconds(signedDate: signed, online: false, clock: Self.clock) == (
                1_500_000_000, false
            ))
        #expect(
            ValidationTime.signedDate.seconds(signedDate: nil, online: false, clock: Self.clock) == (
                2_000_000_000, true
            ))
        #expect(
            ValidationTime.signedDate.seconds(signedDate: signed, online: true, clock: Self.clock) == (
                2_000_000_000, false
            ))
        #expect(
            ValidationTime.current.seconds(signedDate: signed, online: false, clock: Self.clock) == (
                2_000_000_000, false
            ))
        #expect(
            ValidationTime.fixed(fixed).seconds(signedDate: signed, online: false, clock: Self.clock) == (-13, false))
    }

    /// Input: signed dates no certificate can hold (infinite, NaN, 10¹⁴ s and more from 1970). Expected: treated
    /// as no signed date: the clock's time, flagged.
    @Test("a signed date out of range counts as none")
    func outOfRange() {
        for seconds in [Double.infinity, -.infinity, .nan, 1e14, -1e15] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ValidationTime.seconds(date) == nil, "\(seconds)")
            #expect(
                ValidationTime.signedDate.seconds(signedDate: date, online: false, clock: Self.clock)
                    == (2_000_000_000, true), "\(seconds)")
        }
    }

    /// Input: a token payload's `signedDate` in milliseconds, and the same instant as a receipt's creation date.
    /// Expected: the token form and the receipt form give the same seconds (one rule for both envelopes).
    @Test("a token's payload date and a receipt's creation date give the same seconds")
    func bothEnvelopes() {
        let milliseconds: Int64 = 1_767_225_600_123
        let token = ValidationTime.signedDate.seconds(
            payload: ["signedDate": .integer(milliseconds)], dateKey: "signedDate", online: false, clock: Self.clock)
        let receipt = ValidationTime.signedDate.seconds(
            signedDate: Date(timeIntervalSince1970: Double(milliseconds) / 1000), online: false, clock: Self.clock)
        #expect(token == (1_767_225_600, false))
        #expect(token == receipt)
    }

    /// Input: a real receipt, with a verifier whose clock is a minute after the receipt's creation date.
    /// Expected: validated at the creation date (field 12), not at the clock's time.
    @Test("a receipt is validated at its creation date, not the clock's time")
    func receiptAtCreationDate() throws {
        let real = ReceiptVerificationTests.appStoreReceipts[0]
        let created = try #require(ISO8601DateFormatter().date(from: real.created))
        let verifier = try AppReceiptVerifier(
            bundleId: real.bundleId, environments: [.sandbox], clock: { created.addingTimeInterval(60) })
        let text = try ReceiptVerificationTests.text(real.file)
        let verified = try #require(verifier.verifyAndDecodeAppReceipt(text).verified)
        #expect(verified.validationTime == created)
        #expect(!verified.validatedWithoutSignedDate)
    }
}
