import Foundation

/// The receipt contract, in order (Docs/ErrorCodes.md, "App receipts"), each step recorded under its
/// own name where it happens (``VerificationReport/StepName/receiptSteps``): check 1 (format) parses the
/// receipt and its content; checks 2 to 8 (algorithms, signer, trust, validity, Apple's markers, signer
/// key, signature) come from the chain cache and one RSA verification when it knows the signer, else
/// from OpenSSL in full; then the claims (9) and the device hash (10). Each check is in its own file
/// under `Receipts/Checks/`.
extension AppReceiptVerifier {
    /// Verifies `input` (base64 text or the receipt file's bytes).
    func verification(of input: [UInt8], deviceIdentifier: [UInt8]?) -> VerificationResult<AppReceipt> {
        var recorder = ReportRecorder(for: .cms)
        let parsed: ReceiptFormatCheck.Parsed
        do {
            parsed = try ReceiptFormatCheck.parse(
                input, maximumBytes: maximumReceiptBytes, chainCache: chainCache, recorder: &recorder)
        } catch {
            recorder.failed(error)
            return .failed(VerificationFailure(error: error, recorded: recorder))
        }
        let (time, withoutDate) = validationTime.seconds(
            signedDate: parsed.receipt.receiptCreationDate, online: false, clock: clock)
        recorder.validationTime = time
        recorder.validatedWithoutSignedDate = withoutDate

        let evidence: SignatureEvidence
        do throws(VerificationError) {
            evidence = try checkSigned(parsed, at: time, recorder: &recorder)
        } catch {
            return failure(error, parsed.receipt, recorder: recorder)
        }
        recorder.validatedChain = evidence.chain
        let environment: AppStoreEnvironment?
        do throws(VerificationError) {
            environment = try claims.check(parsed.receipt.claims, recorder: &recorder)
            try ReceiptDeviceHashCheck.check(parsed.receipt, deviceIdentifier: deviceIdentifier, recorder: &recorder)
        } catch {
            return failure(error, parsed.receipt, recorder: recorder)
        }
        return .verified(
            Verified(
                payload: parsed.receipt, evidence: evidence,
                validationTime: Date(timeIntervalSince1970: TimeInterval(time)), environment: environment,
                recorded: recorder))
    }

    /// Checks 2 to 8: from the chain cache when it knows the signer and its signature verifies with the
    /// cached key, else in full. Returns the signer and the chain (signer, intermediate, root).
    private func checkSigned(
        _ parsed: ReceiptFormatCheck.Parsed, at time: Int64, recorder: inout ReportRecorder
    ) throws(VerificationError) -> SignatureEvidence {
        if let cached = parsed.cached, let envelope = parsed.envelope,
            chainCache.answers(cached, for: envelope, at: time)
        {
            recorder.replay(cached.steps)
            recorder.passed(.signature, ReceiptSignatureCheck.passed)
            return .cms(cached.signer, chain: cached.certificates)
        }
        let cms = try parsed.openSSL()
        let algorithms = try ReceiptAlgorithmsCheck.check(cms, recorder: &recorder)
        let signer = try ReceiptSignerCheck.check(cms, recorder: &recorder)
        let trusted = try ReceiptTrustAndValidityCheck.check(
            signer, receipt: cms, anchor: anchor, at: time, recorder: &recorder)
        try ReceiptAppleExtensionsCheck.check(trusted, anchor: anchor, recorder: &recorder)
        let key = try ReceiptSignerKeyCheck.check(signer.certificate, recorder: &recorder)
        try ReceiptSignatureCheck.check(cms, recorder: &recorder)
        let certificates = trusted.chain.map(CertificateInfo.init)
        let cmsSigner = CMSSigner(
            digestAlgorithm: algorithms.digest.rawValue, signatureAlgorithm: algorithms.signatureName,
            certificate: certificates[0])
        if trusted.isRememberable, let envelope = parsed.envelope, !cms.hasSignedAttributes {
            chainCache.insert(
                ReceiptChainCache.Entry(
                    key: key, digest: algorithms.digest, validity: trusted.validity, signer: cmsSigner,
                    certificates: certificates, steps: recorder.recorded(from: .algorithm, through: .signerKey)),
                for: envelope)
        }
        return .cms(cmsSigner, chain: certificates)
    }

    private func failure(
        _ error: VerificationError, _ receipt: AppReceipt, recorder: consuming ReportRecorder
    ) -> VerificationResult<AppReceipt> {
        recorder.failed(error)
        return .failed(VerificationFailure(error: error, recorded: recorder, payload: .decoded(receipt)))
    }
}
