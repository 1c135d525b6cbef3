/// Reads JSON a token at a time, straight from bytes, for the sync messages a node receives in
/// bulk (see ``SyncJSONWriter``). It accepts what RFC 8259 calls JSON, skips fields it does not
/// know (as `JSONDecoder` does) and throws a ``SyncProtocolError`` naming the byte where the
/// input went wrong; it never reads past the input or nests deeper than ``deepest``.
struct SyncJSONReader {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var offset = 0
    private var depth = 0
    /// The last timestamp read and where its literal is: a state's attributes mostly share one.
    private var lastTimestamp: (literal: Range<Int>, stamp: SyncTimestamp)?

    /// The deepest nesting of objects and arrays it reads.
    static let deepest = 64

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Structure

    /// Throws unless only white space is left.
    mutating func end() throws(SyncProtocolError) {
        skipSpace()
        guard offset == bytes.count else { throw malformed("the end of the JSON") }
    }

    /// Reads an object, calling `field` with each key, positioned at its value, which `field`
    /// must read (or skip).
    mutating func object(_ field: (inout SyncJSONReader, String) throws(SyncProtocolError) -> Void) throws(SyncProtocolError) {
        try open(UInt8(ascii: "{"), "an object")
        defer { depth -= 1 }
        if try closes(UInt8(ascii: "}")) { return }
        repeat {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw malformed("a field name") }
            let name = try string()
            skipSpace()
            guard take(UInt8(ascii: ":")) else { throw malformed("':'") }
            try field(&self, name)
        } while try next(closing: UInt8(ascii: "}"), "',' or '}'")
    }

    /// Reads an array, calling `element` positioned at each element, which it must read.
    mutating func array(_ element: (inout SyncJSONReader) throws(SyncProtocolError) -> Void) throws(SyncProtocolError) {
        try open(UInt8(ascii: "["), "an array")
        defer { depth -= 1 }
        if try closes(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while try next(closing: UInt8(ascii: "]"), "',' or ']'")
    }

    /// Reads `null` if it comes next; true when it did.
    mutating func null() -> Bool {
        skipSpace()
        guard bytes[offset...].starts(with: Self.nullWord) else { return false }
        offset += 4
        return true
    }

    /// Skips one value of any kind.
    mutating func skipValue() throws(SyncProtocolError) {
        skipSpace()
        switch peek {
        case UInt8(ascii: "{"): try object { reader, _ throws(SyncProtocolError) in try reader.skipValue() }
        case UInt8(ascii: "["): try array { reader throws(SyncProtocolError) in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try word(Self.trueWord)
        case UInt8(ascii: "f"): try word(Self.falseWord)
        case UInt8(ascii: "n"): try word(Self.nullWord)
        default: _ = try number()
        }
    }

    private mutating func open(_ bracket: UInt8, _ what: String) throws(SyncProtocolError) {
        skipSpace()
        guard peek == bracket else { throw malformed(what) }
        guard depth < Self.deepest else { throw SyncProtocolError("the JSON nests deeper than \(Self.deepest) levels at byte \(offset)") }
        offset += 1
        depth += 1
    }

    private mutating func closes(_ bracket: UInt8) throws(SyncProtocolError) -> Bool {
        skipSpace()
        return take(bracket)
    }

    private mutating func next(closing bracket: UInt8, _ what: String) throws(SyncProtocolError) -> Bool {
        skipSpace()
        if take(UInt8(ascii: ",")) { return true }
        if take(bracket) { return false }
        throw malformed(what)
    }

    private mutating func word(_ expected: [UInt8]) throws(SyncProtocolError) {
        guard bytes[offset...].starts(with: expected) else { throw malformed("a value") }
        offset += expected.count
    }

    private static let nullWord = Array("null".utf8)
    private static let trueWord = Array("true".utf8)
    private static let falseWord = Array("false".utf8)

    // MARK: Scalars

    /// Reads a string, its escapes decoded.
    mutating func string() throws(SyncProtocolError) -> String {
        skipSpace()
        guard take(UInt8(ascii: "\"")) else { throw malformed("a string") }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return try text(bytes[start..<offset - 1], at: start)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw malformed("no control character in a string") }
            offset += 1
        }
        throw malformed("the string's closing '\"'")
    }

    private mutating func escapedString(from start: Int) throws(SyncProtocolError) -> String {
        var decoded = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return try text(decoded[...], at: start)
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { break }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): decoded.append(contentsOf: try unicodeEscape())
                default:
                    offset -= 1
                    throw malformed("an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u)")
                }
            case 0..<0x20:
                offset -= 1
                throw malformed("no control character in a string")
            default: decoded.append(byte)
            }
        }
        throw malformed("the string's closing '\"'")
    }

    /// Reads the hex of a `\u` escape (and of its low surrogate, if it is a high one); returns
    /// the character's UTF-8.
    private mutating func unicodeEscape() throws(SyncProtocolError) -> [UInt8] {
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else { throw malformed("a low surrogate escape") }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw malformed("a low surrogate escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let character = Unicode.Scalar(scalar) else { throw malformed("a Unicode scalar, not a lone surrogate") }
        return Array(String(Character(character)).utf8)
    }

    private mutating func hexQuad() throws(SyncProtocolError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = Self.hexValue(bytes[offset]) else { throw malformed("four hex digits") }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func text(_ utf8: ArraySlice<UInt8>, at start: Int) throws(SyncProtocolError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw SyncProtocolError("the JSON's string at byte \(start - 1) is not valid UTF-8")
        }
        return text
    }

    /// Reads a whole number (no fraction, no exponent) that fits 64 bits.
    mutating func integer() throws(SyncProtocolError) -> Int64 {
        skipSpace()
        let start = offset
        let negative = take(UInt8(ascii: "-"))
        var magnitude: UInt64 = 0
        var digits = 0
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(bytes[offset] - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { throw outOfRange(from: start) }
            magnitude = sum
            digits += 1
            offset += 1
        }
        guard digits > 0, digits == 1 || bytes[start + (negative ? 1 : 0)] != UInt8(ascii: "0") else {
            offset = start
            throw malformed("a whole number")
        }
        if offset < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[offset]) {
            offset = start
            throw malformed("a whole number")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw outOfRange(from: start) }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw outOfRange(from: start) }
        return Int64(magnitude)
    }

    /// Reads a number, as RFC 8259 writes them.
    mutating func number() throws(SyncProtocolError) -> Double {
        skipSpace()
        let start = offset
        _ = take(UInt8(ascii: "-"))
        let integral = digits()
        guard integral > 0, integral == 1 || bytes[offset - integral] != UInt8(ascii: "0") else {
            offset = start
            throw malformed("a number")
        }
        if take(UInt8(ascii: ".")) {
            guard digits() > 0 else { throw malformed("a digit after '.'") }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw malformed("an exponent's digits") }
        }
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)), value.isFinite else {
            throw outOfRange(from: start)
        }
        return value
    }

    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        return offset - start
    }

    /// What the next byte is, after white space; nil at the end.
    mutating func peekValue() -> UInt8? {
        skipSpace()
        return peek
    }

    /// The last timestamp read, when the literal at the offset repeats it byte for byte; the
    /// reader then stands after it.
    mutating func repeatedTimestamp() -> SyncTimestamp? {
        guard let last = lastTimestamp, bytes[offset...].starts(with: bytes[last.literal]) else { return nil }
        offset += last.literal.count
        return last.stamp
    }

    /// Remembers the timestamp whose literal starts at `start` and ends before the offset.
    mutating func rememberTimestamp(_ stamp: SyncTimestamp, from start: Int) {
        lastTimestamp = (start..<offset, stamp)
    }

    // MARK: Bytes

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
            default: return
            }
        }
    }

    /// An error saying what was expected at the current byte.
    func malformed(_ expected: String) -> SyncProtocolError {
        guard offset < bytes.count else { return SyncProtocolError("the JSON ends early; expected \(expected) at byte \(offset)") }
        return SyncProtocolError("the JSON is malformed at byte \(offset); expected \(expected)")
    }

    private func outOfRange(from start: Int) -> SyncProtocolError {
        SyncProtocolError("the number at byte \(start) is out of range")
    }
}
