import Foundation
import Testing

@testable import JWSVerify

/// Check 11 end to end: tokens of a test PKI through `SignedDataVerifier(enableOnlineChecks: true)`,
/// with real `openssl ocsp` responders (or a stub where a responder must misbehave).
@Suite(
    "Check 11, revocation: OCSP end to end",
    .enabled(if: OCSPOpenSSLTool.isAvailable, "needs the openssl command-line tool"), .timeLimit(.minutes(1)))
struct Check11RevocationTests {
    /// Verifies a fresh token of `pki` and returns the error (nil when verified).
    private func verify(
        _ pki: OCSPTestPKI, timeout: Duration = .seconds(3), clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> VerificationError? {
        try pki.verifier(timeout: timeout, clock: clock).verifyAndDecodeTransaction(try pki.token()).error
    }

    /// Expects `revocationUnavailable` from the revocation check, retryable, naming `role` and `url`.
    private func expectUnavailable(
        _ error: VerificationError?, role: String, url: String?, containing fragment: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error?.code == .revocationUnavailable, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.check == .revocation, sourceLocation: sourceLocation)
        #expect(error?.isRetryable == true, sourceLocation: sourceLocation)
        let message = error?.message ?? ""
        #expect(message.contains("the \(role) certificate"), "\(message)", sourceLocation: sourceLocation)
        if let url { #expect(message.contains(url), "\(message)", sourceLocation: sourceLocation) }
        if let fragment { #expect(message.contains(fragment), "\(message)", sourceLocation: sourceLocation) }
    }

    /// Input: leaf and intermediate `good` at responders signing with delegated responder
    /// certificates (OCSPSigning, issued by each issuer). Expected: verified.
    @Test("a good leaf and intermediate verify")
    func goodChainVerifies() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let result = try pki.verifier().verifyAndDecodeTransaction(try pki.token())
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.payload?.bundleId == OCSPTestPKI.bundleId)
    }

    /// Input: both responders sign with the issuer's own key. Expected: verified (the issuer is an
    /// authorized responder for its own certificates, RFC 6960 §4.2.2.2).
    @Test("answers signed by the issuer itself are accepted")
    func issuerSignedAnswersVerify() throws {
        let pki = try OCSPTestPKI(.init(leafResponder: .issuer, intermediateResponder: .issuer))
        defer { pki.stop() }
        #expect(try verify(pki) == nil)
    }

    /// Input: the leaf is revoked (keyCompromise, 2025-01-02T03:04:05Z) in the intermediate's
    /// responder. Expected: `revokedCertificate`, check revocation, not retryable; the message
    /// names the leaf, the time, the reason and the URL.
    @Test("a revoked leaf is rejected with revokedCertificate")
    func revokedLeafIsRejected() throws {
        let pki = try OCSPTestPKI(.init(leafRevoked: true))
        defer { pki.stop() }
        let error = try verify(pki)
        #expect(error?.code == .revokedCertificate)
        #expect(error?.check == .revocation)
        #expect(error?.isRetryable == false)
        let message = error?.message ?? ""
        #expect(message.contains("the leaf certificate (CN=OCSP Test Leaf, serial 1003)"), "\(message)")
        #expect(message.contains("2025-01-02T03:04:05Z"), "\(message)")
        #expect(message.contains("keyCompromise"), "\(message)")
        #expect(message.contains(pki.leafResponderURL ?? "?"), "\(message)")
    }

    /// Input: the intermediate is revoked in the root's responder; the leaf is good.
    /// Expected: `revokedCertificate` naming the intermediate.
    @Test("a revoked intermediate is rejected with revokedCertificate")
    func revokedIntermediateIsRejected() throws {
        let pki = try OCSPTestPKI(.init(intermediateRevoked: true))
        defer { pki.stop() }
        let error = try verify(pki)
        #expect(error?.code == .revokedCertificate)
        #expect(error?.check == .revocation)
        #expect(error?.message.contains("the intermediate certificate") == true, "\(String(describing: error))")
        #expect(error?.message.contains(pki.intermediateResponderURL ?? "?") == true)
    }

