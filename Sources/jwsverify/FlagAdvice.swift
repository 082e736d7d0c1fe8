import Foundation
import JWSVerify
import JWSVerifyTesting

/// The library's failures in the words of the CLI: which flag to pass, which file was wrong.
///
/// The library decides every failure and says what the caller could change
/// (``VerificationError/remedy``) in its own terms (`appAppleId`, `verifyAndDecodeNotification`);
/// this type only words that in flags. It decides nothing about verification: each sentence comes
/// from a remedy, a failed report step, or what the library recorded about the validation time; it
/// only looks at a refused certificate file's bytes to say what kind of file it is instead.
enum FlagAdvice {
    // MARK: Configuration

    /// The usage message for a configuration the library refused, naming the flags and files given.
    ///
    /// - Parameters:
    ///   - error: The library's ``VerificationError/Code/invalidConfiguration`` error.
    ///   - roots: The `--root` files as read, in order (the library's root index is an index here).
    ///   - xcodeCertificatePath: The `--xcode-certificate` path as given, if one was.
    ///   - xcodeCertificate: The contents of the `--xcode-certificate` file, if one was given.
    ///   - signedData: What Xcode's certificate signs, in messages: `tokens` or `receipts`.
    /// - Returns: the message, ending in the library's code.
    static func configurationMessage(
        _ error: VerificationError, roots: [VerificationRunner.RootFile], xcodeCertificatePath: String?,
        xcodeCertificate: Data?, signedData: String = "tokens"
    ) -> String {
        let environment = VerifyCommand.trust.environment.name
        let message: String
        switch error.remedy {
        case .appAppleIdRequired?:
            message =
                "'\(environment) \(AppStoreEnvironment.production.rawValue)' requires '\(VerifyCommand.trust.appAppleId.name)'"
                + " (the app's Apple id, from App Store Connect): Production tokens are checked against it"
        case .xcodeCertificateRequired?:
            message =
                "'\(environment) \(AppStoreEnvironment.xcode.rawValue)' requires"
                + " '\(VerifyCommand.trust.xcodeCertificate.name)': in Xcode, open the .storekit configuration, choose"
                + " Editor > Save Public Certificate, and pass that file"
        case .xcodeWithoutOnlineChecks?:
            message =
                "'\(VerifyCommand.online.name)' cannot be combined with '\(environment) \(AppStoreEnvironment.xcode.rawValue)':"
                + " nobody revokes a StoreKit Testing certificate"
        case .xcodeAlone?:
            message =
                "'\(environment) \(AppStoreEnvironment.xcode.rawValue)' cannot be combined with another"
                + " '\(environment)': Xcode \(signedData) are trusted through '\(VerifyCommand.trust.xcodeCertificate.name)',"
                + " not Apple's roots; verify them in a run of their own"
        case .xcodeCertificateUnreadable?:
            let path = xcodeCertificatePath ?? "?"
            message =
                "\(VerifyCommand.trust.xcodeCertificate.name) \(quotedPath(path)): \(notACertificate(xcodeCertificate))"
        case .rootUnreadable(let index)? where roots.indices.contains(index):
            message =
                "\(VerifyCommand.trust.root.name) \(quotedPath(roots[index].path)): \(notACertificate(roots[index].contents))"
        case .rootsRefused? where !roots.isEmpty:
            message = "the '\(VerifyCommand.trust.root.name)' certificates: \(error.message)"
        default:
            message = error.message
        }
        return "\(message) (\(error.code.rawValue))"
    }

    /// A path as messages show it: as given, escaped where it holds characters that do not print.
    static func quotedPath(_ path: String) -> String {
        EscapedText.escaped(path)
    }

