/// How a stored value of one attribute type becomes a value of another during an inferred step:
/// only changes that lose nothing are inferred; any other needs a custom step. The sync engine
/// translates between versions by the same rule.
package struct AttributeConversion: Sendable, Hashable {
    /// The old attribute type.
    let old: AttributeType
    /// The new attribute type.
    let new: AttributeType

    /// The conversion from `old` to `new`, or nil when it could lose information.
    package init?(from old: AttributeType, to new: AttributeType) {
        self.old = old
        self.new = new
        if old == new { return }
        switch (Self.integerRank(old), Self.integerRank(new)) {
        case (let from?, let to?):
            guard from <= to else { return nil }
            return
        case (let from?, nil):
            switch new {
            case .double: return
            // A Float holds every integer of up to 24 bits exactly.
            case .float where from <= Self.integerRank(.int16)!: return
            case .string, .decimal: return
            default: return nil
            }
        default:
            break
        }
        switch (old, new) {
        case (.float, .double), (.date, .double), (.double, .date), (.decimal, .string), (.url, .string), (.uuid, .data):
            return
        default:
            return nil
        }
    }

    /// A foreign key or a position: 64-bit integers, copied as they are.
    static let unchanged = AttributeConversion(keeping: .int64)

    private init(keeping type: AttributeType) {
        old = type
        new = type
    }

    /// Whether the stored value is read as the new type unchanged, in `dialect`.
    func keepsStoredValue(in dialect: SQLDialect) -> Bool {
        dialect.cast("", from: old, to: new) == nil
    }

    /// Integer types by width: a value of a lower rank fits every higher one.
    private static func integerRank(_ type: AttributeType) -> Int? {
        switch type {
        case .bool: return 1
        case .int16: return 2
        case .int32: return 3
        case .int64, .int: return 4
        default: return nil
        }
    }

    /// The expression reading `column` in the new type, in `dialect`.
    func apply(to column: String, dialect: SQLDialect) -> String {
        dialect.cast(column, from: old, to: new) ?? column
    }
}
