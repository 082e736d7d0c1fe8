import Foundation

extension SignedDataOutcome {
    /// What to print of one token verification the library made, nested tokens included as it verified them.
    ///
    /// The result is consumed: its payload and trees move into the outcome instead of being copied. A failure carries
    /// no hints: they are in the words of the caller's options, which the caller adds.
    ///
    /// - Parameters:
    ///   - result: The library's result.
    ///   - kind: The kind asked for (`--kind`), kept when the token tells none.
    ///   - annotate: Whether the payload carries enumeration names and timestamp paths (text output).
    ///   - reporting: Whether the outcome carries every check and the chain (`batch`'s compact lines show neither).
    ///   - showsUndecodedDetails: Whether a failure also shows the certificates it carries and, when the payload did not
    ///     decode as its kind, the raw payload JSON.
    ///   - trustAnchorNames: How the caller configured each trusted root, by SHA-256 fingerprint.
    package init(
        token result: consuming VerificationResult<DecodedPayload>, kind: PayloadKind?, annotate: Bool = false,
        reporting: Bool = true, showsUndecodedDetails: Bool = false, trustAnchorNames: [String: String] = [:]
    ) {
        self.init(form: .token, kind: kind)
        let nestedTokens: [NestedToken]
        switch consume result {
        case .verified(let verified):
            self.kind = verified.payload.kind
            // JSON output: the tree check 1 parsed, which holds what the model decoded.
            payload =
                annotate
                ? PayloadDocument(verified.payload, annotate: true)
                : PayloadDocument(json: .object(verified.payloadObject), annotatingAs: nil)
            payloadJSON = verified.payloadJSON
            record(
                verified, payloadEnvironment: verified.payload.environment, anchors: trustAnchorNames,
                reporting: reporting)
            nestedTokens = verified.nestedTokens
        case .failed(let failure):
            // A token refused before its payload was checked still shows what it claims (decoded from the
            // library's own parse, on use).
            let shown = failure.claimedPayload
            self.kind = shown?.kind ?? kind ?? failure.kind
            payload = shown.map { PayloadDocument($0, annotate: annotate) }
            payloadJSON = failure.unverifiedPayloadBytes
            environment = shown?.environment?.rawValue
            let validated = record(failure, anchors: trustAnchorNames, reporting: reporting)
            if !validated, showsUndecodedDetails, let header = failure.unverifiedHeader {
                // Show what the token claims, for debugging; the renderers label it as not trusted.
                let certificates = UnverifiedToken.certificates(of: header)
                chain = Self.roles(certificates.parsed, complete: certificates.problems.isEmpty)
                certificateProblems = certificates.problems
            }
            if showsUndecodedDetails, failure.unverifiedHeader != nil, payload == nil,
                let json = failure.unverifiedPayloadJSON
            {
                payload = Self.rawPayload(json)
            }
            nestedTokens = failure.nestedTokens
        }
        nested = nestedTokens.map { nested in
            NestedOutcome(
                field: nested.field, path: nested.path,
                outcome: SignedDataOutcome(
                    token: nested.result, kind: kind, annotate: annotate, reporting: reporting,
                    showsUndecodedDetails: showsUndecodedDetails, trustAnchorNames: trustAnchorNames))
        }
    }

