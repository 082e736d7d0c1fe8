import Foundation
import JWSVerify

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why input could not be read (exit 66).
struct InputFailure: Error, Equatable, Sendable {
    /// What could not be read, and why.
    var message: String
}

/// A readable file descriptor: standard input or an opened file, read with `read(2)` into bounded buffers.
///
/// A named file is opened without blocking: a FIFO no writer has opened does not hold `open(2)`. A whole read
/// of a named file that is not a regular file (a FIFO, a device, a socket) waits for data at most
/// ``namedFileTimeoutSeconds`` in all, so that a FIFO that never writes ends with an error instead of a hang; standard
/// input, and the line-by-line reads of `batch`, wait as long as their writer takes.
///
/// Not `Sendable`: one thread reads it.
final class ByteSource {
    /// The longest a whole read of a named file that is not a regular file waits for data, in all, in seconds.
    static let namedFileTimeoutSeconds = 10
    private static let namedFileTimeout: Duration = .seconds(namedFileTimeoutSeconds)

    /// How the source is named in messages: `standard input` or `'path'`.
    let name: String
    private let descriptor: Int32
    private let owned: Bool
    /// Whether messages start with the name (`--root /x: cannot read: …`), as for a file given to an option.
    private let leadsWithName: Bool
    /// Whether the descriptor is a named file that is not a regular file, opened without blocking: reads wait
    /// with `poll(2)`, and whole reads wait at most ``namedFileTimeoutSeconds``.
    private let waitsWithPoll: Bool

