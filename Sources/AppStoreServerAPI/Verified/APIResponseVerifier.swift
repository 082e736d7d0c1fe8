import Foundation
import JWSVerify

/// Verifies every signed item of an App Store Server API response body, with no HTTP: the verifying client's
/// engine, usable on a body obtained any other way.
///
/// Which members are signed, and of which kind, comes from `APIResponseKind`. Each item is verified by the
/// `SignedDataVerifier` and returned with its own result; an item is never dropped, whatever its verdict. When
/// the response's envelope states the app (`APIResponseKind.envelopeStatesApp`), its `bundleId`, `appAppleId`
/// and `environment` are checked against the verifier's configuration and against each verified item
/// (`envelopeMismatch`).
public struct APIResponseVerifier: Sendable {
    /// The verifier of every item.
    public let verifier: SignedDataVerifier

    /// Creates a response verifier over `verifier`.
    public init(verifier: SignedDataVerifier) {
        self.verifier = verifier
    }

    /// Decodes `body` as `Response` and verifies each of its signed items.
    ///
    /// - Parameters:
    ///   - body: The response body (JSON).
    ///   - type: The response's model.
    ///   - kind: Which response it is (where its signed members are).
    ///   - page: The page number to record in each item.
    ///   - requestedTransactionId: The transaction id the call named, for a response that answers for that one
    ///     transaction (`APIResponseKind.itemIsRequestedTransaction`): its item must have that `transactionId`
    ///     (`envelopeMismatch` otherwise: a valid token of another transaction, a renewal of the one asked for
    ///     included).
    /// - Returns: the response with every item's verification.
    /// - Throws: ``APIError`` of kind `malformedResponse` when the body is not the response's JSON.
    public func verify<Response: Decodable & Sendable>(
        body: Data, as type: Response.Type, kind: APIResponseKind, page: Int = 0,
        requestedTransactionId: String? = nil
    ) async throws(APIError) -> VerifiedResponse<Response> {
        // The body is read once: the model and the signed members come from the same tree.
        let object = try AppStoreServerAPIClient.object(of: body, expected: String(describing: Response.self))
        let response = try AppStoreServerAPIClient.decode(Response.self, from: object)
        let envelope = kind.envelopeStatesApp ? Envelope(object) : nil
        let envelopeMismatch = envelope.flatMap { disagreement(of: $0) }
        let found = kind.signedItems(in: object)
        var results: [VerificationResult<DecodedPayload>] = []
        for item in found {
            results.append(await verifier.verifyAndDecode(signedData: item.token ?? "", as: item.kind))
        }
        // Items of one entry are checked against each other once all are decoded (transactions come before
        // renewal infos in the table's order).
        let pairing = kind.pairsEntryItems ? pairingDisagreements(found, results) : [:]
        var items: [VerifiedItem] = []
        for (index, (item, result)) in zip(found, results).enumerated() {
            let mismatch = result.payload.flatMap { payload in
                envelope.flatMap { disagreement(of: payload, with: $0) }
                    ?? disagreement(
                        of: payload, with: item,
                        requested: kind.itemIsRequestedTransaction ? requestedTransactionId : nil)
                    ?? pairing[index]
            }
            items.append(
                VerifiedItem(
                    page: page, index: index, path: item.path, kind: item.kind, token: item.token ?? "",
                    result: result, envelopeMismatch: mismatch))
        }
        return VerifiedResponse(
            response: response, kind: kind, page: page, items: items, envelopeMismatch: envelopeMismatch)
    }

    /// The app a response's envelope states.
    struct Envelope {
        var bundleId: String?
        var appAppleId: Int64?
        var environment: String?

        init(_ object: [String: JSONValue]) {
            if case .string(let value) = object["bundleId"] { bundleId = value }
            if case .integer(let value) = object["appAppleId"] { appAppleId = value }
            if case .string(let value) = object["environment"] { environment = value }
        }
    }

