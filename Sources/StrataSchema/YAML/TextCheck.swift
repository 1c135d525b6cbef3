/// Checks a file's bytes before libyaml sees them, so encoding problems get a precise position.
enum TextCheck {
    /// The first invalid UTF-8 sequence or forbidden control character, as a diagnostic.
    static func firstProblem(in bytes: [UInt8], file: String) -> Diagnostic? {
        // Most model files are printable ASCII, tabs and line breaks only: nothing to decode, so a
        // plain byte loop clears them (decoding each byte was a twentieth of reading a large model).
        let isPlainText = bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer where byte >= 0x7F || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) { return false }
            return true
        }
        if isPlainText { return nil }
        var line = 1
        var column = 1
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            guard let (scalar, length) = decode(bytes, at: index) else {
                let hex = String(lead, radix: 16, uppercase: true)
                let message = "file is not valid UTF-8 (byte 0x\(hex.count == 1 ? "0" + hex : hex) at offset \(index))"
                return Diagnostic(.error, at: SourceLocation(file: file, line: line, column: column), message)
            }
            if isForbidden(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                let message = "control character U+\(padded) is not allowed in a YAML file"
                return Diagnostic(.error, at: SourceLocation(file: file, line: line, column: column), message)
            }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    /// The line and column of a byte offset (for libyaml reader errors, which give offsets).
    static func location(ofByte offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        while index < min(offset, bytes.count) {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// The first byte of the character at a 0-based line and column (columns count scalars).
    static func character(atLine line: Int, column: Int, in bytes: [UInt8]) -> UInt8? {
        var currentLine = 0
        var currentColumn = 0
        for byte in bytes {
            if currentLine == line, currentColumn == column { return byte }
            if byte == UInt8(ascii: "\n") {
                if currentLine == line { return nil }
                currentLine += 1
                currentColumn = 0
            } else if byte & 0xC0 != 0x80 {
                currentColumn += 1
            }
        }
        return nil
    }

    /// YAML allows tab, line feed, carriage return and printable characters only.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00...0x1F, 0x7F: return true
        case 0x80...0x9F: return scalar.value != 0x85
        case 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// Decodes one scalar, rejecting overlong forms, surrogates and values past U+10FFFF.
    private static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
