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
/// Not `Sendable`: one thread reads it.
final class ByteSource {
    /// How the source is named in messages: `standard input` or `'path'`.
    let name: String
    private let descriptor: Int32
    private let owned: Bool
    /// Whether messages start with the name (`--root /x: cannot read: …`), as for a file given to an option.
    private let leadsWithName: Bool

    private init(descriptor: Int32, name: String, owned: Bool, leadsWithName: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.owned = owned
        self.leadsWithName = leadsWithName
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
        let descriptor = path.withCString { systemOpen($0, O_RDONLY) }
        guard descriptor >= 0 else {
            return .failure(InputFailure(message: "cannot open \(role)'\(path)': \(Self.reason(errno))"))
        }
        return .success(ByteSource(descriptor: descriptor, name: "\(role)'\(path)'", owned: true))
    }

    /// Opens a file given to an option (`--root`, `--xcode-certificate`): it is named `--root /x` and
    /// its messages start with that name, `--root /x: cannot open: No such file or directory`.
    static func open(path: String, option: String) -> Result<ByteSource, InputFailure> {
        let name = "\(option) \(EscapedText.escaped(path))"
        let descriptor = path.withCString { systemOpen($0, O_RDONLY) }
        guard descriptor >= 0 else {
            return .failure(InputFailure(message: "\(name): cannot open: \(Self.reason(errno))"))
        }
        return .success(ByteSource(descriptor: descriptor, name: name, owned: true, leadsWithName: true))
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, InputFailure> {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return .success(count) }
            if errno == EINTR { continue }
            let reason = Self.reason(errno)
            return .failure(
                InputFailure(
                    message: leadsWithName ? "\(name): cannot read: \(reason)" : "cannot read \(name): \(reason)"))
        }
    }

    /// Reads the whole input, keeping at most `limit` bytes; the rest is read and counted, not kept.
    ///
    /// - Returns: the kept bytes and the total size of the input.
    func readAll(keepingAtMost limit: Int) -> Result<(bytes: [UInt8], total: Int), InputFailure> {
        var kept: [UInt8] = []
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { read(into: $0) }
            let count: Int
            switch result {
            case .success(let value): count = value
            case .failure(let failure): return .failure(failure)
            }
            if count == 0 { return .success((kept, total)) }
            total += count
            let room = max(0, limit - kept.count)
            if room > 0 { kept.append(contentsOf: chunk[0..<min(room, count)]) }
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

/// One line of input: where its first bytes (at most the line limit) are in the buffer the reader
/// appended them to, and its full length.
struct InputLine: Sendable {
    /// The 1-based line number.
    var number: Int
    /// The line without its `\n` in the buffer given to ``LineReader/next(appendingTo:)``; empty when
    /// the line was longer than the limit (its bytes are not kept).
    var range: Range<Int>
    /// The length of the whole line in bytes.
    var length: Int
    /// Whether the line was longer than the limit (and so none of it was kept).
    var overflowed: Bool
}

/// Splits a byte source into lines with a fixed-size buffer: memory stays bounded by the buffer and
/// the line limit whatever the input; a longer line is read to its end without being kept.
///
/// Lines are appended to a buffer the caller gives, so that a whole chunk of lines lives in one array.
/// A final line without `\n` counts; a final `\n` does not start an empty line.
final class LineReader {
    private let source: ByteSource
    private let lineLimit: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    private var lineNumber = 0
    /// Every byte read so far.
    private(set) var bytesRead = 0

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - source: The input.
    ///   - lineLimit: The most bytes of one line kept.
    ///   - bufferSize: The read buffer size.
    init(_ source: ByteSource, lineLimit: Int, bufferSize: Int = 256 * 1024) {
        self.source = source
        self.lineLimit = lineLimit
        buffer = [UInt8](repeating: 0, count: bufferSize)
    }

    /// The next line, its bytes appended to `bytes`; nil at the end of the input.
    func next(appendingTo bytes: inout [UInt8]) -> Result<InputLine?, InputFailure> {
        let lineStart = bytes.count
        var length = 0
        while true {
            if start == end {
                if atEnd { break }
                let result = buffer.withUnsafeMutableBytes { source.read(into: $0) }
                switch result {
                case .failure(let failure): return .failure(failure)
                case .success(let count):
                    start = 0
                    end = count
                    bytesRead += count
                    if count == 0 { atEnd = true }
                }
                continue
            }
            let newline: Int? = buffer.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, let found = memchr(base + start, 0x0A, end - start) else {
                    return nil
                }
                return base.distance(to: UnsafeRawPointer(found))
            }
            let stop = newline ?? end
            let count = stop - start
            length += count
            let room = lineLimit - (bytes.count - lineStart)
            if room > 0 { bytes.append(contentsOf: buffer[start..<(start + min(room, count))]) }
            if let newline {
                start = newline + 1
                return .success(makeLine(in: &bytes, from: lineStart, length: length))
            }
            start = end
        }
        return .success(length > 0 ? makeLine(in: &bytes, from: lineStart, length: length) : nil)
    }

    private func makeLine(in bytes: inout [UInt8], from lineStart: Int, length: Int) -> InputLine {
        lineNumber += 1
        let overflowed = length > lineLimit
        // An over-long line is reported by its length alone: its first bytes are not kept.
        if overflowed { bytes.removeSubrange(lineStart...) }
        return InputLine(number: lineNumber, range: lineStart..<bytes.count, length: length, overflowed: overflowed)
    }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes without leading and trailing ASCII whitespace (space, tab, LF, VT, FF, CR).
    func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var start = startIndex
        var end = endIndex
        while start < end, isSpace(self[start]) { start += 1 }
        while end > start, isSpace(self[end - 1]) { end -= 1 }
        return self[start..<end]
    }
}

extension Array where Element == UInt8 {
    /// The bytes without leading and trailing ASCII whitespace (space, tab, LF, VT, FF, CR).
    func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        self[...].trimmingASCIIWhitespace()
    }
}
