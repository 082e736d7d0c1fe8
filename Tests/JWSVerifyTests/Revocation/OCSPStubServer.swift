import Foundation
import Synchronization

@testable import JWSVerify

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stand-in for a misbehaving OCSP responder on 127.0.0.1: either it answers every request with
/// fixed bytes (an HTTP error, or a recorded OCSP response replayed whatever was asked), or it
/// accepts TCP connections without ever answering (the kernel completes the handshake; nobody
/// reads), so that a client can only time out.
final class OCSPStubServer: Sendable {
    enum Behavior: Sendable {
        case respond(status: Int, contentType: String, body: [UInt8])
        case silent
    }

    let port: Int
    var url: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let behavior: ReadWriteLocked<Behavior>  // not `Mutex`: these tests run under TSan
    private let requests = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    init(_ behavior: Behavior) throws {
        self.behavior = ReadWriteLocked(behavior)
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw OCSPOpenSSLTool.Failure(description: "socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw OCSPOpenSSLTool.Failure(description: "bind/listen on 127.0.0.1 failed: \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        if case .silent = behavior { return }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Replaces the bytes served from now on.
    func setBehavior(_ behavior: Behavior) {
        self.behavior.write { $0 = behavior }
    }

    /// Requests answered so far.
    var requestCount: Int { requests.load(ordering: .relaxed) }

    /// Closes the listening socket; the accept loop ends. Idempotent; call it when done (the accept
    /// loop keeps the server alive until then).
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            readRequest(connection)
            if case .respond(let status, let contentType, let body) = behavior.read({ $0 }) {
                requests.add(1, ordering: .relaxed)
                let head =
                    "HTTP/1.0 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: \(contentType)\r\n"
                    + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                let bytes = Array(head.utf8) + body
                var sent = 0
                while sent < bytes.count {
                    let written = bytes[sent...].withUnsafeBytes {
                        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    if written <= 0 { break }
                    sent += written
                }
            }
            close(connection)
        }
    }

    /// Reads the request head and a body of Content-Length bytes (the request is not examined).
    private func readRequest(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let bodyLength =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count >= text.utf8.distance(from: text.startIndex, to: end.upperBound) + bodyLength { return }
        }
    }

    deinit {
        stop()
    }
}
