import Foundation
import JWSVerify

/// One call of `jwsverify api`: an endpoint and its argument.
package enum APICommandCall: Sendable, Equatable {
    /// Get Transaction Info.
    case transaction(String)
    /// Get Transaction History, every page.
    case history(String)
    /// Get All Subscription Statuses.
    case statuses(String)
    /// Get Refund History, every page.
    case refunds(String)
    /// Look Up Order ID.
    case order(String)
    /// Get App Transaction Info.
    case appTransaction(String)
    /// Get Notification History from `start` to `end`, every page.
    case notifications(start: Date, end: Date)
    /// Request a Test Notification: no signed item, Apple's JSON answer.
    case testNotification
}

extension APICommandCall {
    /// The endpoint names of `jwsverify api` that take an id, in help order.
    package static let namesWithId = ["transaction", "history", "statuses", "refunds", "order", "app-transaction"]
    /// The endpoint names that take none.
    package static let namesWithoutId = ["notifications", "test-notification"]

    /// The call an endpoint name asks for, `nil` for an unknown name.
    ///
    /// - Parameters:
    ///   - name: One of ``namesWithId`` or ``namesWithoutId``.
    ///   - id: The id of a name that takes one.
    ///   - start: Where `notifications` starts.
    ///   - end: Where `notifications` ends.
    package init?(name: String, id: String, start: Date, end: Date) {
        switch name {
        case "transaction": self = .transaction(id)
        case "history": self = .history(id)
        case "statuses": self = .statuses(id)
        case "refunds": self = .refunds(id)
        case "order": self = .order(id)
        case "app-transaction": self = .appTransaction(id)
        case "notifications": self = .notifications(start: start, end: end)
        case "test-notification": self = .testNotification
        default: return nil
        }
    }
}

/// What a call of `jwsverify api` answered: every page delivered before the error that ended it, if one did.
package struct APICommandOutcome: Sendable {
    /// One page: its number from 1, its items in order, and the envelope's disagreement with the verifier.
    package struct Page: Sendable {
        /// The page number, from 1.
        package var number: Int
        /// Every signed item of the page, in order.
        package var items: [VerifiedItem]
        /// The envelope's disagreement with the verifier's configuration, when there is one.
        package var envelopeMismatch: VerificationError?
    }

    /// The pages, in order.
    package var pages: [Page] = []
    /// The JSON answer of a call that returns no signed item (`testNotification`), compact with sorted keys and
    /// escaped by the library's JSON writer.
    package var answer: String?
    /// The error that ended the call; the pages before it are kept.
    package var error: APIError?

    /// The number of items, of verified items, and of failed items.
    package var counts: (items: Int, verified: Int, failed: Int) {
        let items = pages.reduce(0) { $0 + $1.items.count }
        let verified = pages.reduce(0) { $0 + $1.items.filter(\.isVerified).count }
        return (items, verified, items - verified)
    }

    /// Whether every page's envelope agreed with the verifier and every item verified.
    package var allVerified: Bool {
        pages.allSatisfy { $0.envelopeMismatch == nil && $0.items.allSatisfy(\.isVerified) }
    }
}

extension APICommandOutcome {
    /// Standard output: one compact line per item (``VerifiedItem/writeCompactLine(pageNumber:into:)``), then
    /// the JSON answer of a call without signed items.
    package var lines: [UInt8] {
        var out: [UInt8] = []
        for page in pages {
            for item in page.items {
                item.writeCompactLine(pageNumber: page.number, into: &out)
                out.append(UInt8(ascii: "\n"))
            }
        }
        if let answer { out += Array((answer + "\n").utf8) }
        return out
    }

    /// Standard error: each envelope mismatch, the summary `items N, verified N, failed N, pages N`, then
    /// the error that ended the call (`Error: httpError 404 errorCode 4040010: message`, escaped).
    package var report: String {
        var text = ""
        for page in pages {
            guard let mismatch = page.envelopeMismatch else { continue }
            text += "page \(page.number): envelope: \(mismatch.code.rawValue) (\(mismatch.check.rawValue)):"
            text += " \(EscapedText.escaped(mismatch.message))\n"
        }
        let (items, verified, failed) = counts
        text += "items \(items), verified \(verified), failed \(failed), pages \(pages.count)\n"
        guard let error else { return text }
        let code = error.rawAPIError.map { " errorCode \($0)" } ?? ""
        return text + "Error: \(error.kind.rawValue)\(error.statusCode.map { " \($0)" } ?? "")\(code): "
            + (error.errorMessage ?? error.message) + "\n"
    }
}

