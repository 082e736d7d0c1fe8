import Foundation
import Testing

@testable import JWSVerify

/// What the payload kind table and the generated field kinds tell readers of a payload.
@Suite("Payload kind table and annotations")
struct PayloadAnnotationsTests {
    /// Input: a notification with `data` naming Sandbox, an unknown status, and a signed date. Expected: the
    /// generated field kinds name the enumerations and find the timestamp; the environment is the claims rule's.
    @Test("generated field kinds annotate a notification; its environment is the claims rule's")
    func notificationAnnotations() throws {
        let json = #"{"notificationType":"SUBSCRIBED","signedDate":1,"data":{"environment":"Sandbox","status":9}}"#
        let payload = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(json.utf8))
        let decoded = DecodedPayload.notification(DecodedNotification(notification: payload))
        let annotations = decoded.annotations
        #expect(annotations.enumerationNames == ["notificationType": "subscribed", "data.environment": "sandbox"])
        #expect(annotations.timestampPaths == ["signedDate"])
        #expect(decoded.environment == .sandbox)
    }

    /// Input: an app transaction with `receiptType`. Expected: its environment is the receipt type.
    @Test("an app transaction's environment is its receiptType")
    func appTransactionEnvironment() throws {
        let json = #"{"receiptType":"Production","bundleId":"b"}"#
        let payload = try JSONDecoder().decode(AppTransaction.self, from: Data(json.utf8))
        #expect(DecodedPayload.appTransaction(payload).environment == .production)
    }

    /// Input: each kind. Expected: its identifier keys are top-level members its model knows (or, for a
    /// notification, members of its nested transaction or renewal info).
    @Test("every identifier key of the table is a member of its kind's payloads")
    func identifierKeysAreMembers() {
        for kind in PayloadKind.allCases {
            #expect(!kind.identifierKeys.isEmpty, "\(kind)")
        }
        #expect(PayloadKind.transaction.identifierKeys == ["transactionId", "originalTransactionId", "productId"])
        #expect(PayloadKind.notification.identifierKeys.first == "notificationUUID")
    }
}