    /// Why a file the library could not read as a certificate is not one, from the shape of its bytes.
    static func notACertificate(_ contents: Data?) -> String {
        if let contents, CertificateInfo(derOrPEM: contents) != nil {
            return "not a usable certificate: its public key cannot be read"
        }
        let text = contents.map { String(decoding: $0.prefix(64 * 1024), as: UTF8.self) } ?? ""
        if text.contains("-----BEGIN CERTIFICATE-----") {
            return "not a certificate: its PEM CERTIFICATE block is not a valid X.509 certificate"
        }
        if text.contains("-----BEGIN ") {
            return "not a certificate: a PEM file with no CERTIFICATE block"
        }
        return "not a certificate: neither DER nor PEM X.509"
    }

    // MARK: Verdicts

    /// What to type, or not, after a failure: for the library's remedies and the claims steps.
    ///
    /// - Parameters:
    ///   - error: The failure.
    ///   - failedStep: The name of the report step that failed (`bundleId`, `environment`, …).
    ///   - environment: The `--environment` given, if any.
    ///   - usesBundledRoot: Whether no `--root` was given.
    /// - Returns: the sentence, or nil when the message says all there is.
    static func hint(
        for error: VerificationError, failedStep: String?, environment: AppStoreEnvironment?, usesBundledRoot: Bool
    ) -> String? {
        let kind = VerifyCommand.kind.name
        switch error.remedy {
        case .otherKind(let other)?:
            return "the payload is a \(other.rawValue): pass '\(kind) \(other.rawValue)', or leave out '\(kind)' to"
                + " verify each token as the kind its payload shows"
        case .kindRequired?:
            let kinds = OptionValue.alternatives(PayloadKind.allCases.map(\.rawValue))
            return "pass '\(kind)' with the kind to verify it as: \(kinds) ('jwsverify inspect' shows the payload)"
        case .xcodeToken?:
            return "pass '\(VerifyCommand.trust.environment.name) \(AppStoreEnvironment.xcode.rawValue)"
                + " \(VerifyCommand.trust.xcodeCertificate.name) <file>' with the certificate exported from Xcode (open the"
                + " .storekit configuration, Editor > Save Public Certificate)"
        case .notAnXcodeToken?:
            return "this token carries Apple's chain, not a StoreKit Testing certificate: verify it without"
                + " '\(VerifyCommand.trust.environment.name) \(AppStoreEnvironment.xcode.rawValue)'"
        case .localTestingCannotBeVerified?:
            return "LocalTesting tokens are signed by nobody, so nothing can verify them; this one was decoded only"
                + " ('jwsverify inspect' decodes any token the same way)"
        default:
            break
        }
        if environment != .xcode, let minted = mintedHint(.token, error: error, usesBundledRoot: usesBundledRoot) {
            return minted
        }
        guard error.check == .claims else { return nil }
        switch failedStep {
        case "bundleId", "appAppleId":
            return appHint(failedStep, form: .token)
        case "environment":
            let given = environment.map { " '\(VerifyCommand.trust.environment.name) \($0.rawValue)'" } ?? ""
            return "the token comes from another environment than\(given); pass the environment it names to"
                + " '\(VerifyCommand.trust.environment.name)' only where such tokens may be accepted"
        default:
            return nil
        }
    }

    /// The hint after the claims step `bundleId` or `appAppleId` failed: the flag must name the user's own app.
    private static func appHint(_ step: String?, form: SignedDataForm) -> String {
        let noun = form == .token ? "token" : "receipt"
        guard step == "appAppleId" else {
            return
                "the \(noun) names another app's bundle id; '\(VerifyCommand.trust.bundleId.name)' must be your app's:"
                + " change it only if that bundle id is yours too"
        }
        let field = form == .receipt ? " (field 1)" : ""
        return "the \(noun) names another app Apple id\(field); '\(VerifyCommand.trust.appAppleId.name)' must be your"
            + " app's, from App Store Connect: never copy the \(noun)'s"
    }

