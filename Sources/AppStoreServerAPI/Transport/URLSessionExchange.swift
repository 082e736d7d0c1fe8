import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `URLSession` data task whose body is collected up to a bound, whose whole duration is bounded, and which
/// is cancelled with the task that awaits it.
enum URLSessionExchange {
    static func run(
        _ request: URLRequest, session: URLSession, timeout: Duration, limit: Int
    ) async throws
        -> APIResponse
    {
        let collector = Collector(limit: limit)
        let exchangeSession = URLSession(
            configuration: session.configuration, delegate: collector, delegateQueue: nil)
        defer { exchangeSession.finishTasksAndInvalidate() }
        let task = exchangeSession.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: APIResponse.self) { group in
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        collector.start(task, continuation: continuation)
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

    /// The delegate of one exchange: collects the body up to `limit`, resumes the continuation once.
    final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked Sendable: every mutable member is inside `state`, a Mutex.
        private struct State {
            var continuation: CheckedContinuation<APIResponse, any Error>?
            var task: URLSessionDataTask?
            var body = Data()
            var pendingError: APIError?
            var finished = false
        }
        private let state = Mutex(State())
        private let limit: Int

        init(limit: Int) { self.limit = limit }

        func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<APIResponse, any Error>) {
            let early = state.withLock { state -> APIError? in
                if let error = state.pendingError {
                    state.finished = true
                    return error
                }
                state.continuation = continuation
                state.task = task
                return nil
            }
            if let early {
                continuation.resume(throwing: early)
            } else {
                task.resume()
            }
        }

        func fail(_ error: APIError) {
            let (continuation, task) = state.withLock { state in
                guard !state.finished else {
                    return (nil as CheckedContinuation<APIResponse, any Error>?, nil as URLSessionDataTask?)
                }
                if state.continuation == nil { state.pendingError = error } else { state.finished = true }
                let result = (state.continuation, state.task)
                state.continuation = nil
                return result
            }
            task?.cancel()
            continuation?.resume(throwing: error)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = state.withLock { state -> Bool in
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

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (continuation, body) = state.withLock { state in
                guard !state.finished else { return (nil as CheckedContinuation<APIResponse, any Error>?, Data()) }
                state.finished = true
                let result = (state.continuation, state.body)
                state.continuation = nil
                return result
            }
            guard let continuation else { return }
            if let error {
                // URLSession's own timer (the request's `timeoutInterval`) can fire before the transport's: the
                // same timeout, so the same kind.
                if (error as? URLError)?.code == .timedOut {
                    continuation.resume(throwing: APIError(kind: .timedOut, message: "the server did not answer in time"))
                } else {
                    continuation.resume(
                        throwing: APIError(kind: .network, message: "the request failed: \(error.localizedDescription)"))
                }
                return
            }
            guard let http = task.response as? HTTPURLResponse else {
                continuation.resume(throwing: APIError(kind: .network, message: "the server sent no HTTP response"))
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name)] = String(describing: value)
            }
            continuation.resume(returning: APIResponse(status: http.statusCode, headers: headers, body: body))
        }
    }
}
