internal import CLibPQ
import JWSVerify
import PurchaseLedger

/// One PostgreSQL connection (`PGconn *`), owned: closed when the last reference goes. The only file that calls
/// libpq or touches its pointers.
///
/// Every statement goes through `PQexecParams` with typed parameters (text, `int8`, `float8`, `bytea` in binary):
/// nothing is spliced into SQL text. Not thread-safe: ``PostgreSQLLedgerStore`` lends it to one caller at a time.
final class PostgreSQLConnection: SQLSession {
    private var handle: OpaquePointer?
    private let url: String

    /// Connects to `url` (a `postgresql://` URL or a libpq connection string).
    ///
    /// - Throws: `LedgerError.storeNotOpened` when the server refuses or cannot be reached.
    init(url: String) throws(LedgerError) {
        self.url = url
        // A server that does not answer fails the connection after 10 s unless the URL says otherwise.
        let separator = url.contains("?") ? "&" : (url.contains("://") ? "?" : " ")
        handle = PQconnectdb(url.contains("connect_timeout") ? url : url + separator + "connect_timeout=10")
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(handle)
            self.handle = nil
            throw LedgerError(
                .storeNotOpened,
                "cannot connect to PostgreSQL: \(EscapedText.escaped(message.trimmingTrailingNewlines))")
        }
    }

    deinit { PQfinish(handle) }

    /// Reconnects when the connection was lost (the server restarted), with the session's settings again; a no-op
    /// while it is up.
    ///
    /// - Throws: ``LedgerError/Code/storeUnavailable`` when the server still cannot be reached, or the settings
    ///   cannot be made.
    func reconnectIfNeeded() throws(LedgerError) {
        guard let handle, PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw LedgerError(.storeUnavailable, "the connection to PostgreSQL was lost and cannot be made again")
        }
        try configureSession()
    }

    /// The settings every session of the store runs with: a commit returns only once the server has flushed it to
    /// its write-ahead log, and notices stay on the server.
    func configureSession() throws(LedgerError) {
        try run("SET synchronous_commit TO on", [])
        // Appends rely on each statement seeing what committed before it (READ COMMITTED), whatever the server's
        // default; a lock held elsewhere fails after 10 s, as SQLite's busy timeout does, instead of waiting for ever.
        try run("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED", [])
        try run("SET lock_timeout TO '10s'", [])
        // The server's notices ("relation ... already exists, skipping") would reach standard error through libpq's
        // default notice processor.
        try run("SET client_min_messages TO warning", [])
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int {
        let result = try execute(sql, values)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func query(_ sql: String, _ values: [SQLValue], _ row: (any SQLRow) -> Void) throws(LedgerError) {
        let result = try execute(sql, values)
        defer { PQclear(result) }
        let rows = PQntuples(result)
        for index in 0..<rows { row(PostgreSQLRow(result: result, row: index)) }
    }

    /// Runs one parameterised statement.
    private func execute(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> OpaquePointer {
        guard let handle else { throw LedgerError(.storeUnavailable, "not connected to PostgreSQL") }
        var types: [Oid] = []
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for value in values {
            switch value {
            case .null:
                types.append(0)
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let number):
                types.append(20)
                buffers.append(Array(String(number).utf8CString))
                lengths.append(0)
                formats.append(0)
            case .double(let number):
                types.append(701)
                buffers.append(Array(Self.text(of: number).utf8CString))
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                types.append(25)
                buffers.append(Array(text.utf8CString))
                lengths.append(0)
                formats.append(0)
            case .blob(let bytes):
                types.append(17)
                buffers.append(bytes.map { CChar(bitPattern: $0) })
                lengths.append(Int32(clamping: bytes.count))
                formats.append(1)
            }
        }
        let result = Self.withPointers(buffers) { pointers in
            PQexecParams(handle, sql, Int32(values.count), types, pointers, lengths, formats, 0)
        }
        guard let result else {
            throw LedgerError(
                .storeUnavailable,
                "PostgreSQL did not answer: \(EscapedText.escaped(String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines))"
            )
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines
            PQclear(result)
            let lost = PQstatus(handle) != CONNECTION_OK
            throw LedgerError(
                lost || Self.isRetryable(state) ? .storeUnavailable : .storeFailed,
                "PostgreSQL failed: \(EscapedText.escaped(message))" + (state.isEmpty ? "" : " (SQLSTATE \(state))"))
        }
        return result
    }

    /// SQLSTATEs that may pass: connection exceptions (08), serialization failures and deadlocks (40001, 40P01), a
    /// lock not granted in time (55P03),
    /// insufficient resources (53), the server shutting down or starting (57P01-57P03), system errors (58).
    private static func isRetryable(_ state: String) -> Bool {
        state.hasPrefix("08") || state == "40001" || state == "40P01" || state == "55P03" || state.hasPrefix("53")
            || ["57P01", "57P02", "57P03"].contains(state) || state.hasPrefix("58")
    }

    /// A double as PostgreSQL's `float8` input reads it back exactly (Swift's shortest round-trip digits).
    private static func text(of number: Double) -> String {
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    /// Lends C pointers to each buffer (NULL for nil) for the duration of `body`.
    private static func withPointers<T>(
        _ buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> T
    ) -> T {
        var pointers: [UnsafePointer<CChar>?] = []
        func lend(_ index: Int) -> T {
            guard index < buffers.count else { return body(pointers) }
            guard let buffer = buffers[index] else {
                pointers.append(nil)
                return lend(index + 1)
            }
            return buffer.withUnsafeBufferPointer { bytes in
                pointers.append(bytes.baseAddress)
                return lend(index + 1)
            }
        }
        return lend(0)
    }
}

/// One row of a result, read in text format; valid while the result lives.
struct PostgreSQLRow: SQLRow {
    let result: OpaquePointer
    let row: Int32

    func value(_ column: Int) -> SQLValue {
        let index = Int32(column)
        guard PQgetisnull(result, row, index) == 0, let raw = PQgetvalue(result, row, index) else { return .null }
        let text = String(cString: raw)
        switch PQftype(result, index) {
        case 20, 21, 23: return Int64(text).map(SQLValue.integer) ?? .null
        case 700, 701: return Double(text).map(SQLValue.double) ?? .null
        case 17: return Self.bytea(text).map(SQLValue.blob) ?? .null
        default: return .text(text)
        }
    }

    /// `bytea`'s hex output (`\x0a1b...`) as bytes.
    private static func bytea(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0
        else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
