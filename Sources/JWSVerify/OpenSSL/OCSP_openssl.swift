internal import CJWSOpenSSL
import Foundation

/// An OCSP request for one certificate (RFC 6960 §4.1), owned: the `OCSPRequest` and the `CertID`
/// it asks about, freed when the last reference goes.
///
/// `@unchecked Sendable`: never mutated after creation; sending it and evaluating answers only
/// read it (OpenSSL encodes and compares without writing to it).
final class OCSPRequest: @unchecked Sendable {
    private let request: OpaquePointer
    /// DER of the `CertID` (SHA-1 issuer name hash, issuer key hash, serial): the revocation cache key.
    let certificateID: [UInt8]

    private init(takingOwnershipOf request: OpaquePointer, certificateID: [UInt8]) {
        self.request = request
        self.certificateID = certificateID
    }

    deinit {
        cjws_ocsp_request_free(request)
    }

    /// Builds a request for `subject`, issued by `issuer`, with a fresh random nonce unless
    /// `nonce` is false.
    static func make(
        for subject: Certificate, issuer: Certificate, nonce: Bool = true
    ) -> Result<
        OCSPRequest, OCSPFailure
    > {
        cjws_clear_errors()
        guard let request = cjws_ocsp_request_new(subject.pointer, issuer.pointer, nonce ? 1 : 0) else {
            return .failure(
                OCSPFailure(
                    .internalError, "OpenSSL could not build the OCSP request", underlying: drainOpenSSLErrors()))
        }
        let length = cjws_ocsp_request_cert_id(request, nil, 0)
        var id = [UInt8](repeating: 0, count: max(0, Int(length)))
        let written = id.withUnsafeMutableBytes { cjws_ocsp_request_cert_id(request, $0.baseAddress, $0.count) }
        guard length > 0, written == length else {
            let underlying = drainOpenSSLErrors()
            cjws_ocsp_request_free(request)
            return .failure(
                OCSPFailure(.internalError, "OpenSSL could not encode the OCSP CertID", underlying: underlying))
        }
        return .success(OCSPRequest(takingOwnershipOf: request, certificateID: id))
    }

    /// The first OCSP responder URL in the certificate's Authority Information Access, or nil.
    static func responderURL(of certificate: Certificate) -> String? {
        let url = readCString(capacity: 2048) { cjws_ocsp_responder_url(certificate.pointer, $0, $1) }
        cjws_clear_errors()
        return url
    }

    /// POSTs the request to `url` through OpenSSL's HTTP client and returns the response body.
    ///
    /// - Parameters:
    ///   - url: An `http://` URL (OCSP is plain HTTP; the answer is signed).
    ///   - timeoutSeconds: Bound for connecting, sending and receiving together (at least 1).
    func send(to url: String, timeoutSeconds: Int) -> Result<[UInt8], OCSPFailure> {
        cjws_clear_errors()
        var body: UnsafeMutablePointer<UInt8>?
        var length = 0
        var status = CJWS_OCSP_INTERNAL_ERROR
        _ = cjws_ocsp_transfer(request, url, Int32(clamping: max(1, timeoutSeconds)), &body, &length, &status)
        defer { if let body { cjws_free(body) } }
        switch status {
        case CJWS_OCSP_OK:
            guard let body, length > 0 else { break }
            cjws_clear_errors()
            return .success(Array(UnsafeBufferPointer(start: body, count: length)))
        case CJWS_OCSP_UNSUPPORTED_URL:
            return .failure(
                OCSPFailure(
                    .unsupportedURL, "the responder URL is not a plain http:// URL", underlying: drainOpenSSLErrors()))
        case CJWS_OCSP_TRANSFER_FAILED:
            return .failure(
                OCSPFailure(
                    .transferFailed,
                    "no OCSP answer over HTTP (no connection or no reply within \(timeoutSeconds) s, an HTTP error"
                        + " status, or a body that is not application/ocsp-response)",
                    underlying: drainOpenSSLErrors()))
        default:
            break
        }
        return .failure(
            OCSPFailure(.internalError, "OpenSSL could not send the OCSP request", underlying: drainOpenSSLErrors()))
    }

    /// Checks a DER `OCSPResponse` against this request: successful, a basic response, signed by
    /// `issuer` or by its delegated responder (OCSPSigning) at `time`, nonce echoed or absent, and a
    /// status for this request's `CertID`. Freshness is the caller's (``OCSPAnswer/staleness(at:clockSkew:maximumAge:)``).
    ///
    /// - Parameter time: Seconds since 1970: OpenSSL checks the responder certificate's validity then.
    func evaluate(_ response: [UInt8], issuer: Certificate, at time: Int64) -> Result<OCSPAnswer, OCSPFailure> {
        cjws_clear_errors()
        var answer = cjws_ocsp_answer()
        var status = CJWS_OCSP_INTERNAL_ERROR
        _ = response.withUnsafeBytes {
            cjws_ocsp_evaluate(request, issuer.pointer, $0.baseAddress, $0.count, time, &answer, &status)
        }
        func failure(_ kind: OCSPFailure.Kind, _ message: String) -> Result<OCSPAnswer, OCSPFailure> {
            .failure(OCSPFailure(kind, message, underlying: drainOpenSSLErrors()))
        }
        switch status {
        case CJWS_OCSP_OK:
            break
        case CJWS_OCSP_MALFORMED_RESPONSE:
            return failure(.malformedResponse, "the answer is not a DER OCSPResponse")
        case CJWS_OCSP_UNSUCCESSFUL_RESPONSE:
            let name = String(cString: cjws_ocsp_response_status_string(answer.response_status))
            return failure(
                .unsuccessfulResponse, "the responder answered \(name) (responseStatus \(answer.response_status))")
        case CJWS_OCSP_NOT_BASIC:
            return failure(.malformedResponse, "the answer is not a BasicOCSPResponse")
        case CJWS_OCSP_BAD_SIGNATURE:
            return failure(
                .badSignature,
                "the answer is not signed by the issuer nor by a responder certificate that the issuer signed for OCSPSigning"
            )
        case CJWS_OCSP_NONCE_MISMATCH:
            return failure(.nonceMismatch, "the answer's nonce is not the request's (a replayed answer)")
        case CJWS_OCSP_NO_MATCHING_STATUS:
            return failure(
                .noMatchingStatus,
                "the answer has no status for the requested certificate id (issuer hashes and serial)")
        case CJWS_OCSP_BAD_TIME:
            return failure(.malformedResponse, "the answer's thisUpdate, nextUpdate or revocationTime cannot be read")
        default:
            return failure(.internalError, "OpenSSL could not evaluate the answer")
        }
        cjws_clear_errors()
        let certificateStatus: OCSPAnswer.Status
        switch answer.cert_status {
        case CJWS_OCSP_CERT_GOOD:
            certificateStatus = .good
        case CJWS_OCSP_CERT_REVOKED:
            let reason =
                answer.revocation_reason >= 0 ? String(cString: cjws_ocsp_reason_string(answer.revocation_reason)) : nil
            certificateStatus = .revoked(at: answer.revocation_time, reason: reason)
        default:
            certificateStatus = .unknown
        }
        return .success(
            OCSPAnswer(
                status: certificateStatus, thisUpdate: answer.this_update,
                nextUpdate: answer.has_next_update == 1 ? answer.next_update : nil,
                nonceEchoed: answer.nonce_check == 1))
    }
}
