import Dispatch
import Foundation
import JWSVerify
import Synchronization

/// The library's operation counters at one moment (see OperationCounterReads.swift).
struct OperationCount: Sendable, Equatable {
    var es256Verifications: Int
    var certificateSignatureVerifications: Int
    var certificateParses: Int
    var ocspRequests: Int

    static let zero = OperationCount(
        es256Verifications: 0, certificateSignatureVerifications: 0, certificateParses: 0, ocspRequests: 0)

    static func - (lhs: OperationCount, rhs: OperationCount) -> OperationCount {
        OperationCount(
            es256Verifications: lhs.es256Verifications - rhs.es256Verifications,
            certificateSignatureVerifications: lhs.certificateSignatureVerifications
                - rhs.certificateSignatureVerifications,
            certificateParses: lhs.certificateParses - rhs.certificateParses,
            ocspRequests: lhs.ocspRequests - rhs.ocspRequests)
    }

    func perToken(_ tokens: Int) -> OperationsPerToken {
        let count = Double(max(tokens, 1))
        return OperationsPerToken(
            es256Verifications: Double(es256Verifications) / count,
            certificateSignatureVerifications: Double(certificateSignatureVerifications) / count,
            certificateParses: Double(certificateParses) / count,
            ocspRequests: Double(ocspRequests) / count)
    }
}

/// Monotonic nanoseconds.
@inline(__always) func nanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// CPU time of the calling thread, in nanoseconds (user and system).
func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Latencies in a log-linear histogram: 64 buckets per power of two (under 1.6 % error), fixed size,
/// so that recording millions of samples neither allocates nor moves the peak RSS.
struct LatencyHistogram: Sendable {
    static let subBuckets = 64
    static let subBucketBits = 6
    private(set) var counts = [Int](repeating: 0, count: 64 * 60)
    private(set) var total = 0

    @inline(__always) mutating func record(_ value: UInt64) {
        counts[Self.index(of: value)] += 1
        total += 1
    }

    static func index(of value: UInt64) -> Int {
        if value < UInt64(subBuckets) { return Int(value) }
        let exponent = UInt64.bitWidth - 1 - value.leadingZeroBitCount  // >= 6
        let shift = exponent - subBucketBits
        let sub = Int((value >> UInt64(shift)) & UInt64(subBuckets - 1))
        return min((shift + 1) * subBuckets + sub, 64 * 60 - 1)
    }

    /// The midpoint of the bucket at `index`, in nanoseconds.
    static func value(at index: Int) -> Double {
        if index < subBuckets { return Double(index) }
        let shift = index / subBuckets - 1
        let sub = index % subBuckets
        let low = Double((subBuckets + sub) << shift)
        return low + Double(1 << shift) / 2
    }

    mutating func merge(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        total += other.total
    }

    /// The latency below which `fraction` of the samples fall, in nanoseconds.
    func percentile(_ fraction: Double) -> Double {
        guard total > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for (index, count) in counts.enumerated() where count > 0 {
            seen += count
            if seen >= rank { return Self.value(at: index) }
        }
        return Self.value(at: counts.count - 1)
    }
}

/// What one thread did in one repeat.
struct ThreadRun: Sendable {
    var tokens = 0
    var unexpected = 0
    var end: UInt64 = 0
    /// CPU time the thread spent in the loop.
    var cpuNanoseconds: UInt64 = 0
    var histogram = LatencyHistogram()
}

/// The state the threads of one repeat share.
private final class RepeatControl: Sendable {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    let start = Atomic<UInt64>(0)
    let runs = Mutex<[ThreadRun]>([])
}

/// Runs `scenario` over `set` with one shared verifier.
struct ScenarioRunner: Sendable {
    let scenario: ScenarioName
    let set: TokenSet
    let verifier: SignedDataVerifier