    /// What to print of one app receipt verification the library made. A failure carries no hints: they are in the
    /// words of the caller's options, which the caller adds.
    ///
    /// - Parameters:
    ///   - result: The library's result.
    ///   - reporting: Whether the outcome carries every check and the chain (`batch`'s compact lines show neither).
    ///   - bytes: The receipt's bytes, when a failure before the chain was validated should also show the
    ///     certificates the receipt embeds.
    ///   - trustAnchorNames: How the caller configured each trusted root, by SHA-256 fingerprint.
    package init(
        receipt result: consuming VerificationResult<AppReceipt>, reporting: Bool = true,
        undecodedDetailsOf bytes: [UInt8]? = nil, trustAnchorNames: [String: String] = [:]
    ) {
        // Each member set here, not through `init(form:)`: delegating copied the whole outcome into `self` and
        // destroyed the original, for every receipt.
        form = .receipt
        verified = false
        switch consume result {
        case .verified(var verified):
            record(
                verified, payloadEnvironment: verified.payload.environment, anchors: trustAnchorNames,
                reporting: reporting)
            // Moved out, not copied: a copy retained every string and array of the receipt, and the result's
            // end released them again.
            var payload = AppReceipt()
            swap(&payload, &verified.payload)
            receipt = consume payload
        case .failed(let failure):
            let claimed = failure.claimedPayload
            receipt = claimed
            environment = claimed?.environment?.rawValue
            let validated = record(failure, anchors: trustAnchorNames, reporting: reporting)
            if !validated, claimed != nil, let bytes, let unverified = try? AppReceiptVerifier.decodeUnverified(bytes) {
                // Show what the receipt embeds, for debugging; the renderers label it as not validated.
                chain = Self.roles(unverified)
                certificateProblems = unverified.certificateProblems
            }
        }
    }

    /// A token decoded without verification because nobody signs its kind (LocalTesting): every check skipped, the
    /// verdict `reason`, never verified; a notification's nested tokens decoded the same way.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - kind: The kind asked for; nil recognizes it from the payload.
    ///   - reason: The library's reason it cannot verify such tokens.
    ///   - annotate: Whether the payload carries enumeration names and timestamp paths (text output).
    ///   - nesting: Whether a notification's nested tokens are decoded too.
    package static func decodedOnly(
        _ token: String, kind: PayloadKind?, reason: VerificationError, annotate: Bool, nesting: Bool = true
    ) -> SignedDataOutcome {
        let unverified: UnverifiedToken
        do {
            unverified = try SignedDataVerifier.decodeUnverified(token, as: kind)
        } catch {
            return .refused(.token, error)
        }
        let skipped = "not run: LocalTesting tokens are signed by nobody; the token was decoded without verification"
        var outcome = SignedDataOutcome(
            form: .token, kind: unverified.kind, error: reason,
            checks: VerificationReport.StepName.tokenSteps.map {
                CheckLine(name: $0.rawValue, outcome: "skipped", detail: skipped)
            },
            chain: roles(unverified.certificates, complete: unverified.certificateProblems.isEmpty),
            environment: unverified.payload?.environment?.rawValue)
        outcome.certificateProblems = unverified.certificateProblems
        outcome.payload =
            unverified.payload.map { PayloadDocument($0, annotate: annotate) } ?? rawPayload(unverified.payloadJSON)
        outcome.payloadJSON = Array(unverified.payloadJSON)
        outcome.decodedWithoutVerification = true
        if nesting, let kind = outcome.kind, case .object(let json)? = outcome.payload?.json {
            outcome.nested = kind.nestedTokens(in: json).map { item in
                NestedOutcome(
                    field: item.field, path: item.path,
                    outcome: decodedOnly(
                        item.token, kind: item.kind, reason: reason, annotate: annotate, nesting: false))
            }
        }
        return outcome
    }

    /// What `inspect` shows of a token: decoded, nothing verified (``error`` set when it did not decode).
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - kind: The kind asked for; nil recognizes it from the payload.
    ///   - nesting: Whether a notification's nested tokens are inspected too (each as the kind it holds).
    package static func inspecting(_ token: String, kind: PayloadKind?, nesting: Bool) -> SignedDataOutcome {
        let unverified: UnverifiedToken
        do {
            unverified = try SignedDataVerifier.decodeUnverified(token, as: kind)
        } catch {
            return SignedDataOutcome(form: .token, error: error)
        }
        var inspection = SignedDataOutcome(
            form: .token, kind: unverified.kind,
            chain: roles(unverified.certificates, complete: unverified.certificateProblems.isEmpty))
        inspection.developerKind = unverified.developerKind
        inspection.header = unverified.header.jsonValue
        inspection.certificateProblems = unverified.certificateProblems
        if let json = try? JSONParser.parseObject(Array(unverified.payloadJSON)) {
            inspection.payload = PayloadDocument(json: .object(json), annotatingAs: unverified.payload?.kind)
            if nesting, let kind = inspection.kind {
                // The members the kind's table entry names as nested tokens (a notification's), each inspected
                // as the kind it holds.
                inspection.nested = kind.nestedTokens(in: json).map { item in
                    NestedOutcome(
                        field: item.field, path: item.path,
                        outcome: inspecting(item.token, kind: item.kind, nesting: false))
                }
            }
        }
        return inspection
    }

