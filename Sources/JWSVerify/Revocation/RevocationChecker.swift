import Foundation
import Synchronization

/// Check 11 of the contract: OCSP revocation status of the leaf (issuer: intermediate) and the
/// intermediate (issuer: root), for verifiers with online checks.
///
/// Each certificate is asked about at the OCSP URL in its Authority Information Access, both at
/// once, each bounded by ``timeout``. An answer counts only when it is successful, signed by the
/// issuer or by a delegated responder certificate that the issuer signed for OCSPSigning, about
/// the certificate id that was asked, with the request's nonce when it echoes one, and fresh
/// against the injected clock (see ``OCSPAnswer/staleness(at:clockSkew:maximumAge:)``).
///
/// - `good` for both: nil. Good answers are cached by certificate id (``RevocationCache``), at
///   most ``cacheLifetime`` and never past `nextUpdate`, so a warm check makes no request.
/// - `revoked`: ``VerificationError/Code/revokedCertificate``. A properly signed revoked answer is
///   final even when it is old, and is never cached.
/// - anything else (no URL, no answer, timeout, HTTP error, unsuccessful or unsigned answer, other
///   certificate id, nonce mismatch, stale, `unknown`):
///   ``VerificationError/Code/revocationUnavailable``, retryable, never cached.
///
/// When the two certificates fail differently, revoked wins over unavailable, then the leaf over
/// the intermediate.
///
/// Time: freshness, the responder certificate's validity (OpenSSL's `X509_V_FLAG_USE_CHECK_TIME`)
/// and cache expiry use the injected clock. Only the network timeout uses real time.
final class RevocationChecker: Sendable {
    /// How long each OCSP exchange may take. OpenSSL counts whole seconds: rounded up, at least 1 s.
    let timeout: Duration
    /// How long a good answer is reused (never past its `nextUpdate`).
    let cacheLifetime: Duration
    /// How far `thisUpdate` may be ahead of the clock.
    let clockSkew: Duration
    /// How old an answer without `nextUpdate` may be.
    let maximumAgeWithoutNextUpdate: Duration

    private let clock: @Sendable () -> Date
    private let cache: RevocationCache
    private let requests = Atomic<Int>(0)
    /// Each certificate's OCSP certificate id, computed once per certificate object
    /// (the chain cache hands out the same objects for every token of a chain), so that a warm check
    /// builds no request: it looks the id up in ``cache`` and is done.
    private let identities = ReadWriteLocked(Identities())
    /// The exchanges in flight and who waits for each (see ``launch(_:for:at:)``).
    private let flights = ReadWriteLocked<[FlightKey: Flight]>([:])

    /// Creates a checker.
    ///
    /// - Parameters:
    ///   - timeout: Bound for each OCSP exchange (connect, send, receive).
    ///   - clock: The current time.
    ///   - cacheCapacity: How many good answers to remember (default 1024; 0 disables the cache).
    ///   - cacheLifetime: How long a good answer is reused (default 15 minutes, as Apple's library).
    ///   - clockSkew: How far `thisUpdate` may be in the future (default 5 minutes).
    ///   - maximumAgeWithoutNextUpdate: How old an answer without `nextUpdate` may be (default 1 hour).
    init(
        timeout: Duration, clock: @escaping @Sendable () -> Date, cacheCapacity: Int = 1024,
        cacheLifetime: Duration = .seconds(15 * 60), clockSkew: Duration = .seconds(5 * 60),
        maximumAgeWithoutNextUpdate: Duration = .seconds(60 * 60)
    ) {
        self.timeout = timeout
        self.clock = clock
        self.cache = RevocationCache(capacity: cacheCapacity)
        self.cacheLifetime = cacheLifetime
        self.clockSkew = clockSkew
        self.maximumAgeWithoutNextUpdate = maximumAgeWithoutNextUpdate
    }

    /// How many OCSP requests were sent so far (for tests: a warm cache sends none).
    var requestCount: Int { requests.load(ordering: .relaxed) }

    /// Cache hits, misses and entries so far.
    var cacheStatistics: (hits: Int, misses: Int, count: Int) { cache.statistics }

    /// Nil when both certificates are good; else `revokedCertificate` or `revocationUnavailable`.
    /// Blocks the calling thread while OCSP exchanges run (see ``begin(_:)`` for the parts).
    /// - Parameter chain: leaf, intermediate, root.
    func check(_ chain: [Certificate]) -> VerificationError? {
        switch begin(chain) {
        case .decided(let error): return error
        case .asking(let exchange): return exchange.blockingAnswer()
        }
    }

    /// What check 11 learns at once, or the exchanges it started.
    enum Start: Sendable {
        /// Decided without the network: both answers cached good, or a failure that needs no request
        /// (no OCSP URL, a short chain). Nil when good.
        case decided(VerificationError?)
        /// OCSP requests are in flight on threads of their own; wait for ``RevocationExchange``'s answer.
        case asking(RevocationExchange)
    }