    /// How the envelope disagrees with the verifier's configuration, if it does. An envelope that states the app
    /// must name its bundle and environment (Apple's always do): one that leaves either out is a mismatch, so that
    /// removing a member never skips its check.
    func disagreement(of envelope: Envelope) -> VerificationError? {
        guard envelope.bundleId != nil, envelope.environment != nil else {
            return mismatch("the response states no \(envelope.bundleId == nil ? "bundleId" : "environment")")
        }
        if let expected = verifier.bundleId, let stated = envelope.bundleId, stated != expected {
            return mismatch("the response's bundleId \"\(stated)\" is not the verifier's \"\(expected)\"")
        }
        if let expected = verifier.appAppleId, let stated = envelope.appAppleId, stated != expected {
            return mismatch("the response's appAppleId \(stated) is not the verifier's \(expected)")
        }
        if let stated = envelope.environment, !verifier.environments.isEmpty,
            !verifier.environments.contains(where: { $0.rawValue == stated })
        {
            let expected = verifier.environments.map(\.rawValue).joined(separator: ", ")
            return mismatch("the response's environment \"\(stated)\" is not the verifier's (\(expected))")
        }
        return nil
    }

    /// How a verified item disagrees with its envelope, if it does.
    func disagreement(of payload: DecodedPayload, with envelope: Envelope) -> VerificationError? {
        if let stated = envelope.bundleId, let item = payload.claimedBundleId, item != stated {
            return mismatch("the item's bundleId \"\(item)\" is not the response's \"\(stated)\"")
        }
        if let stated = envelope.appAppleId, let item = payload.claimedAppAppleId, item != stated {
            return mismatch("the item's appAppleId \(item) is not the response's \(stated)")
        }
        if let stated = envelope.environment, let item = payload.environment?.rawValue, item != stated {
            return mismatch("the item's environment \"\(item)\" is not the response's \"\(stated)\"")
        }
        return nil
    }

    /// How a verified item disagrees with what stands beside it or with the call, if it does: the
    /// `originalTransactionId` its entry states (a `lastTransactions` entry), the `subscriptionGroupIdentifier` its
    /// group states, and the transaction id asked for (exactly the item's `transactionId`).
    func disagreement(
        of payload: DecodedPayload, with found: APIResponseKind.SignedItem, requested: String?
    ) -> VerificationError? {
        if let stated = found.statedOriginalTransactionId, let item = payload.originalTransactionId, item != stated {
            return mismatch("the item's originalTransactionId \"\(item)\" is not its entry's \"\(stated)\"")
        }
        if case .transaction = payload, let stated = found.statedSubscriptionGroupIdentifier,
            payload.subscriptionGroupIdentifier != stated
        {
            let item = payload.subscriptionGroupIdentifier.map { "\"\($0)\"" } ?? "none"
            return mismatch("the transaction's subscriptionGroupIdentifier \(item) is not its group's \"\(stated)\"")
        }
        if let requested, payload.transactionId != requested {
            let item = payload.transactionId ?? "none"
            return mismatch("the item's transactionId \"\(item)\" is not the one asked for, \"\(requested)\"")
        }
        return nil
    }

    /// The items, by index, whose signed partner in the same entry disagrees with them: a transaction and a renewal
    /// info of one `lastTransactions` entry must state the same `originalTransactionId` (both signed; the entry's
    /// own member is unsigned and may be absent). Both items of a disagreeing pair get the mismatch.
    func pairingDisagreements(
        _ found: [APIResponseKind.SignedItem], _ results: [VerificationResult<DecodedPayload>]
    ) -> [Int: VerificationError] {
        var byEntry: [String: (transaction: Int?, renewalInfo: Int?)] = [:]
        for (index, item) in found.enumerated() {
            switch item.kind {
            case .transaction: byEntry[item.entryPath, default: (nil, nil)].transaction = index
            case .renewalInfo: byEntry[item.entryPath, default: (nil, nil)].renewalInfo = index
            default: break
            }
        }
        var disagreements: [Int: VerificationError] = [:]
        for (entry, pair) in byEntry {
            guard let transaction = pair.transaction, let renewalInfo = pair.renewalInfo,
                let transactionPayload = results[transaction].payload,
                let renewalPayload = results[renewalInfo].payload
            else { continue }
            let first = transactionPayload.originalTransactionId
            let second = renewalPayload.originalTransactionId
            guard first != second else { continue }
            let error = mismatch(
                "in \(entry), the transaction's originalTransactionId \(first.map { "\"\($0)\"" } ?? "none") is not"
                    + " the renewal info's \(second.map { "\"\($0)\"" } ?? "none")")
            disagreements[transaction] = error
            disagreements[renewalInfo] = error
        }
        return disagreements
    }

    private func mismatch(_ message: String) -> VerificationError {
        VerificationError(.envelopeMismatch, check: .claims, EscapedText.escaped(message))
    }
}
