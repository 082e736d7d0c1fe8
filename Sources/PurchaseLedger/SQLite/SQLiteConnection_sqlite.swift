internal import CSQLite
import JWSVerify

/// One SQLite connection (`sqlite3 *`), owned: closed when the last reference goes. Its prepared statements are
/// kept, by SQL text, for the connection's life.
///
/// Not thread-safe: ``SQLiteLedgerStore`` lends it to one caller at a time. The only file of the ledger that calls
/// SQLite or touches its pointers.
final class SQLiteConnection: SQLSession {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens the database at `path`, creating it when missing if `create`.
    ///
    /// - Throws: ``LedgerError/Code/storeNotOpened`` when SQLite cannot open it.
    init(path: String, create: Bool = true) throws(LedgerError) {
        var opened: OpaquePointer?
        let flags =
            SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw LedgerError(
                .storeNotOpened,
                "cannot open SQLite database '\(EscapedText.escaped(path))': "
                    + EscapedText.escaped(message))
        }
        handle = opened
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL text without parameters (schema statements, pragmas, `BEGIN`, `COMMIT`); rows are ignored.
    func execute(_ sql: String) throws(LedgerError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure(status, doing: "running \(Self.verb(sql))") }
    }

    /// Runs a parameterised statement that returns no rows.
    ///
    /// - Returns: how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int {
        let statement = try prepared(sql, values)
        defer { sqlite3_reset(statement) }
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else {
            throw failure(status, doing: "running \(Self.verb(sql))")
        }
        return Int(sqlite3_changes(handle))
    }

    /// Runs a parameterised query and hands each row to `row`.
    func query(_ sql: String, _ values: [SQLValue], _ row: (any SQLRow) -> Void) throws(LedgerError) {
        let statement = try prepared(sql, values)
        defer { sqlite3_reset(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure(status, doing: "running \(Self.verb(sql))") }
            row(SQLiteRow(statement: statement))
        }
    }

    /// The statement for `sql`, prepared once, with `values` bound.
    private func prepared(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var made: OpaquePointer?
            let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil)
            guard status == SQLITE_OK, let made else { throw failure(status, doing: "preparing \(Self.verb(sql))") }
            statements[sql] = made
            statement = made
        }
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .double(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                var text = text
                status = text.withUTF8 { bytes in
                    guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
                    // SQLite reads `count` bytes and never dereferences the pointer of an empty text.
                    return bytes.withMemoryRebound(to: CChar.self) {
                        cjws_sqlite3_bind_text_copy(statement, index, $0.baseAddress, Int32($0.count))
                    }
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { raw in
                    guard raw.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
                    // An empty blob would bind NULL from a NULL pointer: bind a zero-length blob instead.
                    guard let base = raw.baseAddress, raw.count > 0 else {
                        return sqlite3_bind_zeroblob(statement, index, 0)
                    }
                    return cjws_sqlite3_bind_blob_copy(statement, index, base, Int32(raw.count))
                }
            }
            guard status == SQLITE_OK else { throw failure(status, doing: "binding a value") }
        }
        return statement
    }

    /// A ledger error for an SQLite result code: busy, locked, out of memory, disk full or an I/O error may pass
    /// (``LedgerError/Code/storeUnavailable``); anything else is ``LedgerError/Code/storeFailed``.
    private func failure(_ status: Int32, doing what: String) -> LedgerError {
        let primary = status & 0xFF
        let message = String(cString: sqlite3_errmsg(handle))
        let retryable = [SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_FULL, SQLITE_IOERR].contains(primary)
        return LedgerError(
            retryable ? .storeUnavailable : .storeFailed,
            "SQLite failed \(what): \(EscapedText.escaped(message)) (code \(status))")
    }

    /// The statement's first word, to name it in a message.
    private static func verb(_ sql: String) -> String {
        String(sql.drop { $0 == " " || $0 == "\n" }.prefix { $0 != " " && $0 != "\n" && $0 != "(" })
    }
}

/// The current row of a statement being stepped; valid only inside ``SQLiteConnection/query(_:_:_:)``'s callback.
struct SQLiteRow: SQLRow {
    fileprivate let statement: OpaquePointer

    func value(_ column: Int) -> SQLValue {
        let index = Int32(column)
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_blob(statement, index), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
