import Foundation
import JWSVerify

/// The measured scenarios.
enum ScenarioName: String, CaseIterable, Sendable, Codable {
    case warm
    case newLeaf = "new-leaf"
    case cold
    case renewal
    case notification
    case notificationNested = "notification-nested"
    case appTransaction = "app-transaction"
    case reject
    case tampered
    case large
    case chainGroups = "chain-groups"
    case onlineWarm = "online-warm"
    case onlineOffline = "online-offline"

    var summary: String {
        switch self {
        case .warm: return "transactions sharing one chain (chain cache warm)"
        case .newLeaf: return "each transaction from its own leaf; intermediate already verified"
        case .cold: return "transactions, every cache disabled (chainCacheCapacity: 0)"
        case .renewal: return "renewal infos, warm chain"
        case .notification: return "notifications, outer token only (verifyingNestedTokens: false)"
        case .notificationNested: return "notifications with their 2 nested tokens verified"
        case .appTransaction: return "app transactions, warm chain"
        case .reject: return "bad base64, wrong alg, truncated, short chain: refused without signature work, 1/4 each"
        case .tampered: return "changed payload or signature under the warm chain: refused by the ES256 check, 1/2 each"
        case .large: return "transactions padded to just under 64 KiB, warm chain"
        case .chainGroups: return "K consecutive transactions per leaf, more leaves than the cache holds"
        case .onlineWarm:
            return "transactions sharing one chain, online checks (OCSP) with the revocation cache warm"
        case .onlineOffline: return "the online-warm set verified offline: the baseline of online-warm"
        }
    }

    /// The exported set this scenario measures.
    var setName: String {
        switch self {
        case .notification, .notificationNested: return "notification"
        case .onlineWarm, .onlineOffline: return "online"
        default: return rawValue
        }
    }

    /// Whether the scenario mints its own PKI and set in the measuring process, with two `openssl
    /// ocsp` responders that the certificates' AIA URLs name (see OnlineScenarios.swift). Such sets
    /// are not exported.
    var mintsOwnSet: Bool { self == .onlineWarm || self == .onlineOffline }

    /// Whether the verifier runs online checks (OCSP).
    var enablesOnlineChecks: Bool { self == .onlineWarm }

    /// 0 disables every cache.
    var chainCacheCapacity: Int { self == .cold ? 0 : 64 }

    /// Whether the scenario must do no certificate signature verification at all after priming.
    var forbidsCertificateWork: Bool { self == .reject || self == .tampered }

    /// Verifies one token the way this scenario does; nil when it verified, else the error code.
    var check: @Sendable (SignedDataVerifier, String) -> VerificationError.Code? {
        switch self {
        case .warm, .newLeaf, .cold, .reject, .tampered, .large, .chainGroups, .onlineWarm, .onlineOffline:
            return { verifier, token in verifier.verifyAndDecodeTransaction(token).error?.code }
        case .renewal:
            return { verifier, token in verifier.verifyAndDecodeRenewalInfo(token).error?.code }
        case .appTransaction:
            return { verifier, token in verifier.verifyAndDecodeAppTransaction(token).error?.code }
        case .notification:
            return { verifier, token in
                verifier.verifyAndDecodeNotification(token, verifyingNestedTokens: false).error?.code
            }
        case .notificationNested:
            return { verifier, token in
                verifier.verifyAndDecodeNotification(token, verifyingNestedTokens: true).error?.code
            }
        }
    }
}
