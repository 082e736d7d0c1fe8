import Foundation
import FuzzHarness

// Leak check: 100,000 verifications of good and bad tokens of every kind (the generated vectors and
// mutations of them), with verifiers created and dropped along the way and caches small enough to
// evict. Run under LeakSanitizer (`-sanitize=address`, `ASAN_OPTIONS=detect_leaks=1`): any leaked
// allocation fails the process at exit. Memory still reachable but growing (an unbounded cache) is
// caught by comparing the resident set size after 20,000 and after 100,000 verifications.
//
// Usage: leak-check [VERIFICATIONS]   (default 100000)
@main
struct LeakCheckMain {
    static func main() {
        let total = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
        let tokens = LeakCheck.tokens()
        print("leak-check: \(tokens.count) distinct tokens, \(total) verifications")

        let start = ContinuousClock.now
        var verified = 0
        var baseline = 0.0
        var done = 0
        while done < total {
            let batch = min(1_000, total - done)
            verified += LeakCheck.run(tokens, count: batch, offset: done)
            done += batch
            if done == min(20_000, total) { baseline = residentMegabytes() }
        }
        let finalSize = residentMegabytes()
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        print(
            "leak-check: \(done) verifications (\(verified) verified) in \(String(format: "%.1f", seconds)) s;"
                + " RSS \(String(format: "%.1f", baseline)) MB after 20,000, \(String(format: "%.1f", finalSize)) MB at the end"
        )
        if total >= 40_000 && finalSize - baseline > 32 {
            print("leak-check: FAILED: resident memory grew by \(String(format: "%.1f", finalSize - baseline)) MB")
            exit(1)
        }
        print("leak-check: passed (LeakSanitizer reports at exit if anything leaked)")
    }

    static func residentMegabytes() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * 4096 / 1_048_576
    }
}