    /// The note on a validation time that is the current time for lack of a signed date (a receipt's: of a
    /// creation date).
    static func withoutSignedDate(_ form: SignedDataForm, kind: PayloadKind?) -> String {
        let missing =
            form == .receipt
            ? "the receipt has no creation date (field 12)"
            : "the payload has no \(kind?.validationDateKey ?? "signedDate")"
        return "the current time: \(missing); pass '\(VerifyCommand.trust.at.name) <time>' to validate at another time"
    }

    // MARK: Receipts

    /// What to type, or not, after an app receipt failure: for the claims steps, and for a chain that an
    /// option would change.
    ///
    /// - Parameters:
    ///   - error: The failure.
    ///   - failedStep: The name of the report step that failed (`bundleId`, `deviceHash`, …).
    ///   - environments: The `--environment` values given.
    ///   - claimedReceiptType: The receipt type (field 0) as the receipt claims it, unverified.
    ///   - usesBundledRoot: Whether no `--root` was given.
    /// - Returns: the sentence, or nil when the message says all there is.
    static func receiptHint(
        for error: VerificationError, failedStep: String?, environments: [AppStoreEnvironment],
        claimedReceiptType: String?, usesBundledRoot: Bool
    ) -> String? {
        let environment = ReceiptCommand.trust.environment.name
        let xcode = AppStoreEnvironment.xcode.rawValue
        switch (error.check, failedStep) {
        case (.claims, "bundleId"), (.claims, "appAppleId"):
            return appHint(failedStep, form: .receipt)
        case (.claims, "environment"):
            let given = environments.map { "'\(environment) \($0.rawValue)'" }
            return "the receipt comes from another environment than \(OptionValue.alternatives(given)); pass the"
                + " environment its receipt type names (ProductionSandbox is Sandbox) to '\(environment)' only where"
                + " such receipts may be accepted"
        case (.claims, "deviceHash"):
            return "the receipt was issued to another device, or '\(ReceiptCommand.deviceGuid.name)' is not the"
                + " identifier the device hashed: identifierForVendor's 16 bytes on iOS, the MAC address of the"
                + " primary network interface on macOS"
        case (.header, _), (.chain, _):
            break
        default:
            return nil
        }
        if claimedReceiptType == xcode, !environments.contains(.xcode) {
            return "the receipt says it was made by Xcode StoreKit Testing: pass '\(environment) \(xcode)"
                + " \(ReceiptCommand.trust.xcodeCertificate.name) <file>' with the certificate exported from Xcode (open the"
                + " .storekit configuration, Editor > Save Public Certificate)"
        }
        if error.code == .untrustedChain, environments.contains(.xcode) {
            return "the receipt is not signed by the StoreKit Testing certificate given; an App Store receipt verifies"
                + " without '\(environment) \(xcode)'"
        }
        return mintedHint(.receipt, error: error, usesBundledRoot: usesBundledRoot)
    }

    /// The hint after a chain that does not lead to the bundled root, for tokens and receipts alike: what `jwsverify
    /// mint` makes chains to its test PKI's root, which only `--root` trusts. Nil for any other failure, or with
    /// `--root`.
    static func mintedHint(_ form: SignedDataForm, error: VerificationError, usesBundledRoot: Bool) -> String? {
        guard error.code == .untrustedChain, usesBundledRoot else { return nil }
        let (noun, root, mint) =
            form == .token
            ? ("token", "Apple Root CA - G3", Subcommand.mintToken) : ("receipt", "Apple Inc. Root", .mintReceipt)
        return "the chain does not lead to the bundled \(root); a \(noun) minted with 'jwsverify \(mint.path)' verifies"
            + " only with '\(VerifyCommand.trust.root.name) <pki>/\(TestHierarchy.FileName.rootDER)'"
    }

    /// The hint when `verify` is given an app receipt.
    static let receiptGivenToVerify =
        "this looks like a StoreKit 1 app receipt, not a JWS token: verify it with 'jwsverify \(Subcommand.receipt.path)'"
}
