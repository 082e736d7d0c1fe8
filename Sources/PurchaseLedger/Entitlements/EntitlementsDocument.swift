import JWSVerify

/// The entitlements of an account or a purchase at a time, as one JSON document: what `jwsverify ledger
/// entitlements --json` prints and `jwsverify serve` answers.
///
/// ```json
/// {"asOf": 1767225600000, "entitlements": [{"originalTransactionId": "...", "status": "active", ...}],
///  "schemaVersion": 1}
/// ```
/// Members are sorted; absent values are `null`; dates are milliseconds since 1970; entries are ordered by
/// `originalTransactionId`, then environment.
public struct EntitlementsDocument: Sendable, Hashable {
    /// The version of this document's shape.
    public static let schemaVersion = 1
    /// T, in milliseconds since 1970.
    public var asOf: Timestamp
    /// The entries.
    public var entitlements: [Entitlement]

    /// Creates a document.
    public init(asOf: Timestamp, entitlements: [Entitlement]) {
        self.asOf = asOf
        self.entitlements = entitlements
    }

    /// The document as a JSON tree.
    public var jsonValue: JSONValue {
        .object([
            "schemaVersion": .integer(Int64(Self.schemaVersion)),
            "asOf": Self.time(asOf),
            "entitlements": .array(entitlements.map(Self.entry)),
        ])
    }

    /// The document as JSON text: compact (one line), or indented.
    public func jsonText(pretty: Bool) -> String { JSONWriter.write(jsonValue, pretty: pretty) }

    private static func entry(_ entitlement: Entitlement) -> JSONValue {
        .object([
            "originalTransactionId": .string(entitlement.originalTransactionId),
            "productId": text(entitlement.productId),
            "type": text(entitlement.productType),
            "status": .string(entitlement.status.rawValue),
            "entitled": .bool(entitlement.entitled),
            "transactionId": .string(entitlement.transactionId),
            "expiresDate": entitlement.expiresDate.map(time) ?? .null,
            "gracePeriodExpiresDate": entitlement.gracePeriodExpiresDate.map(time) ?? .null,
            "revocationDate": entitlement.revocationDate.map(time) ?? .null,
            "revocationReason": entitlement.revocationReason.map(JSONValue.integer) ?? .null,
            "revocationType": text(entitlement.revocationType),
            "autoRenewStatus": entitlement.autoRenewStatus.map(JSONValue.integer) ?? .null,
            "ownershipType": text(entitlement.ownershipType),
            "quantity": entitlement.quantity.map(JSONValue.integer) ?? .null,
            "subscriptionGroupIdentifier": text(entitlement.subscriptionGroupIdentifier),
            "environment": .string(entitlement.environment),
        ])
    }

    private static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// A timestamp as JSON: an integer when whole, as App Store payloads write it.
    static func time(_ value: Timestamp) -> JSONValue {
        let milliseconds = value.millisecondsSince1970
        if milliseconds.rounded(.towardZero) == milliseconds, abs(milliseconds) < 0x1p62 {
            return .integer(Int64(milliseconds))
        }
        return .double(milliseconds)
    }
}
