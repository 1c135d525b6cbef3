import Foundation

/// A type that says how its values are written in JSON, in the words a ``PayloadError`` uses for
/// what a field must be (`a temperature in kelvin`). Types that do not are described by their JSON
/// form (an object, an array).
public protocol PayloadDescribable {
    /// What a value is in JSON, after "must be": `a number`, `text`.
    static var payloadKind: String { get }
}

/// What JSON a Swift type takes, and how to say so.
enum PayloadKind {
    /// The JSON kinds a value can be of.
    enum JSON: Equatable {
        case null, boolean, integer, number, text, object, array
    }

    /// What a value of `type` must be, in words, and its JSON kind (nil when it takes several).
    static func expected(_ type: Any.Type) -> (words: String, json: JSON?) {
        if let optional = type as? any OptionalPayload.Type { return expected(optional.wrappedType) }
        if let described = type as? any PayloadDescribable.Type { return (described.payloadKind, nil) }
        if type is any RowIDPayload.Type { return ("a row id (a whole number)", .integer) }
        switch type {
        case is Bool.Type: return ("true or false", .boolean)
        case is Int8.Type: return (whole(Int8.min, Int8.max), .integer)
        case is Int16.Type: return (whole(Int16.min, Int16.max), .integer)
        case is Int32.Type: return (whole(Int32.min, Int32.max), .integer)
        case is UInt8.Type: return (whole(UInt8.min, UInt8.max), .integer)
        case is UInt16.Type: return (whole(UInt16.min, UInt16.max), .integer)
        case is UInt32.Type: return (whole(UInt32.min, UInt32.max), .integer)
        case is Int64.Type, is Int.Type: return ("a whole number from -9223372036854775808 to 9223372036854775807", .integer)
        case is UInt64.Type, is UInt.Type: return ("a whole number from 0 to 18446744073709551615", .integer)
        case is Double.Type, is Float.Type, is Decimal.Type: return ("a number", .number)
        case is String.Type: return ("text", .text)
        case is Date.Type: return ("a date", nil)
        case is UUID.Type: return ("a UUID (text such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\")", .text)
        case is URL.Type: return ("a URL (text)", .text)
        case is Data.Type: return ("base64-encoded data (text)", nil)
        case is any ArrayPayload.Type: return ("an array", .array)
        default: return ("an object", .object)
        }
    }

    private static func whole(_ low: some BinaryInteger, _ high: some BinaryInteger) -> String {
        "a whole number from \(low) to \(high)"
    }
}

/// `Optional`, whatever it wraps: how ``PayloadKind`` describes an optional field by what it holds.
protocol OptionalPayload {
    static var wrappedType: Any.Type { get }
    /// This type's nil, as `Any`.
    static var nilValue: Any { get }
}

extension Optional: OptionalPayload {
    static var wrappedType: Any.Type { Wrapped.self }
    static var nilValue: Any { Optional<Wrapped>.none as Any }
}

/// ``ObjectID``, which JSON holds as its row id.
protocol RowIDPayload {}

extension ObjectID: RowIDPayload {}

/// `Array` and `Set`, which JSON holds as arrays.
protocol ArrayPayload {}

extension Array: ArrayPayload {}
extension Set: ArrayPayload {}

/// What a body held where a value did not decode, read again as plain JSON.
enum FoundValue: Decodable {
    case null
    case boolean(Bool)
    case number(String, whole: Bool)
    case text(String)
    case object
    case array

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let flag = try? single.decode(Bool.self) { self = .boolean(flag); return }
            if let whole = try? single.decode(Int64.self) { self = .number(String(whole), whole: true); return }
            if let number = try? single.decode(Decimal.self) {
                self = .number("\(number)", whole: number == number.rounded); return
            }
            if let number = try? single.decode(Double.self) { self = .number("\(number)", whole: false); return }
            if let text = try? single.decode(String.self) { self = .text(text); return }
        }
        if (try? decoder.container(keyedBy: SnapshotKey.self)) != nil { self = .object; return }
        self = .array
    }

    /// Its JSON kind.
    var json: PayloadKind.JSON {
        switch self {
        case .null: return .null
        case .boolean: return .boolean
        case .number(_, let whole): return whole ? .integer : .number
        case .text: return .text
        case .object: return .object
        case .array: return .array
        }
    }

    /// What was found, after "found": its kind, or, when it was the kind wanted (a number out of
    /// range, text that is not a UUID), the value itself.
    func described(against expected: PayloadKind.JSON?) -> String {
        switch self {
        case .number(let text, _) where expected == .integer || expected == .number: return text
        case .text(let text) where expected == .text: return "\"" + (text.count > 40 ? text.prefix(40) + "…" : text) + "\""
        case .null: return "null"
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(_, let whole): return whole ? "a whole number" : "a number"
        case .text: return "text"
        case .object: return "an object"
        case .array: return "an array"
        }
    }
}

private extension Decimal {
    /// The whole number nearest to it (toward zero).
    var rounded: Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, .down)
        return result
    }
}