    /// The key id a developer-signed token's header names, or nil.
    package var developerKeyId: String? {
        guard developerKind != nil, case .object(let members)? = header, case .string(let kid)? = members["kid"] else {
            return nil
        }
        return kid
    }

    /// The statement `inspect` makes of a token a developer signed (text and `--json`).
    package static let developerSigned =
        "signed by a developer's In-App Purchase key, not by Apple; inspect cannot verify it (no certificate chain)"

    /// Names the role of each certificate of a token: by position when the list is the whole chain, else
    /// generically.
    package static func roles(_ certificates: [CertificateInfo], complete: Bool) -> [ChainEntry] {
        certificates.enumerated().map { index, info in
            let role: String
            if !complete {
                role = "certificate"
            } else if certificates.count == 1 {
                role = "StoreKit Testing certificate"
            } else {
                role = index < 3 ? ["leaf", "intermediate", "root"][index] : "x5c[\(index)]"
            }
            return ChainEntry(role: role, info: info)
        }
    }

    /// The embedded certificates of an unverified receipt, the one its SignerInfo names marked as its signer.
    package static func roles(_ unverified: UnverifiedAppReceipt) -> [ChainEntry] {
        unverified.certificates.enumerated().map { index, info in
            ChainEntry(
                role: index == unverified.signerIndex ? "signer (named by the SignerInfo)" : "certificate", info: info)
        }
    }

    /// The payload JSON exactly as in the token, for a payload that did not decode as its kind.
    package static func rawPayload(_ data: Data) -> PayloadDocument? {
        (try? JSONParser.parseObject(Array(data))).map { PayloadDocument(json: .object($0), annotatingAs: nil) }
    }

    /// Records what every verified result has: the verdict, the checks and the validated chain when reporting, the
    /// environment the claims check accepted (else the payload's), the validation time.
    package mutating func record<Payload>(
        _ verified: Verified<Payload>, payloadEnvironment: @autoclosure () -> AppStoreEnvironment?,
        anchors: [String: String], reporting: Bool
    ) {
        self.verified = true
        if reporting {
            checks = CheckLine.lines(verified.report)
            showValidatedChain(verified.chain, trustAnchorNames: anchors)
        }
        // The payload's environment only when the claims check named none: reading it copies the decoded model.
        environment = (verified.environment ?? payloadEnvironment())?.rawValue
        chainValidated = true
        validationTime = verified.validationTime
        validatedWithoutSignedDate = verified.validatedWithoutSignedDate
    }

    /// Records what every failure has: the error, the checks when reporting, the validation time, and the chain
    /// when it was validated before a later check failed.
    ///
    /// - Returns: whether the chain was validated.
    @discardableResult
    package mutating func record<Payload>(
        _ failure: VerificationFailure<Payload>, anchors: [String: String], reporting: Bool
    ) -> Bool {
        error = failure.error
        if reporting { checks = CheckLine.lines(failure.report) }
        validationTime = failure.validationTime
        validatedWithoutSignedDate = failure.validatedWithoutSignedDate
        guard let chain = failure.validatedChain else { return false }
        // A later check failed: the chain itself was validated, as for a verified token or receipt.
        if reporting { showValidatedChain(chain, trustAnchorNames: anchors) }
        chainValidated = true
        return true
    }
}