    /// Input: both responders terminated before the check (nothing listens at their URLs).
    /// Expected: `revocationUnavailable`, retryable, naming the leaf and its URL, with OpenSSL's reason.
    @Test("a stopped responder gives revocationUnavailable")
    func stoppedResponderIsUnavailable() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        pki.stopResponders()
        let error = try verify(pki)
        expectUnavailable(error, role: "leaf", url: pki.leafResponderURL)
        #expect(error?.underlying != nil)
    }

    /// Input: the leaf's responder signs with a self-signed OCSPSigning certificate that the
    /// intermediate never issued. Expected: `revocationUnavailable` (OCSP_basic_verify fails).
    @Test("an answer signed by an unrelated key gives revocationUnavailable")
    func unrelatedSignerIsUnavailable() throws {
        let pki = try OCSPTestPKI(.init(leafResponder: .unrelated))
        defer { pki.stop() }
        let error = try verify(pki)
        expectUnavailable(error, role: "leaf", url: pki.leafResponderURL, containing: "not signed by the issuer")
        #expect(error?.underlying != nil)
    }

    /// Input: the intermediate's responder signs with a certificate issued by the root but
    /// without the OCSPSigning extended key usage. Expected: `revocationUnavailable` for the intermediate.
    @Test("a delegated responder without OCSPSigning gives revocationUnavailable")
    func delegatedSignerWithoutOCSPSigningIsUnavailable() throws {
        let pki = try OCSPTestPKI(.init(intermediateResponder: .delegatedWithoutOCSPSigning))
        defer { pki.stop() }
        let error = try verify(pki)
        expectUnavailable(
            error, role: "intermediate", url: pki.intermediateResponderURL, containing: "not signed by the issuer")
    }

    /// Input: the leaf's responder sets nextUpdate one minute after thisUpdate (`-nmin 1`); the
    /// verifier's clock runs 10 minutes ahead. Expected: `revocationUnavailable`, "nextUpdate … has passed".
    @Test("a stale answer (nextUpdate passed) gives revocationUnavailable")
    func staleAnswerIsRejected() throws {
        let pki = try OCSPTestPKI(.init(leafResponderArguments: ["-nmin", "1"]))
        defer { pki.stop() }
        let error = try verify(pki, clock: { Date().addingTimeInterval(600) })
        expectUnavailable(error, role: "leaf", url: pki.leafResponderURL, containing: "has passed")
    }

    /// Input: the leaf's responder has no nextUpdate (no `-ndays`/`-nmin`) and the clock runs
    /// 2 hours ahead (more than the 1 hour allowed without nextUpdate). Expected: `revocationUnavailable`.
    @Test("an old answer without nextUpdate gives revocationUnavailable")
    func oldAnswerWithoutNextUpdateIsRejected() throws {
        let pki = try OCSPTestPKI(.init(leafResponderArguments: []))
        defer { pki.stop() }
        #expect(try verify(pki) == nil)
        let error = try verify(pki, clock: { Date().addingTimeInterval(7200) })
        expectUnavailable(error, role: "leaf", url: pki.leafResponderURL, containing: "no nextUpdate")
    }

    /// Input: the leaf's responder answers with a SHA-256 CertID (`-rcid sha256`) to a SHA-1
    /// request, so no SingleResponse matches the id asked. Expected: `revocationUnavailable`.
    @Test("an answer about another certificate id gives revocationUnavailable")
    func answerForOtherCertificateIDIsRejected() throws {
        let pki = try OCSPTestPKI(.init(leafResponderArguments: ["-ndays", "1", "-rcid", "sha256"]))
        defer { pki.stop() }
        let error = try verify(pki)
        expectUnavailable(
            error, role: "leaf", url: pki.leafResponderURL, containing: "no status for the requested certificate id")
    }

    /// Input: the leaf's responder replays a genuine, good answer about another leaf of the same
    /// intermediate (serial 2003). Expected: `revocationUnavailable`.
    @Test("an answer about another serial gives revocationUnavailable")
    func answerForOtherSerialIsRejected() throws {
        let replay = try OCSPStubServer(.respond(status: 200, contentType: "application/ocsp-response", body: []))
        defer { replay.stop() }
        let pki = try OCSPTestPKI(.init(leafResponder: .stub(replay)))
        defer { pki.stop() }
        replay.setBehavior(
            .respond(
                status: 200, contentType: "application/ocsp-response",
                body: try pki.recordedLeafAnswer(forOtherLeaf: true, nonce: false)))
        let error = try verify(pki)
        expectUnavailable(
            error, role: "leaf", url: replay.url, containing: "no status for the requested certificate id")
        #expect(replay.requestCount == 1)
    }

    /// Input: the leaf's responder replays a genuine answer about this leaf, made for another
    /// request with another nonce. Expected: `revocationUnavailable` (nonce mismatch).
    @Test("a replayed answer with another nonce gives revocationUnavailable")
    func replayedAnswerWithOtherNonceIsRejected() throws {
        let replay = try OCSPStubServer(.respond(status: 200, contentType: "application/ocsp-response", body: []))
        defer { replay.stop() }
        let pki = try OCSPTestPKI(.init(leafResponder: .stub(replay)))
        defer { pki.stop() }
        replay.setBehavior(
            .respond(
                status: 200, contentType: "application/ocsp-response",
                body: try pki.recordedLeafAnswer(forOtherLeaf: false, nonce: true)))
        let error = try verify(pki)
        expectUnavailable(error, role: "leaf", url: replay.url, containing: "nonce")
    }

    /// Input: a genuine, fresh answer about this leaf without a nonce (a pre-signed answer, as
    /// CDN-served responders give). Expected: verified.
    @Test("an answer without a nonce is accepted")
    func answerWithoutNonceIsAccepted() throws {
        let replay = try OCSPStubServer(.respond(status: 200, contentType: "application/ocsp-response", body: []))
        defer { replay.stop() }
        let pki = try OCSPTestPKI(.init(leafResponder: .stub(replay)))
        defer { pki.stop() }
        replay.setBehavior(
            .respond(
                status: 200, contentType: "application/ocsp-response",
                body: try pki.recordedLeafAnswer(forOtherLeaf: false, nonce: false)))
        #expect(try verify(pki) == nil)
    }

    /// Input: the leaf's responder answers HTTP 503. Expected: `revocationUnavailable` with
    /// OpenSSL's HTTP error as the underlying reason.
    @Test("an HTTP error gives revocationUnavailable")
    func httpErrorIsUnavailable() throws {
        let stub = try OCSPStubServer(.respond(status: 503, contentType: "text/plain", body: Array("busy".utf8)))
        defer { stub.stop() }
        let pki = try OCSPTestPKI(.init(leafResponder: .stub(stub)))
        defer { pki.stop() }
        let error = try verify(pki)
        expectUnavailable(error, role: "leaf", url: stub.url)
        #expect(error?.underlying?.contains("503") == true, "\(String(describing: error?.underlying))")
    }

    /// Input: the intermediate's "responder" accepts connections and never answers; timeout 1 s.
    /// Expected: `revocationUnavailable` for the intermediate, within a few seconds.
    @Test("a silent responder times out with revocationUnavailable")
    func silentResponderTimesOut() throws {
        let stub = try OCSPStubServer(.silent)
        defer { stub.stop() }
        let pki = try OCSPTestPKI(.init(intermediateResponder: .stub(stub)))
        defer { pki.stop() }
        let start = Date()
        let error = try verify(pki, timeout: .seconds(1))
        #expect(Date().timeIntervalSince(start) < 4)
        expectUnavailable(error, role: "intermediate", url: stub.url)
    }

    /// Input: the leaf's serial is not in its responder's index, which then answers `unknown`.
    /// Expected: `revocationUnavailable`.
    @Test("an unknown status gives revocationUnavailable")
    func unknownStatusIsUnavailable() throws {
        let pki = try OCSPTestPKI(.init(leafKnown: false))
        defer { pki.stop() }
        expectUnavailable(try verify(pki), role: "leaf", url: pki.leafResponderURL, containing: "status unknown")
    }

    /// Input: a leaf without Authority Information Access. Expected: `revocationUnavailable`
    /// saying the leaf has no OCSP URL.
    @Test("a certificate without an OCSP URL gives revocationUnavailable")
    func missingResponderURLIsUnavailable() throws {
        let pki = try OCSPTestPKI(.init(leafResponder: .none))
        defer { pki.stop() }
        expectUnavailable(try verify(pki), role: "leaf", url: nil, containing: "no OCSP URL")
    }

    /// Input: one verifier checks a token, then both responders stop, then it checks again.
    /// Expected: both verified: the second check uses the cached good answers and needs no network.
    @Test("a second check within the cache lifetime needs no responder")
    func warmCacheNeedsNoResponder() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let verifier = try pki.verifier()
        let token = try pki.token()
        #expect(verifier.verifyAndDecodeTransaction(token).isVerified)
        pki.stopResponders()
        let second = verifier.verifyAndDecodeTransaction(token)
        #expect(second.isVerified, "\(String(describing: second.error))")
    }
}
