/// A verification in progress: finished, or waiting for the OCSP answers of check 11 before the
/// checks after it run.
///
/// The checks are written once, in ``SignedDataVerifier``; this is the only place where the
/// synchronous and the asynchronous methods differ: the synchronous ones wait for an exchange by
/// blocking their thread (``blockingResult()``), the asynchronous ones by suspending (``result()``).
/// Offline, or with both answers cached, a verification never waits: it is finished at once.
enum VerificationStage<Value> {
    case finished(Value)
    /// Waiting for `exchange`; `next` runs the rest of the checks with its verdict (nil when good).
    case waiting(RevocationExchange, next: (VerificationError?) -> VerificationStage<Value>)

    /// This stage, then `next` with its value.
    func then<Next>(
        _ next: @escaping (Value) -> VerificationStage<Next>
    ) -> VerificationStage<Next> {
        switch self {
        case .finished(let result):
            return next(result)
        case .waiting(let exchange, let rest):
            return .waiting(exchange) { answer in rest(answer).then(next) }
        }
    }

    /// This stage with its value transformed.
    consuming func map<Next>(
        _ transform: @escaping (Value) -> Next
    ) -> VerificationStage<Next> {
        // A finished stage (every offline verification) maps at once, its value moved, without the closure `then`
        // would allocate.
        switch consume self {
        case .finished(let value): return .finished(transform(value))
        case let stage: return stage.then { .finished(transform($0)) }
        }
    }

    /// The result, blocking the calling thread while OCSP requests run.
    func blockingResult() -> Value {
        var stage = self
        while true {
            switch stage {
            case .finished(let result): return result
            case .waiting(let exchange, let next): stage = next(exchange.blockingAnswer())
            }
        }
    }

    /// The result, suspending (without holding a thread) while OCSP requests run.
    func result() async -> Value {
        var stage = self
        while true {
            switch stage {
            case .finished(let result): return result
            case .waiting(let exchange, let next): stage = next(await exchange.answer())
            }
        }
    }
}
