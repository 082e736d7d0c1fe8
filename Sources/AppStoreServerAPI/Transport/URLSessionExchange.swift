import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `URLSession` data task whose body is collected up to a bound, whose whole duration is bounded, which is
/// cancelled with the task that awaits it, and which never follows a redirect.
///
/// Each exchange has a session of its own, whose delegate is the exchange's ``Collector``: FoundationNetworking (on
/// Linux) hands a data task's body and completion only to its session's delegate. A task's own `delegate` is
/// consulted there for redirects and authentication challenges only, and by the completion-handler API, which
/// buffers the whole body before the caller can bound it (`URLSession.behaviour(for:)` in
/// swift-corelibs-foundation). So a shared session could not stop reading at ``APIRequest/maximumResponseBytes``.
///
/// Memory stays bounded whatever the server sends: a response whose `Content-Length` is over the bound is refused
/// before its body is read; the body's bytes are counted as they arrive (after any `Content-Encoding` was decoded,
/// so a compression bomb counts what it inflates to) and the exchange ends at the first byte past the bound; every
/// chunk that arrives after the end is dropped at once. A delegate callback never waits: the task is cancelled and
/// the session invalidated on a queue of their own (``endAsynchronously(_:_:)``), because `invalidateAndCancel()`
/// called from the session's own (serial) delegate queue waits for the session's work queue, which is busy while an
/// endless body keeps arriving, and every chunk queued behind the waiting callback held its bytes: the continuation
/// was not resumed (the timeout could not end the call: its end found the exchange already finished) and memory
/// grew by the rate of the connection.
///
/// On every path the continuation is resumed exactly once, before the task and session are ended, and the session is
/// invalidated: cancelled before the exchange starts (no session is made), timed out, cancelled, a body over the
/// bound (declared or counted), and a normal end (the session is invalidated once its task completed).
enum URLSessionExchange {
    static func run(
        _ request: URLRequest, like session: URLSession, timeout: Duration, limit: Int, probe: ExchangeProbe? = nil
    ) async throws -> APIResponse {
        let collector = Collector(limit: limit, probe: probe)
        return try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: APIResponse.self) { group in
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        collector.start(request, like: session, continuation: continuation)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    collector.fail(.timedOut(after: timeout))
                    throw APIError.timedOut(after: timeout)
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        } onCancel: {
            collector.fail(APIError(kind: .cancelled, message: "the task was cancelled"))
        }
    }

    /// Cancels `task` and invalidates `session` on a queue of their own, so that the caller (a delegate callback of
    /// that session) never waits on the session.
    static func endAsynchronously(_ task: URLSessionTask?, _ session: URLSession?) {
        guard task != nil || session != nil else { return }
        /// `@unchecked Sendable`: `URLSessionTask` and `URLSession` are thread-safe, and the box is only read.
        final class Ends: @unchecked Sendable {
            let task: URLSessionTask?
            let session: URLSession?
            init(_ task: URLSessionTask?, _ session: URLSession?) {
                self.task = task
                self.session = session
            }
        }
        let ends = Ends(task, session)
        // A queue of its own, not the global pool: both calls wait for the session's work queue (a fraction of a
        // second, seconds on a loaded machine while data keeps arriving), and a waiting thread of the global pool is
        // one fewer for Swift concurrency's tasks (their timeouts then fire late).
        DispatchQueue(label: "URLSessionExchange.end").async {
            ends.task?.cancel()
            ends.session?.invalidateAndCancel()
        }
    }

    /// The delegate of one exchange: makes its session, collects the body up to `limit`, refuses redirects, resumes
    /// the continuation once and invalidates the session.
    final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked Sendable: every mutable member is inside `state`, a Mutex.
        private struct State {
            var continuation: CheckedContinuation<APIResponse, any Error>?
            var session: URLSession?
            var task: URLSessionDataTask?
            var body = Data()
            var pendingError: APIError?
            var finished = false
        }
        private let state = Mutex(State())
        private let limit: Int
        private let probe: ExchangeProbe?

        init(limit: Int, probe: ExchangeProbe?) {
            self.limit = limit
            self.probe = probe
        }

        /// Starts the exchange in a session with `template`'s configuration, unless it already failed (cancelled or
        /// timed out before it started): then the continuation is resumed with that error and no session is made.
        func start(
            _ request: URLRequest, like template: URLSession, continuation: CheckedContinuation<APIResponse, any Error>
        ) {
            let early = state.withLock { state -> APIError? in
                if let error = state.pendingError {
                    state.finished = true
                    return error
                }
                state.continuation = continuation
                return nil
            }
            if let early {
                resume(continuation, with: .failure(early))
                return
            }
            let session = URLSession(configuration: template.configuration, delegate: self, delegateQueue: nil)
            probe?.sessionMade()
            let task = session.dataTask(with: request)
            // `fail` may have run since the continuation was stored: it resumed it, and the session is ours to end.
            let late = state.withLock { state -> Bool in
                if state.finished { return true }
                state.session = session
                state.task = task
                return false
            }
            if late {
                task.cancel()
                session.invalidateAndCancel()
            } else {
                task.resume()
            }
        }

        /// Ends the exchange with `error` (timeout, cancellation, a body over the bound): resumes the continuation,
        /// then cancels the task and invalidates the session without waiting (``endAsynchronously(_:_:)``), or keeps
        /// the error for ``start`` when the exchange has not started yet. Only the first end counts. Safe to call from
        /// a delegate callback.
        func fail(_ error: APIError) {
            let (continuation, task, session) = state.withLock { state in
                guard !state.finished, state.continuation != nil else {
                    if !state.finished { state.pendingError = error }
                    return (
                        nil as CheckedContinuation<APIResponse, any Error>?, nil as URLSessionDataTask?,
                        nil as URLSession?
                    )
                }
                state.finished = true
                let result = (state.continuation, state.task, state.session)
                state.continuation = nil
                state.task = nil
                state.session = nil
                state.body = Data()
                return result
            }
            if let continuation { resume(continuation, with: .failure(error)) }
            URLSessionExchange.endAsynchronously(task, session)
        }

        private func resume(
            _ continuation: CheckedContinuation<APIResponse, any Error>, with result: Result<APIResponse, APIError>
        ) {
            probe?.resumed()
            continuation.resume(with: result.mapError { $0 as any Error })
        }

        /// Refuses a response whose declared `Content-Length` is over the bound before any of its body is read.
        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let declared = response.expectedContentLength
            guard declared > Int64(limit) else {
                completionHandler(.allow)
                return
            }
            // FoundationNetworking ignores the disposition: `fail` cancels the task itself.
            completionHandler(.cancel)
            fail(
                APIError(
                    kind: .responseTooLarge,
                    message: "the response declares a body of \(declared) bytes, over the limit of \(limit) bytes"))
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = state.withLock { state -> Bool in
                // After the end, a chunk still arriving is dropped at once.
                guard !state.finished else { return false }
                if state.body.count + data.count > limit { return true }
                state.body.append(data)
                return false
            }
            if over {
                fail(
                    APIError(
                        kind: .responseTooLarge,
                        message: "the response body is longer than the limit of \(limit) bytes"))
            }
        }

        /// Refuses every redirect: the request carries the bearer token, which must reach no other URL. The 3xx
        /// response itself completes the task, and the client reports it as an HTTP error.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (continuation, body) = state.withLock { state in
                guard !state.finished else { return (nil as CheckedContinuation<APIResponse, any Error>?, Data()) }
                state.finished = true
                let result = (state.continuation, state.body)
                state.continuation = nil
                state.task = nil
                state.session = nil
                state.body = Data()
                return result
            }
            guard let continuation else { return }
            resume(continuation, with: Self.result(of: task, error: error, body: body))
            session.finishTasksAndInvalidate()
        }

        func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
            probe?.sessionInvalidated()
        }

        /// The response of a completed task, or the error it ended with.
        private static func result(
            of task: URLSessionTask, error: (any Error)?, body: Data
        ) -> Result<APIResponse, APIError> {
            if let error {
                // URLSession's own timer (the request's `timeoutInterval`) can fire before the transport's: the
                // same timeout, so the same kind.
                if (error as? URLError)?.code == .timedOut {
                    return .failure(APIError(kind: .timedOut, message: "the server did not answer in time"))
                }
                return .failure(APIError(kind: .network, message: "the request failed: \(error.localizedDescription)"))
            }
            guard let http = task.response as? HTTPURLResponse else {
                return .failure(APIError(kind: .network, message: "the server sent no HTTP response"))
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name)] = String(describing: value)
            }
            return .success(APIResponse(status: http.statusCode, headers: headers, body: body))
        }
    }
}

/// What the exchanges of one transport did, counted for the tests: sessions made and invalidated, continuations
/// resumed. Every exchange that ended has resumed its continuation once and invalidated the session it made.
final class ExchangeProbe: Sendable {
    private let counts = Mutex((made: 0, invalidated: 0, resumed: 0))

    /// The counts so far.
    var snapshot: (made: Int, invalidated: Int, resumed: Int) { counts.withLock { $0 } }

    func sessionMade() { counts.withLock { $0.made += 1 } }
    func sessionInvalidated() { counts.withLock { $0.invalidated += 1 } }
    func resumed() { counts.withLock { $0.resumed += 1 } }
}