extension VerifyingAPIClient {
    /// Makes `call`, fetching and verifying every page of a paged endpoint (``VerifiedPages``).
    ///
    /// - Parameter call: The endpoint and its argument.
    /// - Returns: the pages delivered (numbered from 1) and the error that ended the call, if any.
    package func perform(_ call: APICommandCall) async -> APICommandOutcome {
        var outcome = APICommandOutcome()
        func add<Response>(_ response: VerifiedResponse<Response>) {
            outcome.pages.append(
                .init(
                    number: outcome.pages.count + 1, items: response.items, envelopeMismatch: response.envelopeMismatch)
            )
        }
        func all<Response>(_ pages: VerifiedPages<Response>) async throws(APIError) {
            do {
                for try await page in pages { add(page) }
            } catch let error as APIError {
                throw error
            } catch {
                throw APIError(kind: .network, message: "\(error)")
            }
        }
        do throws(APIError) {
            switch call {
            case .transaction(let id): add(try await getTransactionInfo(transactionId: id))
            case .history(let id): try await all(transactionHistory(anyTransactionId: id))
            case .statuses(let id): add(try await getAllSubscriptionStatuses(anyTransactionId: id))
            case .refunds(let id): try await all(refundHistory(anyTransactionId: id))
            case .order(let id): add(try await lookUpOrderId(orderId: id))
            case .appTransaction(let id): add(try await getAppTransactionInfo(anyTransactionId: id))
            case .notifications(let start, let end):
                try await all(
                    notificationHistory(
                        notificationHistoryRequest: NotificationHistoryRequest(startDate: start, endDate: end)))
            case .testNotification:
                outcome.answer = Self.compactLine(try await client.requestTestNotification())
            }
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// `answer` as one compact JSON line with sorted keys, written by the library's one JSON writer
    /// (`JSONWriter`): every string from the response escaped as every other line of the CLI (control characters,
    /// DEL and C1, U+2028 and U+2029, bidirectional formatting as `\u` escapes), so that a hostile server cannot
    /// write to a terminal or split a line through it.
    static func compactLine(_ answer: some Encodable) -> String {
        guard let data = try? APIJSON.encoder().encode(answer),
            let value = try? JSONParser.parseValue(Array(data))
        else { return "{}" }
        return JSONWriter.write(value, pretty: false)
    }

    /// ``perform(_:)`` for a synchronous caller (the command line's main thread): blocks the calling thread until
    /// the call ends. Never call it from a task of the cooperative pool.
    ///
    /// - Parameter call: The endpoint and its argument.
    /// - Returns: what ``perform(_:)`` returns.
    package func performBlocking(_ call: APICommandCall) -> APICommandOutcome {
        runBlocking { await perform(call) }
    }
}

/// Runs an async body to its end for a synchronous caller (the command line's main thread) and returns its value:
/// blocks the calling thread meanwhile. Never call it from a task of the cooperative pool.
package func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let box = BlockingResult<Value>(), done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    guard let value = box.value else { preconditionFailure("the task signalled before it set its value") }
    return value
}

/// The value of ``runBlocking(_:)``, written by the task before it signals and read after the wait: the semaphore
/// orders them.
private final class BlockingResult<Value>: @unchecked Sendable {
    var value: Value?
}

extension VerifiedItem {
    /// Writes the item's line as `batch` writes a compact line (without its newline), after `page` and `index`:
    /// an item whose token verified but disagrees with its envelope is written as not verified, with the
    /// mismatch's code and check.
    ///
    /// - Parameters:
    ///   - pageNumber: The page number written as `page` (from 1).
    ///   - out: The bytes the line is appended to.
    package func writeCompactLine(pageNumber: Int, into out: inout [UInt8]) {
        var outcome = SignedDataOutcome(token: result, kind: kind, reporting: false)
        if let envelopeMismatch {
            outcome.verified = false
            outcome.error = envelopeMismatch
        }
        BatchResultLine.writeCompact(
            outcome, line: nil, id: nil, fields: nil,
            leading: [("page", .integer(Int64(pageNumber))), ("index", .integer(Int64(index)))], into: &out)
    }
}
