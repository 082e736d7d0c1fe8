import AppStoreServerAPI
import Foundation
import JWSVerify
import PurchaseLedger
import PurchaseLedgerPostgreSQL
import PurchaseLedgerReconciliation

/// Runs the `ledger` subcommands: opens the store, calls ``PurchaseLedger`` and prints what it returns.
enum LedgerRunner {
    /// Opens `--store`: an SQLite file (created when missing only by `import`) or a PostgreSQL database.
    static func open(_ location: String, create: Bool = false) throws(LedgerError) -> any LedgerStore {
        if location.hasPrefix("sqlite:") {
            return try SQLiteLedgerStore(path: String(location.dropFirst(7)), createIfMissing: create)
        }
        return try PostgreSQLLedgerStore(url: location)
    }

    /// A store error as the CLI ends with it: 75 when retrying may succeed, else 66.
    static func failure(_ error: LedgerError, stdout: String = "") -> CommandResult {
        CommandResult(
            stdout: stdout, stderr: "Error: \(error.reportedCode): \(error.message)\n",
            status: error.isRetryable ? ExitCode.retryable : ExitCode.noInput)
    }

    // MARK: import

    static func runImport(_ options: LedgerOptions, io: CommandIO) -> Int32 {
        let bundleId = LedgerCommand.trust.bundleId.name
        let required = UsageError(
            message: "'\(bundleId)' is required: the ledger keeps only your app's items", subcommand: .ledgerImport)
        guard options.trust.bundleId?.isEmpty == false else { return io.emit(.usage(required)) }
        let verifier: SignedDataVerifier
        switch VerificationRunner.make(
            options.trust, forms: .tokens, subcommand: .ledgerImport, showsUndecodedDetails: false)
        {
        case .failure(let result): return io.emit(result)
        case .success(let runner):
            guard case .verify(let configured)? = runner.tokens else {
                return io.emit(
                    .usage(
                        UsageError(
                            message: "LocalTesting tokens are signed by nobody: the ledger keeps only verified items",
                            subcommand: .ledgerImport)))
            }
            verifier = configured
        }
        let handle: FileHandle
        switch options.trust.input {
        case .standardInput: handle = .standardInput
        case .file(let path):
            guard let opened = FileHandle(forReadingAtPath: path) else {
                return io.emit(.inputFailure(InputFailure(message: "\(EscapedText.escaped(path)): cannot open")))
            }
            handle = opened
        }
        let ledger: Ledger
        do throws(LedgerError) {
            ledger = Ledger(store: try open(options.store, create: true), verifier: verifier)
        } catch {
            return io.emit(failure(error))
        }
        var last = LedgerImport.Report()
        do throws(LedgerError) {
            let report = try ledger.importLines(
                from: handle,
                progress: { report in
                    last = report
                    if options.progress { io.standardError("committed: " + report.summary + "\n") }
                },
                refused: { refusal in
                    io.standardError("line \(refusal.line): \(refusal.code): \(refusal.message)\n")
                })
            io.standardOutput(text(report, json: options.json))
            return report.refused > 0 ? ExitCode.notVerified : ExitCode.verified
        } catch {
            return io.emit(failure(error, stdout: text(last, json: options.json)))
        }
    }

    static func text(_ report: LedgerImport.Report, json: Bool) -> String {
        (json ? JSONWriter.write(report.jsonValue, pretty: false) : report.summary) + "\n"
    }

    // MARK: entitlements

    static func runEntitlements(_ options: LedgerOptions, io: CommandIO) -> Int32 {
        guard let query = options.query else { return ExitCode.usage }
        let time = Timestamp(millisecondsSince1970: options.at ?? (Date().timeIntervalSince1970 * 1000).rounded())
        do throws(LedgerError) {
            let document = try Ledger.entitlements(
                in: open(options.store), for: query, at: time, environment: options.environment)
            io.standardOutput(options.json ? document.jsonText(pretty: false) + "\n" : text(document))
            return ExitCode.verified
        } catch {
            return io.emit(failure(error))
        }
    }

    /// One paragraph per entry; text from the store escaped.
    static func text(_ document: EntitlementsDocument) -> String {
        func date(_ time: Timestamp?) -> String {
            time.map { ISO8601Text.iso8601(milliseconds: $0.millisecondsSince1970) } ?? "none"
        }
        func shown(_ text: String?) -> String { text.map(EscapedText.escaped) ?? "none" }
        guard !document.entitlements.isEmpty else { return "No entitlements at \(date(document.asOf)).\n" }
        var out = "At \(date(document.asOf)):\n"
        for entry in document.entitlements {
            out +=
                "\(shown(entry.originalTransactionId)) (\(shown(entry.environment))): \(entry.status)"
                + (entry.entitled ? ", ENTITLED" : ", not entitled") + "\n"
            out +=
                "  product \(shown(entry.productId)) (\(shown(entry.productType))), transaction"
                + " \(shown(entry.transactionId)), expires \(date(entry.expiresDate))\n"
            if let revoked = entry.revocationDate {
                out +=
                    "  revoked \(date(revoked)): \(shown(entry.revocationType)), reason"
                    + " \(entry.revocationReason.map(String.init) ?? "none")\n"
            }
            if let grace = entry.gracePeriodExpiresDate { out += "  grace period until \(date(grace))\n" }
            out +=
                "  auto-renew \(entry.autoRenewStatus.map { $0 == 1 ? "on" : "off" } ?? "unknown"), ownership"
                + " \(shown(entry.ownershipType)), quantity \(entry.quantity.map(String.init) ?? "none")\n"
        }
        return out
    }

