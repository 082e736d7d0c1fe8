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
/// A named file is opened without blocking (a FIFO without a writer does not hold `open(2)`); a whole read of one
/// that is not a regular file must end within ``namedFileTimeoutSeconds``; standard input and `batch` lines wait.
/// Not `Sendable`: one thread reads it.
final class ByteSource {
    /// The longest a whole read of a named FIFO or device waits for its end, in seconds.
    static let namedFileTimeoutSeconds = 10

    /// How the source is named in messages: `standard input` or `'path'`.
    let name: String
    private let descriptor: Int32
    private let owned: Bool
    /// Whether messages start with the name (`--root /x: cannot read: …`), as for a file given to an option.
    private let leadsWithName: Bool
    /// Whether it is a named file that is not a regular file: reads wait in `poll(2)`, until ``deadline`` if set.
    private let waitsWithPoll: Bool
    private var deadline: ContinuousClock.Instant?

    private init(descriptor: Int32, name: String, owned: Bool, leadsWithName: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.owned = owned
        self.leadsWithName = leadsWithName
        var status = stat()  // a regular file ignores O_NONBLOCK: its reads never wait on a writer
        waitsWithPoll = owned && fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
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
        open(path, name: "\(role)'\(path)'", leadsWithName: false)
    }

    /// Opens a file given to an option (`--root`, `--xcode-certificate`): it is named `--root /x` and
    /// its messages start with that name, `--root /x: cannot open: No such file or directory`.
    static func open(path: String, option: String) -> Result<ByteSource, InputFailure> {
        open(path, name: "\(option) \(EscapedText.escaped(path))", leadsWithName: true)
    }

    private static func open(_ path: String, name: String, leadsWithName: Bool) -> Result<ByteSource, InputFailure> {
        let descriptor = path.withCString { systemOpen($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        let code = errno  // before `fstat` in `init` sets it
        let source = ByteSource(
            descriptor: descriptor, name: name, owned: descriptor >= 0, leadsWithName: leadsWithName)
        return descriptor >= 0 ? .success(source) : .failure(source.failure(Self.reason(code), "open"))
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, InputFailure> {
        while true {
            if waitsWithPoll {  // poll(2) also waits for a FIFO's first writer, where read(2) would see an end
                let left = deadline.map { max(0, Int32(clamping: Int(($0 - .now) / .milliseconds(1)) + 1)) } ?? -1
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = left == 0 ? 0 : poll(&entry, 1, left)
                if ready == 0 {
                    return .failure(failure("no end within \(Self.namedFileTimeoutSeconds) seconds", "read"))
                }
                if ready < 0 && errno == EINTR { continue }
                if ready < 0 { return .failure(failure(Self.reason(errno), "read")) }
            }
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return .success(count) }
            if errno == EINTR || (waitsWithPoll && (errno == EAGAIN || errno == EWOULDBLOCK)) { continue }
            return .failure(failure(Self.reason(errno), "read"))
        }
    }

    /// A failure to `open` or `read` this source, worded as its messages are.
    private func failure(_ reason: String, _ verb: String) -> InputFailure {
        InputFailure(
            message: leadsWithName ? "\(name): cannot \(verb): \(reason)" : "cannot \(verb) \(name): \(reason)")
    }

    /// Reads the whole input into one buffer (where a key's bytes are wiped), stopping at the first byte past `limit`.
    /// - Returns: the bytes, at most `limit`, and whether the input holds more than `limit` bytes.
    func readAll(upTo limit: Int) -> Result<(bytes: [UInt8], overflowed: Bool), InputFailure> {
        deadline = waitsWithPoll ? ContinuousClock.now + .seconds(Self.namedFileTimeoutSeconds) : nil
        var failure: InputFailure?
        var bytes = [UInt8](unsafeUninitializedCapacity: limit + 1) { buffer, count in
            while count <= limit, failure == nil {
                switch read(into: .init(UnsafeMutableBufferPointer(rebasing: buffer[count...]))) {
                case .failure(let error): failure = error
                case .success(let read) where read > 0: count += read
                case .success: return
                }
            }
        }
        if let failure { return .failure(failure) }
        let overflowed = bytes.count > limit
        if overflowed { bytes.removeLast() }
        return .success((bytes, overflowed))
    }

    /// The whole input, at most `limit` bytes (``readAll(upTo:)``); the failure `<name>: over <limit> bytes` past it.
    func readWhole(limit: Int) -> Result<[UInt8], InputFailure> {
        readAll(upTo: limit).flatMap { bytes, overflowed in
            overflowed ? .failure(InputFailure(message: "\(name): over \(limit) bytes")) : .success(bytes)
        }
    }

    /// The whole input and its JSON object, by the library's strict parser (a repeated member or a BOM refused).
    func readJSONObject(limit: Int) -> Result<(bytes: [UInt8], members: [String: JSONValue]), InputFailure> {
        readWhole(limit: limit).flatMap { bytes in
            Result { () throws(JSONParser.Failure) in (bytes, try JSONParser.parseObject(bytes)) }.mapError {
                InputFailure(message: "\(name) does not hold a JSON object: \($0.reason) at byte \($0.offset)")
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
