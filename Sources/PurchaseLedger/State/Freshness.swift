import JWSVerify

/// Which of two signed items about the same transaction, or the same subscription's renewal, the state keeps: the
/// freshest, as bytes that compare in that order.
///
/// The rank is the item's `signedDate` (8 bytes, big-endian, in an order-preserving encoding of the timestamp; an
/// item without one ranks below every dated item), then one byte that is 1 when the item carries a revocation (a
/// refund and its reversal signed in the same millisecond: the revocation wins), then the token's bytes (two
/// different tokens signed in the same millisecond: the one whose bytes compare larger, so that the choice never
/// depends on the order they arrived in).
///
/// Ranks compare as unsigned bytes, shorter first on a common prefix: the order of SQLite's and PostgreSQL's blob
/// comparison, so that a store keeps the larger rank with one `WHERE excluded.rank > current.rank`, and of
/// `[UInt8].lexicographicallyPrecedes`, which the fold uses.
enum Freshness {
    /// The bytes of a rank before the token's: the date's 8 and the revocation's 1. A store keeps these and the
    /// key of the log item that holds the token.
    static let prefixLength = 9

    /// The rank of a signed item.
    ///
    /// - Parameters:
    ///   - signedDate: The item's `signedDate`.
    ///   - revoked: Whether the item carries a `revocationDate`.
    ///   - token: The item's compact JWS.
    static func rank(signedDate: Timestamp?, revoked: Bool, token: String) -> [UInt8] {
        var rank: [UInt8] = []
        rank.reserveCapacity(prefixLength + token.utf8.count)
        let ordered = signedDate.map { orderPreserving($0.millisecondsSince1970) } ?? 0
        for shift in stride(from: 56, through: 0, by: -8) { rank.append(UInt8(truncatingIfNeeded: ordered >> shift)) }
        rank.append(revoked ? 1 : 0)
        rank.append(contentsOf: token.utf8)
        return rank
    }

    /// Whether `candidate` is fresher than `current`.
    static func isFresher(_ candidate: [UInt8], than current: [UInt8]) -> Bool {
        current.lexicographicallyPrecedes(candidate)
    }

    /// A double's bits, mapped so that unsigned order is numeric order: the sign bit flipped for positive values,
    /// every bit flipped for negative ones. JSON has no NaN; any finite or infinite value maps above zero, which is
    /// left for "no date".
    private static func orderPreserving(_ value: Double) -> UInt64 {
        let bits = value.bitPattern
        let mapped = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return max(mapped, 1)
    }
}