    /// Verifies the primer, then every token once on this thread: checks each outcome and counts the
    /// library's operations per token. Returns the counts, the tokens with unexpected outcomes (each
    /// described) and, per reject category, the mean latency in nanoseconds.
    func countingPass(
        limit: Int
    ) -> (counts: OperationCount, tokens: Int, unexpected: [String], categoryNanoseconds: [String: Double]) {
        let check = scenario.check
        if let primer = set.primer, let code = check(verifier, primer) {
            return (.zero, 0, ["the primer did not verify: \(code)"], [:])
        }
        let count = min(limit, set.tokens.count)
        var unexpected: [String] = []
        var categoryTime: [String: (UInt64, Int)] = [:]
        let before = OperationCount.now()
        for index in 0..<count {
            let start = nanoseconds()
            let code = check(verifier, set.tokens[index])
            let elapsed = nanoseconds() - start
            if code != set.expected[index], unexpected.count < 10 {
                unexpected.append(
                    "token \(index)\(set.categories.map { " (\($0[index]))" } ?? ""): expected "
                        + "\(set.expected[index]?.rawValue ?? "verified"), got \(code?.rawValue ?? "verified")")
            }
            if let categories = set.categories {
                let (time, tokens) = categoryTime[categories[index], default: (0, 0)]
                categoryTime[categories[index]] = (time + elapsed, tokens + 1)
            }
        }
        let counts = OperationCount.now() - before
        return (counts, count, unexpected, categoryTime.mapValues { Double($0.0) / Double(max($0.1, 1)) })
    }

    /// One timed repeat on `threads` threads, each cycling through its own slice of the set until
    /// `seconds` passed (or `iterations` tokens were verified).
    func timedRepeat(threads: Int, seconds: Double, iterations: Int?) -> (runs: [ThreadRun], start: UInt64) {
        let control = RepeatControl()
        let tokens = set.tokens
        let expected = set.expected
        let check = scenario.check
        let verifier = self.verifier
        let duration = UInt64(seconds * 1e9)
        let threads = max(1, min(threads, tokens.count))
        for thread in 0..<threads {
            let lower = tokens.count * thread / threads
            let upper = max(lower + 1, tokens.count * (thread + 1) / threads)
            control.done.enter()
            let worker = Thread {
                control.ready.signal()
                control.go.wait()
                let run = Self.measuredLoop(
                    tokens: tokens, expected: expected, range: lower..<min(upper, tokens.count), check: check,
                    verifier: verifier, start: control.start.load(ordering: .acquiring), duration: duration,
                    iterations: iterations)
                control.runs.withLock { $0.append(run) }
                control.done.leave()
            }
            worker.stackSize = 4 << 20
            worker.start()
        }
        for _ in 0..<threads { control.ready.wait() }
        let start = nanoseconds()
        control.start.store(start, ordering: .releasing)
        for _ in 0..<threads { control.go.signal() }
        control.done.wait()
        return (control.runs.withLock { $0 }, start)
    }

    /// The measured loop. Not inlined, so that a profiler can collect exactly this function
    /// (`valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredLoop*'`).
    @inline(never)
    static func measuredLoop(
        tokens: [String], expected: [VerificationError.Code?], range: Range<Int>,
        check: @Sendable (SignedDataVerifier, String) -> VerificationError.Code?, verifier: SignedDataVerifier,
        start: UInt64, duration: UInt64, iterations: Int?
    ) -> ThreadRun {
        var run = ThreadRun()
        let cpuStart = threadCPUNanoseconds()
        var index = range.lowerBound
        var last = max(start, nanoseconds())
        let deadline = start + duration
        while true {
            if check(verifier, tokens[index]) != expected[index] { run.unexpected += 1 }
            let now = nanoseconds()
            run.histogram.record(now - last)
            last = now
            run.tokens += 1
            if let iterations {
                if run.tokens >= iterations { break }
            } else if now >= deadline {
                break
            }
            index += 1
            if index == range.upperBound { index = range.lowerBound }
        }
        run.end = last
        run.cpuNanoseconds = threadCPUNanoseconds() - cpuStart
        return run
    }
}
