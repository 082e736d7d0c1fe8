/// The envelope of signed data: what differs between an App Store token and an app receipt, so that
/// the checks they share (``PinnedCertificateCheck``, ``AppleMarkersCheck``) are written once and say
/// in their messages which certificate they mean.
enum SignedEnvelope: Sendable {
    /// A JWS compact token: its certificates are the header's `x5c`, its signer the leaf `x5c[0]`.
    case jws
    /// A CMS SignedData app receipt: its signer is the embedded certificate its SignerInfo names.
    case cms

    /// How messages name the certificate that signed.
    var signerName: String {
        switch self {
        case .jws: return "leaf"
        case .cms: return "receipt signer"
        }
    }
}
