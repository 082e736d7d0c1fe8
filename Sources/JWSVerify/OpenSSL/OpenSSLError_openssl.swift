internal import CJWSOpenSSL

/// OpenSSL's error queue of the calling thread, drained into one line (`cjws_error_text`: each error with its data in
/// parentheses, such as the HTTP status of an OCSP answer or the OID of an unknown algorithm; empty when the queue
/// was empty).
package func drainOpenSSLErrors() -> String {
    var buffer = [CChar](repeating: 0, count: 2048)
    let length = buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) }
    guard length > 0 else { return "" }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Reads a NUL-terminated string that a C function writes into a buffer of `capacity` bytes.
/// The function returns the length written, or a negative value when it has nothing.
func readCString(capacity: Int = 256, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: capacity)
    let length = buffer.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return -1 }  // never: capacity is positive
        return body(base, buffer.count)
    }
    guard length >= 0 else { return nil }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
