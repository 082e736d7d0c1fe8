import Foundation

/// `online-warm` and `online-offline`: the cost of online checks with a warm revocation cache.
///
/// Both measure the same kind of set: transactions sharing one chain, minted (seed of the options)
/// from a PKI whose AIA URLs name two `openssl ocsp` responders that this process starts on
/// 127.0.0.1 and stops afterwards. `online-warm` verifies with `enableOnlineChecks: true`: its
/// primer asks both responders once (leaf and intermediate), which fills the revocation and chain
/// caches, and every token after it must send no request. `online-offline` verifies the same set
/// offline: the baseline that `online-warm` is compared with (target: at least 0.90 of it).
///
/// The sets are minted where they are measured (the root differs from the exported sets' and the
/// responders must run beside the verifier), and are not exported. Without the `openssl` tool the
/// scenarios are skipped, which is not a failure.
enum OnlineScenarios {
    /// Mints the set with its responders running, measures `scenario` in this process, and stops the
    /// responders (also when measuring throws).
    static func measure(_ scenario: ScenarioName, options: BenchmarkOptions) throws -> ScenarioResult {
        guard let openssl = OCSPResponders.opensslPath else {
            let reason =
                "the openssl command-line tool is not on PATH; it runs the OCSP responders"
                + " (Debian: apt-get install openssl)"
            progress("\(scenario.rawValue): skipped: \(reason)")
            return .skipped(scenario, reason: reason)
        }
        let start = nanoseconds()
        let responders = try OCSPResponders.start(openssl: openssl, seed: options.seed)
        defer { responders.stop() }
        let factory = try TokenFactory(options: options, pki: responders.pki)
        let set = try factory.set(for: scenario)
        progress(
            "minted \(set.name) for \(scenario.rawValue): \(set.tokens.count) tokens,"
                + " \(set.totalBytes / max(set.tokens.count, 1)) bytes each; OCSP responders at"
                + " \(responders.rootURL) (intermediate) and \(responders.intermediateURL) (leaf),"
                + " \(ReportFormatter.format(Double(nanoseconds() - start) / 1e9, digits: 1)) s")
        return try Benchmark.measure(scenario, set: set, rootDER: factory.rootDER, options: options)
    }
}