    /// Looks both certificates up in the cache and starts an OCSP exchange for each that misses.
    /// Never blocks: the requests run on threads of their own.
    /// - Parameter chain: leaf, intermediate, root.
    func begin(_ chain: [Certificate]) -> Start {
        guard chain.count >= 3 else {
            return .decided(
                VerificationError(
                    .revocationUnavailable, check: .revocation,
                    "OCSP needs the leaf, the intermediate and the root; the chain has \(chain.count) certificates"))
        }
        let now = ValidationTime.seconds(clock()) ?? 0
        let subjects = [
            Subject(index: 0, role: "leaf", certificate: chain[0], issuer: chain[1]),
            Subject(index: 1, role: "intermediate", certificate: chain[1], issuer: chain[2]),
        ]
        var outcomes = [Outcome?](repeating: nil, count: subjects.count)
        var jobs: [Job] = []
        for subject in subjects {
            switch prepare(subject, at: now) {
            case .done(let outcome): outcomes[subject.index] = outcome
            case .ask(let job): jobs.append(job)
            }
        }
        guard !jobs.isEmpty else { return .decided(Self.verdict(outcomes)) }
        let exchange = RevocationExchange(
            decided: outcomes,
            asking: jobs.map { job in
                RevocationExchange.Question(
                    index: job.subject.index,
                    unanswered: unavailable(
                        job.subject, url: job.url, OCSPFailure(.timedOut, "no OCSP answer within \(timeoutSeconds) s")),
                    cancelled: unavailable(
                        job.subject, url: job.url,
                        OCSPFailure(.cancelled, "the task was cancelled while it waited for the OCSP answer")))
            },
            deadline: .seconds(timeoutSeconds + 2))
        for job in jobs { launch(job, for: exchange, at: now) }
        return .asking(exchange)
    }

    /// Revoked wins over unavailable, then the leaf over the intermediate; nil when both are good.
    static func verdict(_ outcomes: [Outcome?]) -> VerificationError? {
        let errors = outcomes.compactMap { $0?.error }
        return errors.first { $0.code == .revokedCertificate } ?? errors.first
    }

    // MARK: - Steps

    private struct Subject: Sendable {
        let index: Int
        let role: String
        let certificate: Certificate
        let issuer: Certificate

        /// "the leaf certificate (CN=…, serial …)"
        var description: String {
            var details: [String] = []
            if let name = certificate.subjectCommonName { details.append("CN=\(EscapedText.escaped(name))") }
            if let serial = certificate.serialNumberHex { details.append("serial \(serial)") }
            return "the \(role) certificate" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        }
    }

    private struct Job: Sendable {
        let subject: Subject
        let request: OCSPRequest
        let url: String
    }

    enum Outcome: Sendable {
        case good
        case failed(VerificationError)

        var error: VerificationError? {
            if case .failed(let error) = self { return error }
            return nil
        }
    }

    private enum Preparation {
        case done(Outcome)
        case ask(Job)
    }

    /// A certificate's OCSP certificate id.
    private struct Identity: Sendable {
        /// Held so that the object identifiers of the key stay unique while the entry exists.
        let certificate: Certificate
        let issuer: Certificate
        let certificateID: [UInt8]
    }

    private struct IdentityKey: Hashable {
        let certificate: ObjectIdentifier
        let issuer: ObjectIdentifier
    }

    /// Bounded memo of identities; the oldest entry goes first.
    private struct Identities: Sendable {
        static let capacity = 256
        var entries: [IdentityKey: Identity] = [:]
        var order: [IdentityKey] = []

        mutating func insert(_ identity: Identity, for key: IdentityKey) {
            guard entries.updateValue(identity, forKey: key) == nil else { return }
            order.append(key)
            if order.count > Self.capacity { entries[order.removeFirst()] = nil }
        }
    }

    /// The cached answer, a failure that needs no network, or the request to send.
    private func prepare(_ subject: Subject, at now: Int64) -> Preparation {
        let key = IdentityKey(
            certificate: ObjectIdentifier(subject.certificate), issuer: ObjectIdentifier(subject.issuer))
        if let known = identities.read({ $0.entries[key] }), cache.isGood(known.certificateID, at: now) {
            return .done(.good)
        }
        guard let url = OCSPRequest.responderURL(of: subject.certificate) else {
            return .done(
                unavailable(
                    subject, url: nil,
                    OCSPFailure(.noResponderURL, "it has no OCSP URL in its Authority Information Access extension")))
        }
        let request: OCSPRequest
        switch OCSPRequest.make(for: subject.certificate, issuer: subject.issuer) {
        case .success(let value): request = value
        case .failure(let failure): return .done(unavailable(subject, url: url, failure))
        }
        identities.write {
            $0.insert(
                Identity(
                    certificate: subject.certificate, issuer: subject.issuer, certificateID: request.certificateID),
                for: key)
        }
        if cache.isGood(request.certificateID, at: now) {
            return .done(.good)
        }
        return .ask(Job(subject: subject, request: request, url: url))
    }

