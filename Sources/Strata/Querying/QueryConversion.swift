import Foundation

/// How `queryValue` turns a term's value into the type asked for, following the conversions
/// CoreStore's queries make (through `NSNumber`, and casts that fail as nil):
///
/// | the term's value | numbers and `Bool` | `Decimal` | `String` | `Date` | `Data` |
/// |---|---|---|---|---|---|
/// | `count` | yes | nil | nil | nil | nil |
/// | `sum`, `average` of a number or `Bool` (`sum` of a `Bool` counts the true values) | yes | nil | nil | nil | nil |
/// | `sum`, `average` of a `Decimal` | yes | yes | nil | nil | nil |
/// | `sum`, `average` of text, a date or data | nil | nil | nil | nil | nil |
/// | an attribute, `minimum`, `maximum` of a number or `Bool` | yes | nil | nil | nil | nil |
/// | the same of a `Decimal` | yes | yes | nil | nil | nil |
/// | the same of text, a date, data | nil | nil | text only | dates only | data only |
///
/// A number becomes an integer type by dropping its fraction (an average of 3.5 is 3, as in
/// CoreStore) and `Bool` is true when it is not zero; a number that does not fit the integer type
/// asked for is nil (CoreStore would wrap it). Other types (`UUID`, `URL`, the app's own) read an
/// attribute, `minimum` or `maximum` of their own kind.
enum QueryConversion {
    /// What a term's value is, or what a type asked for reads.
    enum Kind: Equatable {
        case number, decimal, text, date, data, other
        /// An aggregate no type reads (the sum of text, the average of dates).
        case none

        init(_ type: Any.Type) {
            if type == Bool.self || type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type { self = .number }
            else if type == Decimal.self { self = .decimal }
            else if type == String.self { self = .text }
            else if type == Date.self { self = .date }
            else if type == Data.self { self = .data }
            else { self = .other }
        }
    }

    /// The kind of a term's value: `function` applied to an attribute whose kind is `attribute`.
    static func kind(of function: String, attribute: Kind) -> Kind {
        switch function {
        case "count": return .number
        case "sum", "average": return attribute == .number || attribute == .decimal ? attribute : .none
        case "objectID": return .other
        default: return attribute
        }
    }

    static func value<R: QueryableAttributeType>(_ value: SQLValue, kind: Kind, as type: R.Type) -> R? {
        if value.isNull { return nil }
        switch (Kind(R.self), kind) {
        case (.number, .number), (.number, .decimal):
            return number(value, as: type)
        case (.decimal, .decimal):
            if case .real(let real) = value { return Decimal(string: String(real)) as? R }
            return R(sqlValue: value)
        case (.text, .text), (.date, .date), (.data, .data), (.other, .other), (.other, .text):
            return R(sqlValue: value)
        default:
            return nil
        }
    }

    /// A number as `R`: exact when it can be, an integer type drops the fraction, `Bool` is
    /// non-zero; nil when it does not fit.
    private static func number<R: QueryableAttributeType>(_ value: SQLValue, as type: R.Type) -> R? {
        if R.self == Bool.self {
            switch value {
            case .integer(let integer): return (integer != 0) as? R
            case .real(let real): return (real != 0) as? R
            case .text(let text): return Double(text).map { $0 != 0 } as? R
            default: return nil
            }
        }
        if let direct = R(sqlValue: value) { return direct }
        let real: Double
        switch value {
        case .integer(let integer): return R(sqlValue: .real(Double(integer)))
        case .real(let number): real = number
        case .text(let text):
            guard let number = Double(text) else { return nil }
            real = number
        default: return nil
        }
        if R(sqlValue: .real(real)) == nil, let whole = Int64(exactly: real.rounded(.towardZero)) {
            return R(sqlValue: .integer(whole))
        }
        return R(sqlValue: .real(real))
    }
}
