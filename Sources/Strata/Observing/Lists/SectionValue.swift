/// A section's key as SQLite compares it: two values are one section exactly when SQLite's
/// BINARY comparison finds them equal (Swift's `String ==` would also join canonically
/// equivalent texts that SQLite keeps apart).
struct SectionValue: Hashable, Sendable {
    let value: SQLValue

    static func == (lhs: SectionValue, rhs: SectionValue) -> Bool {
        SQLiteOrdering.compare(lhs.value, rhs.value) == 0
    }

    func hash(into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .integer(let integer): hasher.combine(Double(integer))
        case .real(let real): hasher.combine(real)
        case .text(let text): hasher.combine(2); for byte in text.utf8 { hasher.combine(byte) }
        case .blob(let bytes): hasher.combine(3); hasher.combine(bytes)
        }
    }

    /// The section's identifier: the value as text (numbers in Swift's shortest exact form,
    /// blobs in hex), nil for NULL and for the one section of a plain list.
    var identifier: String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text
        case .blob(let bytes): return bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        }
    }
}
