import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator itself, driven with plain URLSession requests: a request Apple would accept passes with no
/// violation on every endpoint, and each check it makes fires with Apple's status and error code. The client's
/// loopback tests rely on both: "no violation" means the request was Apple's shape.
@Suite("App Store Server API emulator")
struct APIEmulatorTests {
    /// One request: method, path with query, body and its content type.
    struct Request: Sendable, CustomTestStringConvertible {
        var method: String
        var target: String
        var body: String?
        var contentType: String? = "application/json"
        var testDescription: String { "\(method) \(target)" }

        init(_ method: String, _ target: String, body: String? = nil, contentType: String? = "application/json") {
            self.method = method
            self.target = target
            self.body = body
            self.contentType = body == nil ? nil : contentType
        }
    }

    static let uuid = "7e3fb20b-4cdb-47cc-936d-99d65f608138"

    /// Now, in milliseconds since 1970.
    static let nowMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)
    /// `"startDate":…,"endDate":…`: the day before now, inside Get Notification History's 180-day window.
    static let recent = #""startDate":\#(nowMilliseconds - 86_400_000),"endDate":\#(nowMilliseconds)"#

    /// A request Apple documents for each endpoint (v1 and v2 where both exist).
    static let goodRequests: [Request] = [
        Request("GET", "/inApps/v1/transactions/2000000001"),
        Request("GET", "/inApps/v1/history/2000000001"),
        Request(
            "GET",
            "/inApps/v2/history/2000000001?revision=abc&startDate=1698148800000&endDate=1698148900000"
                + "&productId=com.example.a&productId=com.example.b&productType=AUTO_RENEWABLE&productType=CONSUMABLE"
                + "&sort=ASCENDING&subscriptionGroupIdentifier=21&inAppOwnershipType=PURCHASED&revoked=false"),
        Request("GET", "/inApps/v1/subscriptions/2000000001?status=1&status=5"),
        Request("GET", "/inApps/v2/refund/lookup/2000000001?revision=abc"),
        Request("GET", "/inApps/v1/lookup/MK5TTTVWJH"),
        Request(
            "PUT", "/inApps/v1/transactions/consumption/2000000001",
            body: #"{"customerConsented":true,"consumptionStatus":1,"platform":1,"sampleContentProvided":false,"#
                + #""deliveryStatus":0,"appAccountToken":"","accountTenure":2,"playTime":3,"#
                + #""lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":4,"userStatus":1,"refundPreference":2}"#),
        Request(
            "PUT", "/inApps/v2/transactions/consumption/2000000001",
            body: #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"DELIVERED","#
                + #""consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#),
        Request(
            "PUT", "/inApps/v1/subscriptions/extend/2000000001",
            body: #"{"extendByDays":30,"extendReasonCode":1,"requestIdentifier":"support-1"}"#),
        Request(
            "POST", "/inApps/v1/subscriptions/extend/mass",
            body: #"{"extendByDays":7,"extendReasonCode":3,"requestIdentifier":"\#(uuid)","#
                + #""storefrontCountryCodes":["USA","FRA"],"productId":"com.example.monthly"}"#),
        Request("GET", "/inApps/v1/subscriptions/extend/mass/com.example.monthly/\(uuid)"),
        Request(
            "POST", "/inApps/v1/notifications/history?paginationToken=57715481-805a-4283-8499-1c19b5d6b20a",
            body: #"{\#(recent),"notificationType":"SUBSCRIBED","#
                + #""notificationSubtype":"INITIAL_BUY","onlyFailures":true}"#),
        Request(
            "POST", "/inApps/v1/notifications/history",
            body: #"{\#(recent),"transactionId":"2000000001"}"#),
        Request("POST", "/inApps/v1/notifications/test"),
        Request("GET", "/inApps/v1/notifications/test/\(uuid)_1698148800000"),
        Request("PUT", "/inApps/v1/transactions/2000000001/appAccountToken", body: #"{"appAccountToken":"\#(uuid)"}"#),
        Request("GET", "/inApps/v1/transactions/appTransactions/2000000001"),
        Request("POST", "/inApps/v1/transactions/2000000001/finish"),
        Request("PUT", "/inApps/v1/messaging/image/\(uuid)", body: "\u{89}PNG\r\n\u{1a}\n", contentType: "image/png"),
        Request("DELETE", "/inApps/v1/messaging/image/\(uuid)"),
        Request("GET", "/inApps/v1/messaging/image/list"),
        Request(
            "PUT", "/inApps/v1/messaging/message/\(uuid)",
            body: #"{"header":"Stay","body":"A better price","image":{"imageIdentifier":"\#(uuid)","altText":"A"}}"#),
        Request("DELETE", "/inApps/v1/messaging/message/\(uuid)"),
        Request("GET", "/inApps/v1/messaging/message/list"),
        Request(
            "PUT", "/inApps/v1/messaging/default/com.example.monthly/en-US", body: #"{"messageIdentifier":"\#(uuid)"}"#),
        Request("GET", "/inApps/v1/messaging/default/com.example.monthly/en-US"),
        Request("DELETE", "/inApps/v1/messaging/default/com.example.monthly/en-US"),
        Request("PUT", "/inApps/v1/messaging/realtime/url", body: #"{"realtimeURL":"https://example.com/realtime"}"#),
        Request("GET", "/inApps/v1/messaging/realtime/url"),
        Request("DELETE", "/inApps/v1/messaging/realtime/url"),
        Request("POST", "/inApps/v1/messaging/performanceTest", body: #"{"originalTransactionId":"2000000001"}"#),
        Request("GET", "/inApps/v1/messaging/performanceTest/result/\(uuid)"),
    ]

    /// Sends `request` with `bearer` (nil: no Authorization header) and returns the status and body.
    static func send(
        _ request: Request, to emulator: APIEmulatorProcess, bearer: String?
    ) async throws -> (status: Int, body: Data) {
        let url = try #require(URL(string: emulator.baseURL.absoluteString + request.target))
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        if let bearer { urlRequest.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body = request.body {
            urlRequest.httpBody =
                request.contentType == "image/png" ? Data(body.unicodeScalars.map { UInt8($0.value) }) : Data(body.utf8)
            if let contentType = request.contentType {
                urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        let (data, response) = try await URLSession.shared.data(for: urlRequest)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Each documented endpoint, called as Apple documents it with a good bearer token: the emulator records no
    /// violation, and the configured answer comes back.
    @Test("a request Apple would accept passes every check", arguments: goodRequests)
    func goodRequestPasses(request: Request) async throws {
        let credentials = try APICredentials()
        defer { credentials.removeFiles() }
        let path = String(request.target.prefix { $0 != "?" })
        let emulator = try await APIEmulatorProcess(
            credentials: credentials,
            routes: [.init(request.method, path, [.init(status: 200, json: .object(["ok": .bool(true)]))])])
        defer { emulator.stop() }
        let (status, body) = try await Self.send(request, to: emulator, bearer: credentials.bearerToken())
        #expect(try await emulator.violations() == [], "\(request.testDescription)")
        #expect(status == 200, "\(request.testDescription): \(String(decoding: body, as: UTF8.self))")
    }

    /// A check and the request that must fail it.
    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var request: Request
        var status: Int
        var errorCode: Int?
        var message: String
        /// How the bearer token is made, from good credentials; nil sends none.
        var bearer: (@Sendable (APICredentials) throws -> String?)
        var testDescription: String { name }
    }

    static let transaction = Request("GET", "/inApps/v1/transactions/2000000001")

    static func token(_ credentials: APICredentials) throws -> String? { try credentials.bearerToken() }

    static let failures: [Failure] = [
        Failure(name: "no Authorization header", request: transaction, status: 401, message: "No Authorization") {
            _ in nil
        },
        Failure(name: "an expired token", request: transaction, status: 401, message: "expired") {
            try $0.bearerToken(issuedAt: Date().addingTimeInterval(-1200), lifetime: 600)
        },
        Failure(
            name: "a token valid for more than 60 minutes", request: transaction, status: 401, message: "60 minutes"
        ) {
            try $0.bearerToken(lifetime: 3601)
        },
        Failure(name: "a token issued in the future", request: transaction, status: 401, message: "future") {
            try $0.bearerToken(issuedAt: Date().addingTimeInterval(600))
        },
        Failure(
            name: "a token that expires more than 60 minutes from now", request: transaction, status: 401,
            message: "60 minutes from now"
        ) {
            // iat 55 s ahead (within the minute of skew allowed for iat), exp 60 minutes after it.
            try $0.bearerToken(issuedAt: Date().addingTimeInterval(55), lifetime: 3600)
        },
        Failure(name: "a wrong aud", request: transaction, status: 401, message: "aud") {
            try $0.bearerToken(claims: ["aud": .string("appstoreconnect-v2")])
        },
        Failure(name: "a wrong iss", request: transaction, status: 401, message: "iss") {
            try $0.bearerToken(claims: ["iss": .string("another-issuer")])
        },
        Failure(name: "a wrong bid", request: transaction, status: 401, message: "bid") {
            try $0.bearerToken(claims: ["bid": .string("com.example.other")])
        },
        Failure(name: "iat in milliseconds as a string", request: transaction, status: 401, message: "integers") {
            try $0.bearerToken(claims: ["iat": .string("1698148800")])
        },
        Failure(name: "a wrong kid", request: transaction, status: 401, message: "kid") {
            try $0.bearerToken(header: ["kid": .string("OTHERKEY01")])
        },
        Failure(name: "alg other than ES256", request: transaction, status: 401, message: "alg") {
            try $0.bearerToken(header: ["alg": .string("ES384")])
        },
        Failure(name: "no typ", request: transaction, status: 401, message: "typ") {
            try $0.bearerToken(header: ["typ": nil])
        },
        Failure(name: "a signature by another key", request: transaction, status: 401, message: "signature") {
            try $0.bearerToken(key: TestPrivateKey.generate(curve: .p256))
        },
        Failure(name: "a tampered token", request: transaction, status: 401, message: "signature") {
            // The claims of another good token under this token's signature.
            let parts = try $0.bearerToken().split(separator: ".")
            let other = try $0.bearerToken(lifetime: 299).split(separator: ".")
            return "\(parts[0]).\(other[1]).\(parts[2])"
        },
        Failure(name: "not a bearer token", request: transaction, status: 401, message: "compact JWS") { _ in "abc" },
        Failure(
            name: "an unknown query parameter", request: Request("GET", "/inApps/v2/history/2000000001?page=2"),
            status: 400, errorCode: 4_000_000, message: "Unknown query parameter", bearer: token),
        Failure(
            name: "a query parameter on an endpoint without any",
            request: Request("GET", "/inApps/v1/transactions/2000000001?revision=abc"), status: 400,
            errorCode: 4_000_000, message: "Unknown query parameter", bearer: token),
        Failure(
            name: "a bad sort", request: Request("GET", "/inApps/v2/history/2000000001?sort=asc"), status: 400,
            errorCode: 4_000_021, message: "sort", bearer: token),
        Failure(
            name: "a start date in seconds with a fraction",
            request: Request("GET", "/inApps/v2/history/2000000001?startDate=1698148800.5"), status: 400,
            errorCode: 4_000_015, message: "startDate", bearer: token),
        Failure(
            name: "a start date after the end date",
            request: Request("GET", "/inApps/v2/history/2000000001?startDate=20&endDate=10"), status: 400,
            errorCode: 4_000_013, message: "startDate", bearer: token),
        Failure(
            name: "a bad product type", request: Request("GET", "/inApps/v2/history/2000000001?productType=AUTO"),
            status: 400, errorCode: 4_000_022, message: "productType", bearer: token),
        Failure(
            name: "a repeated revision",
            request: Request("GET", "/inApps/v2/history/2000000001?revision=a&revision=b"), status: 400,
            errorCode: 4_000_005, message: "Repeated", bearer: token),
        Failure(
            name: "a bad revoked", request: Request("GET", "/inApps/v2/history/2000000001?revoked=yes"),
            status: 400, errorCode: 4_000_030, message: "revoked", bearer: token),
        Failure(
            name: "a bad status filter", request: Request("GET", "/inApps/v1/subscriptions/2000000001?status=6"),
            status: 400, errorCode: 4_000_031, message: "status", bearer: token),
        Failure(
            name: "a transaction id that is not a number", request: Request("GET", "/inApps/v1/transactions/abc"),
            status: 400, errorCode: 4_000_006, message: "transaction id", bearer: token),
        Failure(
            name: "an unknown path", request: Request("GET", "/inApps/v3/transactions/2000000001"), status: 404,
            message: "no endpoint", bearer: token),
        Failure(
            name: "a wrong method", request: Request("POST", "/inApps/v1/transactions/2000000001"), status: 405,
            errorCode: 4_000_000, message: "not allowed", bearer: token),
        Failure(
            name: "a JSON body without its Content-Type",
            request: Request(
                "PUT", "/inApps/v1/transactions/2000000001/appAccountToken", body: #"{"appAccountToken":"\#(uuid)"}"#,
                contentType: "text/plain"), status: 400, errorCode: 4_000_000, message: "Content-Type", bearer: token),
        Failure(
            name: "a body that is not JSON",
            request: Request("PUT", "/inApps/v1/transactions/2000000001/appAccountToken", body: "{"), status: 400,
            errorCode: 4_000_000, message: "not JSON", bearer: token),
        Failure(
            name: "an app account token that is not a UUID",
            request: Request(
                "PUT", "/inApps/v1/transactions/2000000001/appAccountToken", body: #"{"appAccountToken":"x"}"#),
            status: 400, errorCode: 4_000_183, message: "UUID", bearer: token),
        Failure(
            name: "consumption without the customer's consent",
            request: Request(
                "PUT", "/inApps/v2/transactions/consumption/2000000001",
                body: #"{"customerConsented":false,"sampleContentProvided":true,"deliveryStatus":"DELIVERED"}"#),
            status: 400, errorCode: 4_000_035, message: "customerConsented", bearer: token),
        Failure(
            name: "a consumption status out of range",
            request: Request(
                "PUT", "/inApps/v1/transactions/consumption/2000000001",
                body: #"{"customerConsented":true,"consumptionStatus":4,"platform":1,"sampleContentProvided":false,"#
                    + #""deliveryStatus":0,"appAccountToken":"","accountTenure":2,"playTime":3,"#
                    + #""lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":4,"userStatus":1}"#),
            status: 400, errorCode: 4_000_034, message: "consumptionStatus", bearer: token),
        Failure(
            name: "an unknown member in a body",
            request: Request(
                "PUT", "/inApps/v1/subscriptions/extend/2000000001",
                body: #"{"extendByDays":30,"extendReasonCode":1,"requestIdentifier":"r","days":1}"#),
            status: 400, errorCode: 4_000_000, message: "Unknown member", bearer: token),
        Failure(
            name: "an extension of more than 90 days",
            request: Request(
                "PUT", "/inApps/v1/subscriptions/extend/2000000001",
                body: #"{"extendByDays":91,"extendReasonCode":1,"requestIdentifier":"r"}"#),
            status: 400, errorCode: 4_000_009, message: "extendByDays", bearer: token),
        Failure(
            name: "a mass extension whose request identifier is not a UUID",
            request: Request(
                "POST", "/inApps/v1/subscriptions/extend/mass",
                body: #"{"extendByDays":7,"extendReasonCode":3,"requestIdentifier":"r","productId":"p"}"#),
            status: 400, errorCode: 4_000_011, message: "requestIdentifier", bearer: token),
        Failure(
            name: "notification history in seconds, not milliseconds, reversed",
            request: Request("POST", "/inApps/v1/notifications/history", body: #"{"startDate":20,"endDate":10}"#),
            status: 400, errorCode: 4_000_013, message: "startDate", bearer: token),
        Failure(
            name: "notification history with two filters",
            request: Request(
                "POST", "/inApps/v1/notifications/history",
                body: #"{\#(recent),"notificationType":"REFUND","transactionId":"1"}"#),
            status: 400, errorCode: 4_000_019, message: "filter", bearer: token),
        Failure(
            name: "an unknown notification type",
            request: Request(
                "POST", "/inApps/v1/notifications/history", body: #"{\#(recent),"notificationType":"X"}"#),
            status: 400, errorCode: 4_000_018, message: "notificationType", bearer: token),
        Failure(
            name: "a bad pagination token",
            request: Request(
                "POST", "/inApps/v1/notifications/history?paginationToken=a%20b", body: #"{\#(recent)}"#),
            status: 400, errorCode: 4_000_014, message: "paginationToken", bearer: token),
        Failure(
            name: "notification history that starts more than 180 days ago",
            request: Request(
                "POST", "/inApps/v1/notifications/history",
                body: #"{"startDate":\#(nowMilliseconds - 181 * 86_400_000),"endDate":\#(nowMilliseconds)}"#),
            status: 400, errorCode: 4_000_012, message: "180 days", bearer: token),
        Failure(
            name: "a body with a member named twice",
            request: Request(
                "PUT", "/inApps/v1/transactions/2000000001/appAccountToken",
                body: #"{"appAccountToken":"\#(uuid)","appAccountToken":"\#(uuid)"}"#),
            status: 400, errorCode: 4_000_000, message: "Duplicate member", bearer: token),
        Failure(
            name: "a body holding NaN",
            request: Request(
                "PUT", "/inApps/v1/subscriptions/extend/2000000001",
                body: #"{"extendByDays":NaN,"extendReasonCode":1,"requestIdentifier":"r"}"#),
            status: 400, errorCode: 4_000_000, message: "NaN", bearer: token),
        Failure(
            name: "a body holding Infinity",
            request: Request(
                "PUT", "/inApps/v1/subscriptions/extend/2000000001",
                body: #"{"extendByDays":-Infinity,"extendReasonCode":1,"requestIdentifier":"r"}"#),
            status: 400, errorCode: 4_000_000, message: "Infinity", bearer: token),
        Failure(
            name: "a body holding a number out of range",
            request: Request(
                "PUT", "/inApps/v1/subscriptions/extend/2000000001",
                body: #"{"extendByDays":1e400,"extendReasonCode":1,"requestIdentifier":"r"}"#),
            status: 400, errorCode: 4_000_000, message: "out of range", bearer: token),
        Failure(
            name: "a request body over 1 MiB",
            request: Request(
                "PUT", "/inApps/v1/messaging/image/\(uuid)",
                body: "\u{89}PNG\r\n\u{1a}\n" + String(repeating: "a", count: 1 << 20), contentType: "image/png"),
            status: 413, message: "larger than 1 MiB", bearer: token),
        Failure(
            name: "an image that is not PNG",
            request: Request("PUT", "/inApps/v1/messaging/image/\(uuid)", body: "GIF89a", contentType: "image/png"),
            status: 400, errorCode: 4_000_161, message: "PNG", bearer: token),
        Failure(
            name: "a message header longer than 66 characters",
            request: Request(
                "PUT", "/inApps/v1/messaging/message/\(uuid)",
                body: #"{"header":"\#(String(repeating: "h", count: 67))","body":"b"}"#),
            status: 400, errorCode: 4_000_162, message: "header", bearer: token),
        Failure(
            name: "an uppercase message identifier",
            request: Request("DELETE", "/inApps/v1/messaging/message/\(uuid.uppercased())"), status: 400,
            errorCode: 4_000_000, message: "lowercase", bearer: token),
        Failure(
            name: "a bad locale",
            request: Request("GET", "/inApps/v1/messaging/default/com.example.monthly/EN_us"), status: 400,
            errorCode: 4_000_164, message: "locale", bearer: token),
    ]

    /// Each check of the emulator, given a request that fails it and nothing else: the answer is Apple's (401
    /// with its plain text, or 400/404/405 with Apple's error body and code), and the log records the
    /// violation with the same status and code.
    @Test("a request Apple would refuse is refused and recorded", arguments: failures)
    func badRequestIsRefused(failure: Failure) async throws {
        let credentials = try APICredentials()
        defer { credentials.removeFiles() }
        let emulator = try await APIEmulatorProcess(credentials: credentials, routes: [])
        defer { emulator.stop() }
        let (status, body) = try await Self.send(failure.request, to: emulator, bearer: failure.bearer(credentials))
        #expect(status == failure.status, "\(failure.name)")
        let log = try await emulator.log()
        #expect(log.count == 1, "\(failure.name)")
        let violations = log.first?.violations ?? []
        #expect(violations.count == 1, "\(failure.name)")
        #expect(violations.first?.status == failure.status, "\(failure.name)")
        #expect(violations.first?.errorCode == failure.errorCode, "\(failure.name)")
        #expect(
            violations.first?.message.contains(failure.message) == true,
            "\(failure.name): \(violations.first?.message ?? "none")")
        if let code = failure.errorCode {
            let error = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            #expect(error?["errorCode"] as? Int == code, "\(failure.name)")
            #expect(error?["errorMessage"] is String, "\(failure.name)")
        } else if status == 401 {
            #expect(String(decoding: body, as: UTF8.self).hasPrefix("Unauthenticated"), "\(failure.name)")
        }
    }

    /// Routes serve their answers in order and repeat the last; a route with a query matches only that query;
    /// the status, headers, delay and a truncated body are served as configured.
    @Test("routes serve their answers in order, by exact query, as configured")
    func routesServeInOrder() async throws {
        let credentials = try APICredentials()
        defer { credentials.removeFiles() }
        let path = "/inApps/v2/history/2000000001"
        let emulator = try await APIEmulatorProcess(
            credentials: credentials,
            routes: [
                .init("GET", path, query: ["revision": ["r2"]], [.init(text: "second page")]),
                .init(
                    "GET", path,
                    [
                        .appleError(
                            status: 429, code: 4_290_000, message: "Rate limit exceeded.", headers: ["Retry-After": "2"]
                        ),
                        .init(status: 200, text: "0123456789", truncate: 4),
                    ]),
            ])
        defer { emulator.stop() }
        let bearer = try credentials.bearerToken()
        let first = try await Self.send(Request("GET", path), to: emulator, bearer: bearer)
        #expect(first.status == 429)
        #expect(String(decoding: first.body, as: UTF8.self).contains("4290000"))
        let second = try await Self.send(Request("GET", path), to: emulator, bearer: bearer)
        #expect(second.status == 200 && second.body == Data("0123".utf8))
        let third = try await Self.send(Request("GET", path), to: emulator, bearer: bearer)
        #expect(third.body == Data("0123".utf8))
        let paged = try await Self.send(Request("GET", path + "?revision=r2"), to: emulator, bearer: bearer)
        #expect(paged.body == Data("second page".utf8))
        #expect(try await emulator.violations() == [])
        #expect(try await emulator.log().count == 4)
    }

    /// Input: a PUT whose `Content-Length` is not a number, sent by Python's `http.client` (URLSession always
    /// writes a good one). Expected: 400, and the violation logged with that status.
    @Test("a Content-Length that is not a number is refused with 400")
    func malformedContentLength() async throws {
        let credentials = try APICredentials()
        defer { credentials.removeFiles() }
        let emulator = try await APIEmulatorProcess(credentials: credentials, routes: [])
        defer { emulator.stop() }
        let script = """
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
            connection.putrequest("PUT", "/inApps/v1/messaging/realtime/url")
            connection.putheader("Content-Length", "12abc")
            connection.endheaders()
            print(connection.getresponse().status)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(emulator.port)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "400")
        let violations = try await emulator.log().first?.violations ?? []
        #expect(violations.count == 1 && violations.first?.status == 400, "\(violations)")
        #expect(violations.first?.message.contains("Content-Length") == true, "\(violations)")
    }
}
