import Foundation

/// The receipt contract, in order (Docs/ErrorCodes.md, "App receipts"): check 1 (format) parses the
/// receipt and its content; checks 2 to 8 (algorithms, signer, trust, validity, Apple's markers, signer
/// key, signature) come from the chain cache and one RSA verification when it knows the signer, else
/// from OpenSSL in full; then the claims (9) and the device hash (10). Each check is in its own file
/// under `Receipts/Checks/`.
extension AppReceiptVerifier {
    /// Verifies `input` (base64 text or the receipt file's bytes).
    func verification(of input: [UInt8], deviceIdentifier: [UInt8]?) -> VerificationResult<AppReceipt> {
        var recorder = ReportRecorder()
        let parsed: ReceiptFormatCheck.Parsed
        do {
            parsed = try ReceiptFormatCheck.parse(input, maximumBytes: maximumReceiptBytes, chainCache: chainCache)
        } catch {
            recorder.failed(error)
            return .failed(VerificationFailure(error: error, recorded: recorder))
        }
        recorder.passed(.format, ReceiptFormatCheck.passed)
        let (time, withoutDate) = validationSeconds(parsed.receipt)
        recorder.validationTime = time
        recorder.validatedWithoutSignedDate = withoutDate

        let chain: [CertificateInfo]
        do throws(VerificationError) {
            chain = try checkSigned(parsed, at: time, recorder: &recorder)
        } catch {
            return failure(error, parsed.receipt, recorder: recorder)
        }
        recorder.validatedChain = chain
        recorder.skipped(.revocation, "app receipts are verified offline")
        recorder.passed(
            .payload, "the content decoded as an app receipt (at check 1: its creation date is the validation time)")
        let environment: AppStoreEnvironment?
        do throws(VerificationError) {
            environment = try claims.check(parsed.receipt.claims, recorder: &recorder)
            try ReceiptDeviceHashCheck.check(parsed.receipt, deviceIdentifier: deviceIdentifier, recorder: &recorder)
        } catch {
            return failure(error, parsed.receipt, recorder: recorder)
        }
        recorder.skipped(.nestedTokens, "app receipts hold no tokens")
        return .verified(
            Verified(
                payload: parsed.receipt, header: JWSHeader(), chain: chain,
                validationTime: Date(timeIntervalSince1970: TimeInterval(time)), environment: environment,
                recorded: recorder))
    }

    /// The validation time in seconds since 1970, and whether it is the clock's for want of a creation
    /// date (``ValidationTime/signedDate``).
    private func validationSeconds(_ receipt: AppReceipt) -> (Int64, Bool) {
        func seconds(_ date: Date) -> Int64 {
            let value = date.timeIntervalSince1970
            return value.isFinite && abs(value) < 1e14 ? Int64(value.rounded(.down)) : 0
        }
        switch validationTime {
        case .fixed(let date): return (seconds(date), false)
        case .current: return (seconds(clock()), false)
        case .signedDate:
            if let created = receipt.receiptCreationDate { return (seconds(created), false) }
            return (seconds(clock()), true)
        }
    }

    /// Checks 2 to 8: from the chain cache when it knows the signer and its signature verifies with the
    /// cached key, else in full. Returns the chain (signer, intermediate, root).
    private func checkSigned(
        _ parsed: ReceiptFormatCheck.Parsed, at time: Int64, recorder: inout ReportRecorder
    ) throws(VerificationError) -> [CertificateInfo] {
        if let cached = parsed.cached, let envelope = parsed.envelope,
            chainCache.answers(cached, for: envelope, at: time)
        {
            recorder.replay(cached.steps)
            recorder.passed(.signature, ReceiptSignatureCheck.passed)
            return cached.certificates
        }
        let cms = try parsed.openSSL()
        let digest = try ReceiptAlgorithmsCheck.check(cms, recorder: &recorder)
        let signer = try ReceiptSignerCheck.check(cms, recorder: &recorder)
        let trusted = try ReceiptTrustAndValidityCheck.check(
            signer, receipt: cms, anchor: anchor, at: time, recorder: &recorder)
        try ReceiptAppleExtensionsCheck.check(trusted, anchor: anchor, recorder: &recorder)
        let key = try ReceiptSignerKeyCheck.check(signer.certificate, recorder: &recorder)
        try ReceiptSignatureCheck.check(cms, recorder: &recorder)
        let certificates = trusted.chain.map(CertificateInfo.init)
        if trusted.isRememberable, let envelope = parsed.envelope, !cms.hasSignedAttributes {
            chainCache.insert(
                ReceiptChainCache.Entry(
                    key: key, digest: digest, validity: trusted.validity, certificates: certificates,
                    steps: recorder.recorded(from: .algorithm, through: .leafKey)),
                for: envelope)
        }
        return certificates
    }

    private func failure(
        _ error: VerificationError, _ receipt: AppReceipt, recorder: consuming ReportRecorder
    ) -> VerificationResult<AppReceipt> {
        recorder.failed(error)
        return .failed(VerificationFailure(error: error, recorded: recorder, payload: .decoded(receipt)))
    }
}
