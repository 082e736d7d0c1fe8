import CJWSOpenSSL
import Foundation
import Testing

@testable import JWSVerify

#if canImport(Glibc)
    import Glibc
#endif

/// `OCSPRequest` and the C functions under it (`ocsp.c`), against real `openssl ocsp` responders and
/// against DER answers that no responder would send.
@Suite(
    "OCSP requests and answers", .enabled(if: OCSPOpenSSLTool.isAvailable, "needs the openssl command-line tool"),
    .timeLimit(.minutes(1)))
struct OCSPRequestTests {
    /// The leaf's request and the intermediate (the leaf's issuer) of a running PKI.
    static func leafRequest(_ pki: OCSPTestPKI, nonce: Bool = true) throws -> (OCSPRequest, Certificate) {
        let chain = pki.chain
        try #require(chain.count == 3)
        return (try OCSPRequest.make(for: chain[0], issuer: chain[1], nonce: nonce).get(), chain[1])
    }

    /// A DER OCSPResponse with `status` and no responseBytes (RFC 6960 §4.2.1).
    static func bareResponse(status: UInt8) -> [UInt8] { [0x30, 0x03, 0x0A, 0x01, status] }

    /// Input: URLs that are not plain `http://` (https, another scheme, an unterminated IPv6 host).
    /// Expected: `unsupportedURL` before any connection is tried.
    @Test("URLs that are not plain http are refused")
    func unsupportedURLs() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, _) = try Self.leafRequest(pki)
        for url in ["https://127.0.0.1:1/ocsp", "ftp://127.0.0.1/ocsp", "http://[::1/ocsp"] {
            guard case .failure(let failure) = request.send(to: url, timeoutSeconds: 2) else {
                Issue.record("\(url) was sent")
                continue
            }
            #expect(failure.kind == .unsupportedURL, "\(url)")
        }
    }

    /// Input: the leaf's responder URL with a path and a query string added. Expected: the request is
    /// POSTed there, and the real responder's answer evaluates to `good` with the nonce echoed.
    @Test("a responder URL with a query string is used as it is")
    func urlWithQuery() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, issuer) = try Self.leafRequest(pki)
        let url = try #require(pki.leafResponderURL) + "/ocsp?probe=1"
        let body = try request.send(to: url, timeoutSeconds: 3).get()
        let answer = try request.evaluate(body, issuer: issuer, at: Int64(Date().timeIntervalSince1970)).get()
        #expect(answer.status == .good)
        #expect(answer.nonceEchoed)
    }

    /// Input: OCSPResponses whose responseStatus is not successful (malformedRequest, internalError,
    /// tryLater, sigRequired, unauthorized). Expected: `unsuccessfulResponse`, the message naming
    /// OpenSSL's name of the status and its number.
    @Test("unsuccessful response statuses are reported with their names")
    func unsuccessfulStatuses() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, issuer) = try Self.leafRequest(pki)
        let names: [UInt8: String] = [
            1: "malformedrequest", 2: "internalerror", 3: "trylater", 5: "sigrequired", 6: "unauthorized",
        ]
        for (status, name) in names {
            guard
                case .failure(let failure) = request.evaluate(Self.bareResponse(status: status), issuer: issuer, at: 0)
            else {
                Issue.record("status \(status) was accepted")
                continue
            }
            #expect(failure.kind == .unsuccessfulResponse, "status \(status)")
            #expect(failure.message.lowercased().contains(name), "\(failure.message)")
            #expect(failure.message.contains("(responseStatus \(status))"), "\(failure.message)")
        }
    }

    /// Input: a successful OCSPResponse without responseBytes, and one whose responseBytes are of a
    /// type other than id-pkix-ocsp-basic. Expected: `malformedResponse`, "not a BasicOCSPResponse".
    @Test("a successful answer that is not a BasicOCSPResponse is malformed")
    func notBasic() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, issuer) = try Self.leafRequest(pki)
        // responseBytes [0] { SEQUENCE { OID 1.3.6.1.5.5.7.48.1.2 (id-pkix-ocsp-nonce), OCTET STRING {} } }
        let otherType: [UInt8] = [
            0x30, 0x14, 0x0A, 0x01, 0x00, 0xA0, 0x0F, 0x30, 0x0D, 0x06, 0x09, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30,
            0x01, 0x02, 0x04, 0x00,
        ]
        for response in [Self.bareResponse(status: 0), otherType] {
            guard case .failure(let failure) = request.evaluate(response, issuer: issuer, at: 0) else {
                Issue.record("\(response) was accepted")
                continue
            }
            #expect(failure.kind == .malformedResponse)
            #expect(failure.message.contains("not a BasicOCSPResponse"), "\(failure.message)")
        }
    }

    /// Input: no bytes, bytes that are not DER, and a real responder's answer with one byte appended
    /// (and the same answer intact). Expected: the first three are `malformedResponse` ("not a DER
    /// OCSPResponse"); the intact answer is `good`.
    @Test("empty, non-DER and trailing-byte answers are malformed")
    func malformed() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, issuer) = try Self.leafRequest(pki, nonce: false)
        let real = try request.send(to: try #require(pki.leafResponderURL), timeoutSeconds: 3).get()
        let now = Int64(Date().timeIntervalSince1970)
        #expect(try request.evaluate(real, issuer: issuer, at: now).get().status == .good)
        for response in [[], Array("HTTP/1.0 200 OK".utf8), real + [0x00]] {
            guard case .failure(let failure) = request.evaluate(response, issuer: issuer, at: now) else {
                Issue.record("\(response.count) bytes were accepted")
                continue
            }
            #expect(failure.kind == .malformedResponse)
            #expect(failure.message.contains("not a DER OCSPResponse"), "\(failure.message)")
        }
    }

    /// Input: a responder that answers 200 with the OCSP content type and an empty body, and one that
    /// answers HTTP 500. Expected: `transferFailed` for both (no answer to evaluate), after one request
    /// each.
    @Test("an empty body or an HTTP error is a failed transfer")
    func emptyBody() throws {
        let stub = try OCSPStubServer(.respond(status: 200, contentType: "application/ocsp-response", body: []))
        defer { stub.stop() }
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, _) = try Self.leafRequest(pki)
        guard case .failure(let empty) = request.send(to: stub.url, timeoutSeconds: 3) else {
            Issue.record("an empty body was an answer")
            return
        }
        #expect(empty.kind == .transferFailed)
        stub.setBehavior(.respond(status: 500, contentType: "text/plain", body: Array("no".utf8)))
        guard case .failure(let error) = request.send(to: stub.url, timeoutSeconds: 3) else {
            Issue.record("an HTTP error was an answer")
            return
        }
        #expect(error.kind == .transferFailed)
        #expect(stub.requestCount == 2)
    }

    /// Input: the C request functions given NULL, too small a buffer, or no buffer. Expected: NULL or
    /// -1 for NULL and too small; with no buffer, the CertID's length, which is the length of the
    /// CertID the Swift request keeps; with room, the same bytes.
    @Test("the C request functions refuse NULL and short buffers")
    func requestEdges() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let leaf = try #require(pki.leafDER.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) })
        let issuer = try #require(pki.intermediateDER.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) })
        defer {
            cjws_x509_free(leaf)
            cjws_x509_free(issuer)
        }
        #expect(cjws_ocsp_request_new(nil, issuer, 1) == nil)
        #expect(cjws_ocsp_request_new(leaf, nil, 1) == nil)
        #expect(cjws_ocsp_request_cert_id(nil, nil, 0) == -1)
        cjws_ocsp_request_free(nil)  // a no-op, as free(NULL)
        let request = try #require(cjws_ocsp_request_new(leaf, issuer, 0))
        defer { cjws_ocsp_request_free(request) }
        let length = cjws_ocsp_request_cert_id(request, nil, 0)
        let (swiftRequest, _) = try Self.leafRequest(pki)
        #expect(Int(length) == swiftRequest.certificateID.count)
        var buffer = [UInt8](repeating: 0, count: Int(length))
        #expect(
            buffer.withUnsafeMutableBytes { cjws_ocsp_request_cert_id(request, $0.baseAddress, $0.count - 1) } == -1)
        #expect(
            buffer.withUnsafeMutableBytes { cjws_ocsp_request_cert_id(request, $0.baseAddress, $0.count) } == length)
        #expect(buffer == swiftRequest.certificateID)

        var answer = cjws_ocsp_answer()
        answer.response_status = 7
        answer.revocation_reason = 7
        var status = CJWS_OCSP_OK
        let done = Self.bareResponse(status: 0).withUnsafeBytes {
            cjws_ocsp_evaluate(nil, issuer, $0.baseAddress, $0.count, 0, &answer, &status)
        }
        #expect(done == 0 && status == CJWS_OCSP_INTERNAL_ERROR)
        #expect(answer.response_status == -1 && answer.revocation_reason == -1)
        #expect(answer.cert_status == CJWS_OCSP_CERT_UNKNOWN)

        var body: UnsafeMutablePointer<UInt8>?
        var bodyLength = 1
        var reason = CJWS_OCSP_OK
        #expect(cjws_ocsp_transfer(nil, "http://127.0.0.1/", 1, &body, &bodyLength, &reason) == 0)
        #expect(reason == CJWS_OCSP_INTERNAL_ERROR)
        reason = CJWS_OCSP_OK
        #expect(cjws_ocsp_transfer(request, "http://127.0.0.1/", 0, &body, &bodyLength, &reason) == 0)
        #expect(reason == CJWS_OCSP_INTERNAL_ERROR)
        #expect(body == nil && bodyLength == 0)
    }

    /// Input: the leaf (whose AIA names its responder) with buffers of no room, too little room and
    /// enough room, NULL, and the root (no AIA). Expected: -1, -2 and the URL, -1, -1; the Swift
    /// accessor gives the URL for the leaf and nil for the root.
    @Test("the responder URL is copied only into a buffer that holds it")
    func responderURL() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let expected = try #require(pki.leafResponderURL)
        let leaf = try #require(pki.leafDER.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) })
        let root = try #require(pki.rootDER.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) })
        defer {
            cjws_x509_free(leaf)
            cjws_x509_free(root)
        }
        var buffer = [CChar](repeating: 0, count: 256)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_ocsp_responder_url(leaf, $0.baseAddress, 0) } == -1)
        #expect(
            buffer.withUnsafeMutableBufferPointer { cjws_ocsp_responder_url(leaf, $0.baseAddress, expected.utf8.count) }
                == -2)
        let length = buffer.withUnsafeMutableBufferPointer { cjws_ocsp_responder_url(leaf, $0.baseAddress, $0.count) }
        #expect(Int(length) == expected.utf8.count)
        #expect(cText(buffer) == expected)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_ocsp_responder_url(nil, $0.baseAddress, $0.count) } == -1)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_ocsp_responder_url(root, $0.baseAddress, $0.count) } == -1)
        let chain = pki.chain
        #expect(OCSPRequest.responderURL(of: chain[0]) == expected)
        #expect(OCSPRequest.responderURL(of: chain[2]) == nil)
    }

    /// Input: OpenSSL's error queue holding the errors of a failed certificate parse, drained with no
    /// room, with room for less than one line, and with room. Expected: 0 bytes for the first two
    /// (each also empties the queue), the lines "; "-separated for the last.
    @Test("the one error drain empties the queue and drops what does not fit")
    func errorText() {
        func fail() {
            let garbage: [UInt8] = [0x30, 0x03, 0x02, 0x01]
            #expect(garbage.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) } == nil)
        }
        var buffer = [CChar](repeating: 0x41, count: 2048)
        fail()
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, 0) } == 0)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) } == 0)
        fail()
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, 8) } == 0)
        #expect(buffer[0] == 0)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) } == 0)
        fail()
        let length = buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) }
        #expect(length > 0)
        let text = cText(buffer)
        #expect(text.utf8.count == length)
        #expect(text.contains("error:"), "\(text)")
    }

    /// Input: a request sent to the real responder from a thread that already blocks SIGPIPE.
    /// Expected: the answer arrives, and the thread still blocks SIGPIPE afterwards (the transfer
    /// leaves a mask it did not change alone).
    @Test("a thread that blocks SIGPIPE keeps blocking it after a transfer")
    func sigpipeAlreadyBlocked() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let (request, issuer) = try Self.leafRequest(pki)
        let url = try #require(pki.leafResponderURL)
        let outcome = ReadWriteLocked<(sent: Bool, stillBlocked: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var pipeOnly = sigset_t()
            var previous = sigset_t()
            sigemptyset(&pipeOnly)
            sigaddset(&pipeOnly, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
            let sent = (try? request.send(to: url, timeoutSeconds: 3).get()).map { body in
                (try? request.evaluate(body, issuer: issuer, at: Int64(Date().timeIntervalSince1970)).get())?.status
                    == .good
            }
            var after = sigset_t()
            pthread_sigmask(SIG_SETMASK, nil, &after)
            outcome.write { $0 = (sent == true, sigismember(&after, SIGPIPE) == 1) }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let result = try #require(outcome.read { $0 })
        #expect(result.sent)
        #expect(result.stillBlocked)
    }
}
