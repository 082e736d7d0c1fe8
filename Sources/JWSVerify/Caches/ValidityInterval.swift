/// The seconds in which a certificate, or every certificate of a chain, is valid: from `notBefore`
/// included to `notAfter` excluded.
///
/// This is the one validity-time rule of the library. It is OpenSSL's: `X509_verify_cert` finds a
/// certificate valid at `t` when `X509_cmp_time(notBefore, t)` is -1 and `X509_cmp_time(notAfter, t)`
/// is 1, that is `notBefore <= t < notAfter`; at exactly `notAfter` it is expired. The chain cache,
/// the intermediate cache and the leaf check (which calls `X509_cmp_time` itself) all decide with it,
/// so a cached verdict holds at exactly the times the full path would give it. The C module's
/// self-test checks OpenSSL's rule at start-up; when it does not hold, ``FastPaths`` turns the caches
/// off (see `selftest.c`).
struct ValidityInterval: Sendable, Hashable {
    /// The first second of validity.
    let notBefore: Int64
    /// The first second after validity.
    let notAfter: Int64

    /// Every second (an interval that contains any time).
    static let always = ValidityInterval(notBefore: .min, notAfter: .max)

    /// Whether a certificate with this interval is valid at `time` (seconds since 1970).
    func contains(_ time: Int64) -> Bool {
        notBefore <= time && time < notAfter
    }

    /// The seconds in which both intervals' certificates are valid (possibly none).
    func intersection(_ other: ValidityInterval) -> ValidityInterval {
        ValidityInterval(notBefore: max(notBefore, other.notBefore), notAfter: min(notAfter, other.notAfter))
    }
}