    /// Sends `job`'s request, or joins the request for the same certificate at the same second
    /// already in flight: concurrent checks of one certificate share one exchange and its answer,
    /// so the threads waiting on the network are at most one per certificate and second (the
    /// certificates of Apple's chains, which nobody else can issue), however many verifications
    /// wait. A joiner is judged exactly as a lone check would be: the answer is judged at `now`,
    /// which is part of the key.
    ///
    /// A request older than its deadline is dropped from the table when the next one is launched, so
    /// that a thread that never ran (Foundation's `Thread` on Linux does not report a failed
    /// `pthread_create`) or that hangs in name resolution holds nothing for later checks: each
    /// waiter ends at its own deadline and the next second's check sends a request of its own.
    private func launch(_ job: Job, for exchange: RevocationExchange, at now: Int64) {
        let key = FlightKey(certificateID: job.request.certificateID, index: job.subject.index, second: now)
        let oldest = now - Int64(timeoutSeconds) - 3
        let flight = flights.write { flights -> Flight? in
            if let flight = flights[key] {
                flight.waiters.append(exchange)
                return nil
            }
            if flights.count >= Self.flightSweepThreshold {
                flights = flights.filter { $0.key.second >= oldest }
            }
            let flight = Flight(waiters: [exchange])
            flights[key] = flight
            return flight
        }
        guard let flight else { return }
        // A thread of its own, neither a Dispatch worker nor a thread of Swift's cooperative pool:
        // the request blocks for up to the timeout, and on Linux blocked workers of the global
        // queues starve other work (the pool is about one thread per core), which would also
        // serialize the two requests.
        let thread = Thread {
            let outcome = self.ask(job, at: now)
            let waiting = self.flights.write { flights -> [RevocationExchange] in
                if flights[key] === flight { flights[key] = nil }
                defer { flight.waiters = [] }
                return flight.waiters
            }
            for exchange in waiting { exchange.finish(job.subject.index, with: outcome) }
        }
        thread.name = "JWSVerify OCSP \(job.subject.role)"
        thread.start()
    }

    /// How many requests in flight make the next launch drop those older than their deadline.
    private static let flightSweepThreshold = 64

    /// An exchange in flight: the certificate id asked about, its place in the chain (the outcome's
    /// message names the role), and the second it is judged at.
    private struct FlightKey: Hashable, Sendable {
        let certificateID: [UInt8]
        let index: Int
        let second: Int64
    }

    /// The checks waiting for one request. Only touched under the lock of ``flights``.
    private final class Flight: @unchecked Sendable {
        var waiters: [RevocationExchange]
        init(waiters: [RevocationExchange]) { self.waiters = waiters }
    }

    /// One exchange: send, verify, judge freshness and status, update the cache.
    private func ask(_ job: Job, at now: Int64) -> Outcome {
        requests.add(1, ordering: .relaxed)
        OperationCounters.countOCSPRequest()
        let answer: OCSPAnswer
        switch job.request.send(to: job.url, timeoutSeconds: timeoutSeconds).flatMap({
            job.request.evaluate($0, issuer: job.subject.issuer, at: now)
        }) {
        case .success(let value): answer = value
        case .failure(let failure): return unavailable(job.subject, url: job.url, failure)
        }
        let id = job.request.certificateID
        if case .revoked(let time, let reason) = answer.status {
            cache.remove(id)
            return .failed(
                VerificationError(
                    .revokedCertificate, check: .revocation,
                    "\(job.subject.description) was revoked on \(OCSPAnswer.iso8601(time))"
                        + " (reason: \(reason ?? "not given")), according to the OCSP responder at \(EscapedText.escaped(job.url))"))
        }
        let maximumAge = Self.wholeSeconds(maximumAgeWithoutNextUpdate)
        if let staleness = answer.staleness(at: now, clockSkew: Self.wholeSeconds(clockSkew), maximumAge: maximumAge) {
            return unavailable(
                job.subject, url: job.url, OCSPFailure(.stale, "the answer cannot be used: \(staleness)"))
        }
        guard answer.status == .good else {
            return unavailable(
                job.subject, url: job.url,
                OCSPFailure(.unknownStatus, "the responder does not know the certificate (status unknown)"))
        }
        let expiry = answer.cacheExpiry(from: now, lifetime: Self.wholeSeconds(cacheLifetime), maximumAge: maximumAge)
        cache.insertGood(id, until: expiry, at: now)
        return .good
    }

    private func unavailable(_ subject: Subject, url: String?, _ failure: OCSPFailure) -> Outcome {
        let source = url.map { " from the OCSP responder at \(EscapedText.escaped($0))" } ?? ""
        return .failed(
            VerificationError(
                .revocationUnavailable, check: .revocation,
                "the revocation status of \(subject.description) is unavailable\(source): \(failure.message); try again later",
                underlying: failure.underlying))
    }

    // MARK: - Time

    /// The timeout in whole seconds, rounded up, at least 1.
    private var timeoutSeconds: Int {
        let (seconds, attoseconds) = timeout.components
        let rounded = seconds + (attoseconds > 0 ? 1 : 0)
        return Int(clamping: max(1, min(rounded, 3600)))
    }

    private static func wholeSeconds(_ duration: Duration) -> Int64 {
        max(0, duration.components.seconds)
    }
}
