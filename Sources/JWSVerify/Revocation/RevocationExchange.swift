import Dispatch

/// The OCSP requests of one check 11 in flight, and the one verdict they end in.
///
/// ``RevocationChecker/begin(_:)`` starts each request on a thread of its own and hands back this
/// exchange. The exchange ends once: when every request has finished, when the deadline (the
/// timeout plus a grace period for name resolution, which OpenSSL's own timeout does not cover)
/// passes, or when the waiting task is cancelled. A request still running then counts as
/// unavailable (timed out, or cancelled) and finishes in the background, where a good answer still
/// fills the cache.
///
/// Waiting never costs a thread of Swift's cooperative pool: ``answer()`` suspends on a
/// continuation that the last request, the deadline timer or the cancellation handler resumes.
/// ``blockingAnswer()`` is for the synchronous methods, which block the calling thread.
final class RevocationExchange: Sendable {
    /// One asked certificate, with what it counts as when no answer came in time.
    struct Question: Sendable {
        /// The certificate's place in the chain: 0 the leaf, 1 the intermediate.
        let index: Int
        /// Its outcome when the deadline passed first.
        let unanswered: RevocationChecker.Outcome
        /// Its outcome when the waiting task was cancelled first.
        let cancelled: RevocationChecker.Outcome
    }

    private enum Ending: Sendable {
        case answered
        case deadline
        case cancelled
    }

    private struct State: Sendable {
        var outcomes: [RevocationChecker.Outcome?]
        var unanswered: Int
        var ending: Ending?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let questions: [Question]
    private let deadline: Duration
    /// A read-write lock used only for writing, not `Mutex`: ThreadSanitizer sees its hand-overs
    /// (Docs/Security.md, "Sanitizers").
    private let state: ReadWriteLocked<State>
    /// Signalled once, when the exchange ends (for ``blockingAnswer()``).
    private let ended = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - decided: The outcome of each certificate known without a request (nil where one is asked).
    ///   - asking: The certificates asked about.
    ///   - deadline: How long to wait for them in all.
    init(decided: [RevocationChecker.Outcome?], asking: [Question], deadline: Duration) {
        questions = asking
        self.deadline = deadline
        state = ReadWriteLocked(State(outcomes: decided, unanswered: asking.count, ending: asking.isEmpty ? .answered : nil))
        if asking.isEmpty { ended.signal() }
    }

    /// Records a request's outcome; the last one ends the exchange.
    func finish(_ index: Int, with outcome: RevocationChecker.Outcome) {
        let waiter = state.write { state -> CheckedContinuation<Void, Never>?? in
            guard state.ending == nil, state.outcomes.indices.contains(index), state.outcomes[index] == nil else {
                return nil
            }
            state.outcomes[index] = outcome
            state.unanswered -= 1
            return state.unanswered == 0 ? end(&state, .answered) : nil
        }
        if let waiter { resume(waiter) }
    }

    /// The verdict, waited for by blocking the calling thread until the exchange ends.
    func blockingAnswer() -> VerificationError? {
        if ended.wait(timeout: .now() + dispatchDeadline) == .timedOut {
            if let waiter = state.write({ end(&$0, .deadline) }) { resume(waiter) }
        }
        return verdict()
    }

    /// The verdict, waited for without blocking a thread. Cancelling the task ends the wait at once,
    /// with the unanswered certificates unavailable.
    func answer() async -> VerificationError? {
        // A timer source, not `asyncAfter`: cancelling it releases this exchange at once.
        let timer = DispatchSource.makeTimerSource()
        timer.setEventHandler { [self] in
            if let waiter = state.write({ end(&$0, .deadline) }) { resume(waiter) }
        }
        timer.schedule(deadline: .now() + dispatchDeadline)
        timer.resume()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let endedAlready = state.write { state -> Bool in
                    if state.ending != nil { return true }
                    state.waiter = continuation
                    return false
                }
                if endedAlready { continuation.resume() }
            }
        } onCancel: {
            if let waiter = state.write({ end(&$0, .cancelled) }) { resume(waiter) }
        }
        timer.cancel()
        return verdict()
    }

    // MARK: - Ending once

    /// Ends the exchange unless it has ended; returns the waiter to resume (outside the lock) as
    /// `.some(waiter)`, or `.some(nil)` when there is none, or nil when it had ended already.
    private func end(_ state: inout State, _ ending: Ending) -> CheckedContinuation<Void, Never>?? {
        guard state.ending == nil else { return nil }
        state.ending = ending
        let waiter = state.waiter
        state.waiter = nil
        return .some(waiter)
    }

    /// Resumes the waiter, if any, and wakes a blocking one.
    private func resume(_ waiter: CheckedContinuation<Void, Never>?) {
        waiter?.resume()
        ended.signal()
    }

    /// Each certificate's outcome as the exchange ended, then the checker's rule for the two.
    private func verdict() -> VerificationError? {
        let (outcomes, ending) = state.write { ($0.outcomes, $0.ending) }
        var final = outcomes
        for question in questions where final.indices.contains(question.index) && final[question.index] == nil {
            final[question.index] = ending == .cancelled ? question.cancelled : question.unanswered
        }
        return RevocationChecker.verdict(final)
    }

    private var dispatchDeadline: DispatchTimeInterval {
        let (seconds, attoseconds) = deadline.components
        return .milliseconds(Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