    private init(descriptor: Int32, name: String, owned: Bool, leadsWithName: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.owned = owned
        self.leadsWithName = leadsWithName
        var status = stat()
        waitsWithPoll = owned && fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
        if owned && !waitsWithPoll {
            // A regular file: reads never wait on a writer, so they may block as usual.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
    }

    deinit {
        if owned { _ = close(descriptor) }
    }

    /// Opens the input: standard input, or the file at a path.
    static func open(_ source: InputSource) -> Result<ByteSource, InputFailure> {
        switch source {
        case .standardInput:
            return .success(ByteSource(descriptor: 0, name: "standard input", owned: false))
        case .file(let path):
            return open(path: path, role: "")
        }
    }

    /// Opens a file; `role` (such as `--root file `) prefixes its name in messages.
    static func open(path: String, role: String) -> Result<ByteSource, InputFailure> {
        let descriptor = path.withCString { systemOpen($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            return .failure(InputFailure(message: "cannot open \(role)'\(path)': \(Self.reason(errno))"))
        }
        return .success(ByteSource(descriptor: descriptor, name: "\(role)'\(path)'", owned: true))
    }

    /// Opens a file given to an option (`--root`, `--xcode-certificate`): it is named `--root /x` and
    /// its messages start with that name, `--root /x: cannot open: No such file or directory`.
    static func open(path: String, option: String) -> Result<ByteSource, InputFailure> {
        let name = "\(option) \(EscapedText.escaped(path))"
        let descriptor = path.withCString { systemOpen($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            return .failure(InputFailure(message: "\(name): cannot open: \(Self.reason(errno))"))
        }
        return .success(ByteSource(descriptor: descriptor, name: name, owned: true, leadsWithName: true))
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, InputFailure> {
        read(into: buffer, deadline: nil)
    }

    /// Reads up to `buffer.count` bytes, waiting for data until `deadline` (for ever when nil) when the
    /// source waits with `poll(2)`; 0 at the end of the input.
    private func read(
        into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant?
    ) -> Result<Int, InputFailure> {
        while true {
            if waitsWithPoll, let failure = waitForData(until: deadline) { return .failure(failure) }
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return .success(count) }
            if errno == EINTR || (waitsWithPoll && (errno == EAGAIN || errno == EWOULDBLOCK)) { continue }
            return .failure(failure(Self.reason(errno)))
        }
    }

    /// Waits until the descriptor is readable (data, or its writer gone); the failure when `deadline` passes first.
    ///
    /// A FIFO that no writer has opened yet is not readable: `poll(2)` waits for a writer, where a `read(2)`
    /// without blocking would take it for the end of the input.
    private func waitForData(until deadline: ContinuousClock.Instant?) -> InputFailure? {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - .now
                guard left > .zero else {
                    return failure(
                        "no end of input within \(Self.namedFileTimeoutSeconds) seconds (a FIFO or device that does"
                            + " not end?)")
                }
                let (seconds, attoseconds) = left.components
                timeout = Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 { return nil }
            if ready < 0 && errno != EINTR { return failure(Self.reason(errno)) }
        }
    }

    /// A read failure of this source, worded as its messages are.
    private func failure(_ reason: String) -> InputFailure {
        InputFailure(message: leadsWithName ? "\(name): cannot read: \(reason)" : "cannot read \(name): \(reason)")
    }

    /// Reads the whole input up to `limit` bytes: it stops at the first byte past the limit, so a file that never
    /// ends (`/dev/zero`) costs `limit + 1` bytes. A named file that is not a regular file must end within
    /// ``namedFileTimeoutSeconds``.
    ///
    /// - Parameters:
    ///   - limit: The most bytes returned.
    ///   - wipingCopies: Whether the input is a secret (a private key): the result's buffer is allocated once (no copy
    ///     is left behind by growing it) and the read buffer is zeroed before it is freed.
    /// - Returns: the bytes, at most `limit`, and whether the input holds more than `limit` bytes.
    func readAll(
        upTo limit: Int, wipingCopies: Bool = false
    ) -> Result<(bytes: [UInt8], overflowed: Bool), InputFailure> {
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        if wipingCopies { kept.reserveCapacity(limit + chunk.count) }
        defer { if wipingCopies { SecretBytes.wipe(&chunk) } }
        let deadline = waitsWithPoll ? ContinuousClock.now + Self.namedFileTimeout : nil
        while true {
            // One byte past the limit is enough to know the input is over it.
            let want = min(chunk.count, limit + 1 - kept.count)
            let result = chunk.withUnsafeMutableBytes {
                read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]), deadline: deadline)
            }
            let count: Int
            switch result {
            case .success(let value): count = value
            case .failure(let failure): return .failure(failure)
            }
            if count == 0 { return .success((kept, false)) }
            kept.append(contentsOf: chunk[0..<count])
            if kept.count > limit {
                kept.removeLast(kept.count - limit)
                return .success((kept, true))
            }
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// One line of input: where it is in its chunk's buffer, and its full length.
struct InputLine: Sendable {
    /// The 1-based line number.
    var number: Int
    /// The line without its `\n` in the buffer ``LineReader/nextChunk(into:maximumLines:maximumBytes:)``
    /// filled; empty when the line was longer than the limit (its bytes are not kept).
    var range: Range<Int>
    /// The length of the whole line in bytes.
    var length: Int
    /// Whether the line was longer than the limit (and so none of it was kept).
    var overflowed: Bool
}

/// Splits a byte source into chunks of lines, read with `read(2)` straight into the chunk's buffer (no
/// line is copied): memory stays bounded by the buffer whatever the input; a line longer than the limit
/// is read to its end without being kept.
///
/// A final line without `\n` counts; a final `\n` does not start an empty line.
final class LineReader {
    private let source: ByteSource
    private let lineLimit: Int
    private let readSize: Int
    /// The bytes after the last line of the previous chunk, the start of the next.
    private var carry: [UInt8] = []
    private var atEnd = false
    private var lineNumber = 0
    /// Every byte read so far.
    private(set) var bytesRead = 0

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - source: The input.
    ///   - lineLimit: The most bytes of one line kept.
    ///   - readSize: The most bytes one `read(2)` asks for.
    init(_ source: ByteSource, lineLimit: Int, readSize: Int) {
        self.source = source
        self.lineLimit = lineLimit
        self.readSize = readSize
    }

    /// A buffer for chunks of at most `maximumBytes` bytes of lines (room for the last line and one more read), not
    /// zeroed: only bytes `read(2)` wrote are read, and zeroing its 4 MB faulted in every page at start-up.
    func makeBuffer(maximumBytes: Int) -> [UInt8] {
        let size = maximumBytes + lineLimit + readSize
        return [UInt8](unsafeUninitializedCapacity: size) { _, count in count = size }
    }

    /// Reads the next lines into `buffer`, whose contents are replaced: until `maximumLines` lines, or
    /// lines that end `maximumBytes` bytes or more into the buffer, or the end of the input.
    ///
    /// - Parameters:
    ///   - buffer: One from ``makeBuffer(maximumBytes:)``; the lines' ranges are into it.
    ///   - maximumLines: The most lines returned.
    ///   - maximumBytes: Where in the buffer a chunk ends, at the end of a line.
    /// - Returns: the lines, none at the end of the input.
    func nextChunk(
        into buffer: inout [UInt8], maximumLines: Int, maximumBytes: Int
    ) -> Result<[InputLine], InputFailure> {
        var lines: [InputLine] = []
        // The bytes of the buffer that hold input, where the current line starts, where the search for
        // its end goes on, and how many of its bytes were read and dropped (a line over the limit).
        var used = carry.count
        buffer.replaceSubrange(0..<used, with: carry)
        carry.removeAll(keepingCapacity: true)
        var lineStart = 0
        var scan = 0
        var dropped = 0
        func endLine(at end: Int) {
            lineNumber += 1
            let length = dropped + end - lineStart
            let overflowed = length > lineLimit
            lines.append(
                InputLine(
                    number: lineNumber, range: overflowed ? lineStart..<lineStart : lineStart..<end, length: length,
                    overflowed: overflowed))
            dropped = 0
        }
        while true {
            let newline: Int? = buffer.withUnsafeBytes { raw in
                guard scan < used, let base = raw.baseAddress, let found = memchr(base + scan, 0x0A, used - scan)
                else { return nil }
                return base.distance(to: UnsafeRawPointer(found))
            }
            if let newline {
                endLine(at: newline)
                lineStart = newline + 1
                scan = lineStart
                if lines.count == maximumLines || lineStart >= maximumBytes { break }
                continue
            }
            scan = used
            if dropped + used - lineStart > lineLimit {
                // Over the limit: the line's bytes read so far are dropped, and only counted.
                dropped += used - lineStart
                used = lineStart
                scan = used
            }
            if atEnd {
                if dropped + used - lineStart > 0 {
                    endLine(at: used)
                    lineStart = used
                }
                break
            }
            // Reads end near `maximumBytes`, so that little is read past the chunk's last line (those
            // bytes are copied to the start of the next chunk's buffer).
            let end = min(buffer.count, used + min(readSize, max(maximumBytes - used, 16 * 1024)))
            let result = buffer.withUnsafeMutableBytes { raw in
                source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[used..<end]))
            }
            switch result {
            case .failure(let failure): return .failure(failure)
            case .success(let count):
                used += count
                bytesRead += count
                if count == 0 { atEnd = true }
            }
        }
        carry.append(contentsOf: buffer[lineStart..<used])
        return .success(lines)
    }
}
