import Foundation

/// Reads the XML of Core Data model files (`contents`, `.xccurrentversion`) into an ``XMLTree``.
///
/// It reads elements, attributes, text, CDATA sections and the five predefined and numeric
/// character references; it skips the declaration, processing instructions, comments and a
/// document type declaration. Anything else is an ``XMLError`` with its line and column: a
/// mismatched or missing end tag, a repeated attribute, an unknown entity, invalid UTF-8,
/// elements nested deeper than ``maximumDepth``. It never recurses, so no input can exhaust the stack.
public enum XMLReader {
    /// The deepest nesting of elements read.
    public static let maximumDepth = 256

    /// The document's root element.
    public static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLTree {
        var cursor = XMLCursor(bytes)
        return try cursor.document()
    }
}

/// A position in the bytes being read, with the line it is on.
struct XMLCursor {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
    }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// A position to report an error at later.
    struct Mark {
        let line: Int
        let column: Int
    }

    var mark: Mark { Mark(line: line, column: index - lineStart + 1) }

    func error(_ message: String) -> XMLError {
        error(message, at: mark)
    }

    func error(_ message: String, at mark: Mark) -> XMLError {
        XMLError(line: mark.line, column: mark.column, message: message)
    }

    mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    func looking(at text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return index + utf8.count <= bytes.count && bytes[index..<(index + utf8.count)].elementsEqual(utf8)
    }

    mutating func skip(_ text: String) {
        for _ in text.utf8 { advance() }
    }

    mutating func expect(_ text: String) throws(XMLError) {
        guard looking(at: text) else { throw error("expected '\(text)'") }
        skip(text)
    }

    mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    /// Skips up to and past `terminator`.
    mutating func skip(past terminator: String, what: String) throws(XMLError) {
        while !atEnd {
            if looking(at: terminator) {
                skip(terminator)
                return
            }
            advance()
        }
        throw error("\(what) is not closed with '\(terminator)'")
    }

    /// The whole document: a prolog, one root element, and nothing but space, comments and
    /// processing instructions after it.
    mutating func document() throws(XMLError) -> XMLTree {
        try skipMisc(allowDoctype: true)
        guard current == UInt8(ascii: "<") else { throw error(atEnd ? "the file holds no element" : "expected '<'") }
        let root = try element()
        try skipMisc(allowDoctype: false)
        guard atEnd else { throw error("content after the root element") }
        return root
    }

    /// Skips space, comments, processing instructions and (before the root) a DOCTYPE.
    mutating func skipMisc(allowDoctype: Bool) throws(XMLError) {
        while true {
            skipSpace()
            if looking(at: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if looking(at: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if allowDoctype && looking(at: "<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// Skips `<!DOCTYPE ...>`, including an internal subset in brackets.
    mutating func skipDoctype() throws(XMLError) {
        var inSubset = false
        var quote: UInt8?
        while let byte = current {
            advance()
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">") && !inSubset {
                return
            }
        }
        throw error("a document type declaration is not closed with '>'")
    }

    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    mutating func name() throws(XMLError) -> String {
        let start = index
        let startMark = mark
        guard let first = current, Self.isNameByte(first, first: true) else { throw error("expected a name") }
        advance()
        while let byte = current, Self.isNameByte(byte, first: false) { advance() }
        return try text(bytes[start..<index], from: startMark)
    }

    /// Bytes as text; invalid UTF-8, or a control character XML does not allow (any below U+0020
    /// but tab, line feed and carriage return), is an error at `mark`, where the text starts.
    func text(_ slice: ArraySlice<UInt8>, from mark: Mark) throws(XMLError) -> String {
        guard let string = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8", at: mark) }
        if let control = string.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) {
            throw error("control character U+\(String(format: "%04X", control.value)) is not allowed in XML", at: mark)
        }
        return string
    }
}