    // MARK: rebuild

    static func runRebuild(_ options: LedgerOptions, io: CommandIO) -> Int32 {
        do throws(LedgerError) {
            let report = try Ledger.rebuild(open(options.store), repairing: !options.check)
            if options.json {
                io.standardOutput(JSONWriter.write(report.jsonValue, pretty: false) + "\n")
            } else {
                var out = "\(report.items) items read; "
                out +=
                    report.differences.isEmpty
                    ? "the stored state matches the log.\n" : "\(report.differences.count) differences:\n"
                for line in report.differences { out += "  \(line)\n" }
                if report.repaired { out += "The stored state was replaced by the state rebuilt from the log.\n" }
                io.standardOutput(out)
            }
            return options.check && !report.differences.isEmpty ? ExitCode.notVerified : ExitCode.verified
        } catch {
            return io.emit(failure(error))
        }
    }

    // MARK: reconcile

    static func runReconcile(_ options: LedgerOptions, io: CommandIO) -> Int32 {
        let connection: (client: AppStoreServerAPIClient, verifier: SignedDataVerifier)
        switch ApiCommand.connect(options.api, subcommand: .ledgerReconcile) {
        case .failure(let failure): return io.emit(failure)
        case .success(let connected): connection = connected
        }
        let reconciler: LedgerReconciler
        do throws(LedgerError) {
            reconciler = LedgerReconciler(
                ledger: Ledger(store: try open(options.store, create: true), verifier: connection.verifier),
                client: connection.client, environment: options.api.trust.environment ?? .production)
        } catch {
            return io.emit(failure(error))
        }
        let out = runBlocking { () async -> Reconciled in
            var out = Reconciled()
            do throws(ReconciliationError) {
                out.notifications = ReconciliationReport()
                out.notifications = try await reconciler.syncNotificationHistory(
                    start: options.api.start.map(Timestamp.init))
                if case .originalTransactionId(let id)? = options.query {
                    out.history = ReconciliationReport()
                    out.history = try await reconciler.syncTransactionHistory(originalTransactionId: id)
                }
                if let count = options.audit {
                    out.audit = LedgerReconciler.AuditReport()
                    out.audit = try await reconciler.audit(sampleSize: count)
                }
            } catch {
                // What the stopped phase did is printed too: its pages are committed.
                out.stop = error
                if out.audit != nil {
                    out.audit?.items = error.report
                } else if out.history != nil {
                    out.history = error.report
                } else {
                    out.notifications = error.report
                }
            }
            return out
        }
        io.standardOutput(options.json ? JSONWriter.write(out.jsonValue, pretty: false) + "\n" : out.text)
        for refusal in out.refusals {
            io.standardError(
                "page \(refusal.page) \(EscapedText.escaped(refusal.path)): \(refusal.code):"
                    + " \(EscapedText.escaped(refusal.message))\n")
        }
        if let stop = out.stop {
            io.standardError("Error: \(EscapedText.escaped(stop.description))\n")
            if case .store(let error) = stop.cause { return failure(error).status }
        }
        // A refused item outranks a retryable stop: 75 ("run again later, as it is") only when nothing was refused.
        let differs = out.audit?.findings.contains(where: \.differs) ?? false
        if !out.refusals.isEmpty || differs { return ExitCode.notVerified }
        return out.stop.map { $0.isRetryable ? ExitCode.retryable : ExitCode.notVerified } ?? ExitCode.verified
    }

    /// What `ledger reconcile` did, phase by phase.
    struct Reconciled: Sendable {
        var notifications: ReconciliationReport?, history: ReconciliationReport?
        var audit: LedgerReconciler.AuditReport?
        /// Why the run stopped before its end.
        var stop: ReconciliationError?

        var refusals: [ReconciliationReport.Refusal] {
            (notifications?.refused ?? []) + (history?.refused ?? []) + (audit?.items.refused ?? [])
        }

        var text: String {
            var out = notifications.map { "notification history: \($0.summary)\n" } ?? ""
            out += history.map { "transaction history: \($0.summary)\n" } ?? ""
            if let audit {
                out += "audit: \(audit.findings.count) subscriptions, \(audit.items.summary)\n"
                for finding in audit.findings where finding.differs || finding.differedBefore {
                    out +=
                        "  \(EscapedText.escaped(finding.originalTransactionId)): Apple"
                        + " \(finding.appleStatus.map(String.init) ?? "none"), ledger"
                        + " \(finding.ledgerStatus?.rawValue ?? "none") before, \(finding.ledgerStatusAfter?.rawValue ?? "none")"
                        + " after\n"
                }
            }
            return out
        }

        var jsonValue: JSONValue {
            .object([
                "error": stop.map { .string($0.description) } ?? .null,
                "notificationHistory": notifications?.jsonValue ?? .null,
                "transactionHistory": history?.jsonValue ?? .null, "audit": audit?.jsonValue ?? .null,
            ])
        }
    }
}
