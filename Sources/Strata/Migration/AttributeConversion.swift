/// How a stored value of one attribute type becomes a value of another during an inferred step:
/// only changes that lose nothing are inferred; any other needs a custom step.
enum AttributeConversion: Sendable, Hashable {
    /// The stored form is the same.
    case none
    /// `CAST(value AS REAL)`.
    case toReal
    /// `CAST(value AS TEXT)`.
    case toText

    /// The conversion from `old` to `new`, or nil when it could lose information.
    init?(from old: AttributeType, to new: AttributeType) {
        if old == new { self = .none; return }
        switch (Self.integerRank(old), Self.integerRank(new)) {
        case (let from?, let to?):
            guard from <= to else { return nil }
            self = .none
            return
        case (let from?, nil):
            switch new {
            case .double: self = .toReal
            // A Float holds every integer of up to 24 bits exactly.
            case .float where from <= Self.integerRank(.int16)!: self = .toReal
            case .string, .decimal: self = .toText
            default: return nil
            }
            return
        default:
            break
        }
        switch (old, new) {
        case (.float, .double), (.date, .double), (.double, .date), (.decimal, .string), (.url, .string), (.uuid, .data):
            self = .none
        default:
            return nil
        }
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

    /// The expression reading `column` in the new type.
    func apply(to column: String) -> String {
        switch self {
        case .none: return column
        case .toReal: return "CAST(" + column + " AS REAL)"
        case .toText: return "CAST(" + column + " AS TEXT)"
        }
    }
}
