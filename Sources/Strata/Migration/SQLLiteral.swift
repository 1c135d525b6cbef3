import Foundation

/// A stored value written into SQL text as a literal.
///
/// Only for DDL: `ALTER TABLE ... ADD COLUMN ... DEFAULT` cannot take a bound parameter, and it is
/// what lets a column be added to a table of a million rows without rewriting them. Everything else
/// binds its values. Text is quoted with embedded quotes doubled, bytes are written as hex, and
/// numbers in a form SQLite reads back exactly, so no model value can change the statement.
enum SQLLiteral {
    /// The literal of a value, or nil for one SQL text cannot carry exactly: a real number that is
    /// NaN, infinite or -0.0 (SQLite reads `-0.0` as 0), or text holding a NUL character.
    static func literal(_ value: SQLValue) -> String? {
        switch value {
        case .null:
            return "NULL"
        case .integer(let number):
            return String(number)
        case .real(let number):
            guard number.isFinite, !(number == 0 && number.sign == .minus) else { return nil }
            // Swift's description is the shortest text that reads back as the same Double.
            let text = "\(number)"
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .text(let text):
            guard !text.utf8.contains(0) else { return nil }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            return "X'" + hex(bytes) + "'"
        }
    }

    /// Bytes as uppercase hexadecimal digits, two per byte.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
