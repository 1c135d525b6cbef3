import Foundation

/// Numbers a source writes as text (`{"id": "3"}`), as APIs do whose IDs outgrow the 2^53 a JSON
/// number holds exactly in most parsers. Text counts as a number when it is written as a JSON
/// number (digits, an optional `-`, fraction and exponent; leading zeros allowed; no spaces, no
/// `+`, no `inf` or `nan`), and converts under the same rules as a JSON number: a whole number must
/// be whole and fit its type exactly ("3.0" fits an `Int`, "3.5" does not), a floating-point value
/// is the nearest one to the text, and one too large for its type is refused.
@usableFromInline
enum ImportNumberText {
    /// Whether `text` is written as a number.
    static func isNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Bool {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count > 0
        }
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    /// The whole number `text` writes, when it fits `T` exactly.
    @usableFromInline
    static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type = T.self) -> T? {
        // Digits alone (the usual ID) parse directly, exactly, with overflow checked.
        if let value = T(text, radix: 10), text.utf8.first != UInt8(ascii: "+") { return value }
        guard isNumber(text), var decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), decimal.isFinite else { return nil }
        var whole = Decimal()
        NSDecimalRound(&whole, &decimal, 0, .plain)
        guard whole == decimal, let value = Int64(exactly: NSDecimalNumber(decimal: whole).int64Value), Decimal(value) == whole else { return nil }
        return T(exactly: value)
    }

    /// The `Double` nearest to the number `text` writes; nil when it is not a number or too large.
    @usableFromInline
    static func double(_ text: String) -> Double? {
        guard isNumber(text), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The `Float` nearest to the number `text` writes; nil when it is not a number or too large.
    @usableFromInline
    static func float(_ text: String) -> Float? {
        guard isNumber(text), let value = Float(text), value.isFinite else { return nil }
        return value
    }
}
