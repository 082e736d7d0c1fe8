/// One TLV (tag, length, value) that ``DERReader`` read: its tag and where its header and contents lie.
///
/// Offsets are indices into the reader's ``DERReader/bytes``.
package struct DERElement: Hashable, Sendable {
    /// The identifier octet (class, constructed bit and a tag number below 31).
    package let tag: UInt8
    /// The offset of the identifier octet.
    package let start: Int
    /// The offset of the first contents octet.
    package let contentStart: Int
    /// The offset just past the last contents octet.
    package let end: Int

    /// The contents octets.
    package var contents: Range<Int> { contentStart..<end }
    /// The whole TLV: identifier, length and contents octets.
    package var encoded: Range<Int> { start..<end }
    /// The number of contents octets.
    package var length: Int { end - contentStart }
    /// Whether the constructed bit (0x20) is set.
    package var isConstructed: Bool { tag & 0x20 != 0 }
}

/// A strict, bounded reader of DER (ITU-T X.690 §10) over a byte array, by index, without pointers.
///
/// A reader covers one container: the whole array, or the contents of one element (``nested(in:)``). It reads
/// the elements of that container one after another and refuses, with a ``DERError`` naming the byte:
/// - a tag in the high-tag-number form (tag number 31 or more): no structure read here needs one;
/// - an indefinite length (`0x80`, BER only), the reserved length octet `0xFF`, a long-form length under 128 or
///   with a leading zero octet (not minimal), a length of more than 4 octets;
/// - a length greater than what remains of the container, and a container that holds bytes after its last
///   element (``finish()``);
/// - more than ``Limits/maximumElements`` elements in one container, nesting deeper than
///   ``Limits/maximumDepth``;
/// - in the typed reads: a wrong tag (a constructed OCTET STRING or string is a wrong tag, as DER forbids
///   those forms), an INTEGER that is empty or not minimal (or, for ``readInteger()``, beyond `Int64`), an
///   OBJECT IDENTIFIER with a non-minimal or unfinished sub-identifier, a NULL with contents, an IA5String with a
///   byte over 0x7F, a UTF8String that is not UTF-8.
///
/// The reader never allocates in proportion to a length it has not checked against the bytes that remain, so
/// its memory and time are linear in the input. It does not check the order of SET OF elements (App Store
/// receipts from Xcode do not sort them).
package struct DERReader: Sendable {
    /// Bounds on the shape of what one reader, and the readers nested in it, accept.
    package struct Limits: Hashable, Sendable {
        /// Readers nest at most this deep: the reader over the whole array is depth 0.
        package var maximumDepth: Int
        /// One container holds at most this many elements.
        package var maximumElements: Int

        /// Creates limits.
        package init(maximumDepth: Int, maximumElements: Int) {
            self.maximumDepth = maximumDepth
            self.maximumElements = maximumElements
        }

        /// 16 levels, 100,000 elements a container.
        package static let standard = Limits(maximumDepth: 16, maximumElements: 100_000)
    }

    /// The array the reader indexes into (shared, not copied, by nested readers).
    package let bytes: [UInt8]
    /// The offset of the next element.
    package private(set) var position: Int
    /// The offset just past the container.
    package let end: Int
    /// How deep this reader is: 0 for the whole array.
    package let depth: Int
    /// The bounds in force.
    package let limits: Limits
    /// How many elements this reader has read.
    package private(set) var count = 0

    /// A reader over the whole of `bytes`, at depth 0.
    package init(_ bytes: [UInt8], limits: Limits = .standard) {
        self.init(bytes, range: 0..<bytes.count, depth: 0, limits: limits)
    }

    private init(_ bytes: [UInt8], range: Range<Int>, depth: Int, limits: Limits) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
        self.depth = depth
        self.limits = limits
    }

    /// Whether every element of the container has been read.
    package var isAtEnd: Bool { position >= end }

    /// The identifier octet of the next element, without reading it; `nil` at the end of the container.
    package var nextTag: UInt8? { position < end ? bytes[position] : nil }

    /// The bytes of `range` (an element's `contents` or `encoded`).
    package func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    /// A reader over the contents of `element` (read by this reader or one nested in it), one level deeper.
    ///
    /// - Throws: ``DERError`` when that level is deeper than ``Limits/maximumDepth``.
    @inline(__always)
    package func nested(in element: DERElement) throws(DERError) -> DERReader {
        guard depth < limits.maximumDepth else {
            throw DERError("elements nested more than \(limits.maximumDepth) deep", at: element.start)
        }
        return DERReader(bytes, range: element.contents, depth: depth + 1, limits: limits)
    }

    /// Succeeds when the container has no bytes after its last element.
    ///
    /// - Throws: ``DERError`` naming the first byte left over.
    @inline(__always)
    package func finish() throws(DERError) {
        guard position >= end else {
            let count = end - position
            throw DERError("\(count) \(count == 1 ? "byte" : "bytes") after the last element", at: position)
        }
    }

    /// Reads the next element's identifier and length octets and steps over its contents.
    ///
    /// - Throws: ``DERError`` for every rule of the type's discussion on tags and lengths.
    @inline(__always)
    package mutating func readElement() throws(DERError) -> DERElement {
        let start = position
        guard start < end else { throw DERError("expected an element, found the end of its container", at: start) }
        guard count < limits.maximumElements else {
            throw DERError("more than \(limits.maximumElements) elements in one container", at: start)
        }
        let tag = bytes[start]
        guard tag & 0x1F != 0x1F else {
            throw DERError(
                "tag byte 0x\(Self.hex(tag)) uses the high-tag-number form, which is not accepted", at: start)
        }
        guard start + 1 < end else { throw DERError("the element is cut off before its length", at: start + 1) }
        let first = bytes[start + 1]
        var index = start + 2
        var length = Int(first)
        if first >= 0x80 {
            guard first != 0x80 else {
                throw DERError("indefinite length (BER), which DER forbids", at: start + 1)
            }
            guard first != 0xFF else { throw DERError("reserved length octet 0xFF", at: start + 1) }
            let octets = Int(first & 0x7F)
            guard octets <= 4 else {
                throw DERError("a length of \(octets) octets, more than the 4 accepted", at: start + 1)
            }
            guard end - index >= octets else {
                throw DERError("the element is cut off in its length octets", at: index)
            }
            guard bytes[index] != 0 else {
                throw DERError("a length with a leading zero octet is not minimal (DER)", at: start + 1)
            }
            length = 0
            for offset in 0..<octets { length = length << 8 | Int(bytes[index + offset]) }
            guard length >= 0x80 else {
                throw DERError("the long form for length \(length) is not minimal (DER)", at: start + 1)
            }
            index += octets
        }
        guard length <= end - index else {
            throw DERError("length \(length) exceeds the \(end - index) bytes that remain", at: start)
        }
        position = index + length
        count += 1
        return DERElement(tag: tag, start: start, contentStart: index, end: index + length)
    }

    /// Reads the next element, which must have identifier octet `tag`.
    ///
    /// - Throws: ``DERError`` (`expected a SEQUENCE, found an INTEGER`) or any error of ``readElement()``.
    @inline(__always)
    package mutating func readElement(tag: UInt8) throws(DERError) -> DERElement {
        if let found = nextTag, found != tag {
            throw DERError("expected \(Self.name(of: tag)), found \(Self.name(of: found))", at: position)
        }
        guard position < end else {
            throw DERError("expected \(Self.name(of: tag)), found the end of its container", at: position)
        }
        return try readElement()
    }

    /// Reads the next element if its identifier octet is `tag`; `nil` (nothing read) otherwise.
    package mutating func readOptionalElement(tag: UInt8) throws(DERError) -> DERElement? {
        guard nextTag == tag else { return nil }
        return try readElement()
    }

    /// Reads a SEQUENCE and returns a reader over its elements.
    @inline(__always)
    package mutating func readSequence() throws(DERError) -> DERReader {
        try nested(in: readElement(tag: 0x30))
    }

    /// Reads a SET (or SET OF) and returns a reader over its elements.
    @inline(__always)
    package mutating func readSet() throws(DERError) -> DERReader {
        try nested(in: readElement(tag: 0x31))
    }

    /// Reads an INTEGER whose contents are minimal two's complement (X.690 §8.3.2), of any size.
    @inline(__always)
    package mutating func readIntegerElement() throws(DERError) -> DERElement {
        let element = try readElement(tag: 0x02)
        try checkInteger(element)
        return element
    }

    /// Succeeds when `element`'s contents are a minimal two's complement integer (X.690 §8.3.2).
    @inline(__always)
    private func checkInteger(_ element: DERElement) throws(DERError) {
        guard element.length > 0 else { throw DERError("an INTEGER with no contents", at: element.start) }
        if element.length > 1 {
            let first = bytes[element.contentStart]
            let second = bytes[element.contentStart + 1]
            guard !(first == 0x00 && second & 0x80 == 0) && !(first == 0xFF && second & 0x80 != 0) else {
                throw DERError("an INTEGER with a redundant leading octet (not minimal)", at: element.contentStart)
            }
        }
    }

    /// Succeeds when a primitive universal element's contents follow DER where OpenSSL, re-encoding what it
    /// parsed, would write other bytes: a BOOLEAN is one octet 0x00 or 0xFF (X.690 §11.1); an INTEGER or
    /// ENUMERATED is minimal (§8.3.2); a BIT STRING has an initial octet of 0 to 7 unused bits, 0 when it is
    /// alone, and those unused bits zero (§11.2); a NULL is empty (§8.8).
    private func checkPrimitive(_ element: DERElement) throws(DERError) {
        let length = element.length
        switch element.tag {
        case 0x01:
            guard length == 1, bytes[element.contentStart] == 0x00 || bytes[element.contentStart] == 0xFF else {
                throw DERError("a BOOLEAN that is not one octet 0x00 or 0xFF (DER)", at: element.start)
            }
        case 0x02, 0x0A:
            try checkInteger(element)
        case 0x03:
            guard length > 0, bytes[element.contentStart] <= 7, length > 1 || bytes[element.contentStart] == 0 else {
                throw DERError("a BIT STRING with a bad unused-bits octet", at: element.start)
            }
            let unused = bytes[element.contentStart]
            guard bytes[element.end - 1] & ((UInt8(1) << unused) &- 1) == 0 else {
                throw DERError("a BIT STRING whose unused bits are not zero (DER)", at: element.end - 1)
            }
        case 0x05:
            guard length == 0 else { throw DERError("a NULL with contents", at: element.start) }
        default:
            break
        }
    }

    /// Reads a minimal INTEGER that fits in `Int64`.
    @inline(__always)
    package mutating func readInteger() throws(DERError) -> Int64 {
        let element = try readIntegerElement()
        guard element.length <= 8 else {
            throw DERError("an INTEGER of \(element.length) octets, beyond 64 bits", at: element.start)
        }
        var value: Int64 = bytes[element.contentStart] & 0x80 != 0 ? -1 : 0
        for index in element.contents { value = value << 8 | Int64(bytes[index]) }
        return value
    }

    /// Reads a primitive OCTET STRING.
    @inline(__always)
    package mutating func readOctetString() throws(DERError) -> DERElement {
        try readElement(tag: 0x04)
    }

    /// Reads a UTF8String whose contents are well-formed UTF-8.
    package mutating func readUTF8String() throws(DERError) -> String {
        let element = try readElement(tag: 0x0C)
        guard let text = ByteScanning.string(validatingUTF8: bytes[element.contents]) else {
            throw DERError("a UTF8String that is not valid UTF-8", at: element.contentStart)
        }
        return text
    }

    /// Reads an IA5String (bytes 0x00 to 0x7F) and returns its contents.
    package mutating func readIA5StringElement() throws(DERError) -> DERElement {
        let element = try readElement(tag: 0x16)
        if let index = element.contents.first(where: { bytes[$0] > 0x7F }) {
            throw DERError("an IA5String with the non-ASCII byte 0x\(Self.hex(bytes[index]))", at: index)
        }
        return element
    }

    /// Reads an IA5String as text.
    package mutating func readIA5String() throws(DERError) -> String {
        let element = try readIA5StringElement()
        return String(decoding: bytes[element.contents], as: UTF8.self)
    }

    /// Reads an OBJECT IDENTIFIER whose sub-identifiers are minimal base-128 (X.690 §8.19) and returns it;
    /// compare ``DERElement/contents`` with an OID's encoded contents.
    package mutating func readObjectIdentifier() throws(DERError) -> DERElement {
        let element = try readElement(tag: 0x06)
        guard element.length > 0 else { throw DERError("an OBJECT IDENTIFIER with no contents", at: element.start) }
        var startsSubidentifier = true
        for index in element.contents {
            guard !(startsSubidentifier && bytes[index] == 0x80) else {
                throw DERError("an OBJECT IDENTIFIER sub-identifier with a leading 0x80 (not minimal)", at: index)
            }
            startsSubidentifier = bytes[index] & 0x80 == 0
        }
        guard startsSubidentifier else {
            throw DERError("an OBJECT IDENTIFIER whose last sub-identifier is unfinished", at: element.end - 1)
        }
        return element
    }

    /// Reads a NULL (`05 00`).
    package mutating func readNull() throws(DERError) {
        let element = try readElement(tag: 0x05)
        guard element.length == 0 else { throw DERError("a NULL with contents", at: element.start) }
    }

    /// The identifier octet of context-specific tag `[number]`, constructed or primitive (`number` below 31).
    package static func contextTag(_ number: UInt8, constructed: Bool) -> UInt8 {
        (constructed ? 0xA0 : 0x80) | (number & 0x1F)
    }

    /// Reads the context-specific element `[number]`.
    package mutating func readContext(_ number: UInt8, constructed: Bool) throws(DERError) -> DERElement {
        try readElement(tag: Self.contextTag(number, constructed: constructed))
    }

    /// Walks every element nested in `element` and checks the tag and length rules at every level, and that no
    /// universal type other than SEQUENCE and SET is in constructed form, or SEQUENCE or SET in primitive form.
    ///
    /// Of primitive elements, the contents of BOOLEAN, INTEGER, ENUMERATED, BIT STRING and NULL are checked too
    /// (the DER rules OpenSSL's re-encoding would otherwise rewrite: a certificate's signature BIT STRING with
    /// non-zero unused bits comes out of OpenSSL with them cleared); other contents are not looked into. Used to
    /// make sure that a whole structure (a Name, a certificate) is strict DER before its bytes are compared or
    /// handed on.
    package func validateTree(_ element: DERElement) throws(DERError) {
        let tag = element.tag
        if tag & 0xC0 == 0 {
            let isSequenceOrSet = tag & 0x1F == 0x10 || tag & 0x1F == 0x11
            guard isSequenceOrSet == element.isConstructed else {
                throw DERError("\(Self.name(of: tag)) in a form that DER forbids", at: element.start)
            }
            if !element.isConstructed { try checkPrimitive(element) }
        }
        guard element.isConstructed else { return }
        var reader = try nested(in: element)
        while !reader.isAtEnd {
            let child = try reader.readElement()
            try reader.validateTree(child)
        }
    }

    /// A name for an identifier octet, for messages: `a SEQUENCE`, `an INTEGER`, `tag [0]`, `tag 0x13`.
    package static func name(of tag: UInt8) -> String {
        switch tag {
        case 0x01: return "a BOOLEAN"
        case 0x02: return "an INTEGER"
        case 0x03: return "a BIT STRING"
        case 0x04: return "an OCTET STRING"
        case 0x05: return "a NULL"
        case 0x06: return "an OBJECT IDENTIFIER"
        case 0x0C: return "a UTF8String"
        case 0x16: return "an IA5String"
        case 0x30: return "a SEQUENCE"
        case 0x31: return "a SET"
        case 0x24: return "a constructed OCTET STRING"
        case 0x2C: return "a constructed UTF8String"
        case 0x36: return "a constructed IA5String"
        default:
            if tag & 0xC0 == 0x80 {
                return "tag [\(tag & 0x1F)]" + (tag & 0x20 != 0 ? " (constructed)" : " (primitive)")
            }
            return "tag 0x\(hex(tag))"
        }
    }

    /// Two uppercase hex digits.
    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
