import Foundation
import Testing

@testable import JWSVerify

/// Freshness and cache expiry of one OCSP answer, against a given time (no network).
@Suite("OCSP answer freshness")
struct RevocationFreshnessTests {
    private let now: Int64 = 1_800_000_000

    private func answer(thisUpdate: Int64, nextUpdate: Int64?) -> OCSPAnswer {
        OCSPAnswer(status: .good, thisUpdate: thisUpdate, nextUpdate: nextUpdate, nonceEchoed: true)
    }

    /// Input: thisUpdate 1 minute ago, nextUpdate in 1 hour. Expected: fresh.
    @Test("an answer inside its validity interval is fresh")
    func freshAnswer() {
        #expect(
            answer(thisUpdate: now - 60, nextUpdate: now + 3600).staleness(at: now, clockSkew: 300, maximumAge: 3600)
                == nil)
    }

    /// Input: thisUpdate 4 minutes ahead (within the 5-minute skew), then 6 minutes ahead.
    /// Expected: the first is fresh, the second is rejected as "in the future".
    @Test("thisUpdate may be ahead only by the clock skew")
    func futureThisUpdate() {
        #expect(
            answer(thisUpdate: now + 240, nextUpdate: now + 3600).staleness(at: now, clockSkew: 300, maximumAge: 3600)
                == nil)
        let reason = answer(thisUpdate: now + 360, nextUpdate: now + 3600).staleness(
            at: now, clockSkew: 300, maximumAge: 3600)
        #expect(reason?.contains("in the future") == true)
    }

    /// Input: nextUpdate 1 second ago. Expected: stale.
    @Test("an answer past its nextUpdate is stale")
    func passedNextUpdate() {
        let reason = answer(thisUpdate: now - 7200, nextUpdate: now - 1).staleness(
            at: now, clockSkew: 300, maximumAge: 3600)
        #expect(reason?.contains("nextUpdate") == true)
    }

    /// Input: no nextUpdate; thisUpdate 59 minutes, then 61 minutes ago (maximum age 1 hour).
    /// Expected: fresh, then stale.
    @Test("an answer without nextUpdate is stale after the maximum age")
    func noNextUpdate() {
        #expect(
            answer(thisUpdate: now - 59 * 60, nextUpdate: nil).staleness(at: now, clockSkew: 300, maximumAge: 3600)
                == nil)
        #expect(
            answer(thisUpdate: now - 61 * 60, nextUpdate: nil).staleness(at: now, clockSkew: 300, maximumAge: 3600)
                != nil)
    }

    /// Expected: a good answer is cached 15 minutes, but never past nextUpdate (nor, without one,
    /// past thisUpdate + maximum age).
    @Test("cache expiry is the earlier of the lifetime and nextUpdate")
    func cacheExpiry() {
        #expect(
            answer(thisUpdate: now, nextUpdate: now + 86400).cacheExpiry(from: now, lifetime: 900, maximumAge: 3600)
                == now + 900)
        #expect(
            answer(thisUpdate: now, nextUpdate: now + 120).cacheExpiry(from: now, lifetime: 900, maximumAge: 3600)
                == now + 120)
        #expect(
            answer(thisUpdate: now - 3500, nextUpdate: nil).cacheExpiry(from: now, lifetime: 900, maximumAge: 3600)
                == now + 100)
        #expect(
            answer(thisUpdate: .max, nextUpdate: nil).cacheExpiry(from: .max, lifetime: 900, maximumAge: 3600) == .max)
    }
}
