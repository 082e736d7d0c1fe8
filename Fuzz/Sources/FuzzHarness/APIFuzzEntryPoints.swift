import AppStoreServerAPI
import Foundation
import JWSSigning
import JWSVerifyTesting

@testable import JWSVerify

/// The fuzz entry point of the App Store Server API's response path (issue #39): the bytes are an answer (status,
/// headers, body) that an in-memory transport gives the verifying client for one of its calls, every page alike.
///
/// Shared with `Tests/AppStoreServerAPITests` by a symbolic link, where ``APIResponseFuzzTests`` runs seed inputs
/// and every file of `Fuzz/regressions/api-responses/` through it.
public enum APIFuzzEntryPoints {
    /// The calls an input chooses from (its first byte).
    enum Call: UInt8, CaseIterable {
        case transactionInfo, history, statuses, refunds, notifications, order, appTransaction
    }

    /// Splits `bytes` into the call (byte 0), the status (byte 1: 200, 429, 500, 404, 302, 201 ...) and the answer:
    /// header lines `Name: value` up to an empty line, then the body.
    static func answer(_ bytes: [UInt8]) -> (call: Call, response: APIResponse) {
        let call = Call(rawValue: (bytes.first ?? 0) % UInt8(Call.allCases.count)) ?? .transactionInfo
        let statuses = [200, 200, 200, 429, 500, 503, 404, 400, 401, 302, 201, 204]
        let status = statuses[Int(bytes.dropFirst().first ?? 0) % statuses.count]
        let rest = Array(bytes.dropFirst(2))
        var headers: [String: String] = [:]
        var body = rest
        if let end = rest.indices.first(where: { rest[$0...].starts(with: [10, 10]) }) {
            for line in rest[..<end].split(separator: 10) {
                let text = String(decoding: line, as: UTF8.self)
                guard let colon = text.firstIndex(of: ":") else { continue }
                headers[String(text[..<colon])] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            body = Array(rest[(end + 2)...])
        }
        return (call, APIResponse(status: status, headers: headers, body: Data(body)))
    }

    /// An in-memory transport: every request gets the same answer, and is counted.
    final class FixedTransport: APITransport, @unchecked Sendable {
        // @unchecked Sendable: `requests` is only touched under `lock`.
        let response: APIResponse
        private let lock = NSLock()
        private var requests = 0
        init(_ response: APIResponse) { self.response = response }
        var count: Int { lock.withLock { requests } }
        func send(_ request: APIRequest) async throws -> APIResponse {
            lock.withLock { requests += 1 }
            guard response.body.count <= request.maximumResponseBytes else {
                throw APIError(kind: .responseTooLarge, message: "the response body is longer than the limit")
            }
            return response
        }
    }

    static let signingKey: ES256SigningKey = {
        guard let key = try? ES256SigningKey(pemRepresentation: FuzzVectors.leafKey.pkcs8PEM()) else {
            fatalError("the generated leaf key is not a signing key")
        }
        return key
    }()

    static let verifier: SignedDataVerifier = {
        let now = Date(timeIntervalSince1970: 1_773_576_000)
        guard
            let verifier = try? SignedDataVerifier(
                rootCertificates: [FuzzVectors.rootDER], bundleId: "com.example.jwsverify", appAppleId: 1234,
                environment: .sandbox, clock: { now })
        else { fatalError("the fuzzed verifier cannot be configured") }
        return verifier
    }()

    /// The pages one call may fetch here (a server that always says more follows ends there).
    static let limits = PagingLimits(maximumPages: 3, maximumItems: 1_000, maximumConsecutiveEmptyPages: 2)

    /// libFuzzer's entry: ``run(_:)`` on a thread outside Swift concurrency's pool, waited for.
    public static func apiResponses(_ bytes: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await run(bytes)
            done.signal()
        }
        done.wait()
    }

    /// The call the input chooses, answered with its answer on every request.
    ///
    /// Oracles: the call ends (a paged one within ``limits``: no more requests than pages allowed); a thrown error
    /// is an ``APIError`` of a documented kind whose messages hold no control character; a 2xx answer that decodes
    /// keeps every signed member as an item (`APIResponseKind.signedItems`), none dropped; a verified item carries
    /// a payload, and one whose chain reaches the fuzzed root only.
    public static func run(_ bytes: [UInt8]) async {
        let (call, response) = answer(bytes)
        let transport = FixedTransport(response)
        guard let baseURL = URL(string: "https://api.storekit-sandbox.apple.com") else { return }
        let client = AppStoreServerAPIClient(
            signingKey: signingKey, keyId: "KEY1", issuerId: "issuer", bundleId: "com.example.jwsverify",
            baseURL: baseURL, transport: transport)
        let verifying = client.verifying(with: verifier, pagingLimits: limits)
        do {
            switch call {
            case .transactionInfo: check(try await verifying.getTransactionInfo(transactionId: "1000"), response)
            case .statuses: check(try await verifying.getAllSubscriptionStatuses(anyTransactionId: "1000"), response)
            case .order: check(try await verifying.lookUpOrderId(orderId: "MK5TTTVWJH"), response)
            case .appTransaction: check(try await verifying.getAppTransactionInfo(anyTransactionId: "1000"), response)
            case .history:
                for try await page in verifying.transactionHistory(anyTransactionId: "1000") { check(page, response) }
            case .refunds:
                for try await page in verifying.refundHistory(anyTransactionId: "1000") { check(page, response) }
            case .notifications:
                let request = NotificationHistoryRequest(
                    startDate: Date(timeIntervalSince1970: 1_700_000_000),
                    endDate: Date(timeIntervalSince1970: 1_700_086_400))
                for try await page in verifying.notificationHistory(notificationHistoryRequest: request) {
                    check(page, response)
                }
            }
        } catch let error as APIError {
            require(APIError.Kind.all.contains(error.kind), "undocumented kind \(error.kind)")
            for text in [error.message, error.errorMessage ?? ""] {
                require(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control in \(text)")
            }
        } catch {
            require(false, "not an APIError: \(error)")
        }
        require(transport.count <= limits.maximumPages, "\(transport.count) requests for at most 3 pages")
    }

    /// The properties of one verified page.
    static func check<Response>(_ page: VerifiedResponse<Response>, _ response: APIResponse) {
        require((200..<300).contains(response.status), "a \(response.status) answer delivered a page")
        if case .object(let object)? = try? JSONParser.parseValue(Array(response.body)) {
            require(page.items.count == page.kind.signedItems(in: object).count, "an item was dropped")
        }
        for item in page.items where item.isVerified {
            guard case .verified(let verified) = item.result else { return require(false, "verified, not Verified") }
            let root = verified.chain.last?.sha256Fingerprint
            require(root == CertificateInfo(derOrPEM: FuzzVectors.rootDER)?.sha256Fingerprint, "verified off the root")
        }
    }

    /// Stops the process when a property is broken (libFuzzer saves the input).
    static func require(_ condition: Bool, _ property: @autoclosure () -> String) {
        guard !condition else { return }
        FileHandle.standardError.write(Data("api-responses: property broken: \(property())\n".utf8))
        preconditionFailure("property broken: \(property())")
    }
}
