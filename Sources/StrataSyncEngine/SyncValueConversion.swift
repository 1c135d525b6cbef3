import Strata
import StrataSyncCore

extension SyncValue {
    /// A stored value as it travels: the same value, kind for kind.
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }

    /// The value as the store keeps it.
    var stored: SQLValue {
        switch self {
        case .null: return .null
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case .text(let text): return .text(text)
        case .blob(let bytes): return .blob(bytes)
        }
    }

    /// What is wrong with this value for `attribute`, in words; nil when it fits.
    func problem(for attribute: AttributeDescription) -> String? {
        if case .null = self {
            return attribute.isOptional ? nil : "must not be null"
        }
        switch (attribute.type, self) {
        case (.bool, .integer(let value)):
            return value == 0 || value == 1 ? nil : "must be 0 or 1 (a Bool), not \(value)"
        case (.int16, .integer(let value)):
            return Int16(exactly: value) == nil ? "must fit an Int16, not \(value)" : nil
        case (.int32, .integer(let value)):
            return Int32(exactly: value) == nil ? "must fit an Int32, not \(value)" : nil
        case (.int64, .integer), (.int, .integer):
            return nil
        case (.double, .real), (.date, .real):
            return nil
        case (.float, .real(let value)):
            return value.isFinite && Float(value).isInfinite ? "must fit a Float, not \(value)" : nil
        case (.string, .text), (.url, .text), (.decimal, .text):
            return nil
        case (.data, .blob):
            return nil
        case (.uuid, .blob(let bytes)):
            return bytes.count == 16 ? nil : "must be 16 bytes (a UUID), not \(bytes.count)"
        case (.codable, .blob), (.codable, .text):
            return nil
        default:
            return "must be \(Self.kind(of: attribute.type)) (\(attribute.type.rawValue)), not \(kindName)"
        }
    }

    /// The kind of value an attribute type travels as, in words.
    private static func kind(of type: AttributeType) -> String {
        switch type {
        case .bool, .int16, .int32, .int64, .int: return "a whole number"
        case .double, .float, .date: return "a real ({\"real\": …})"
        case .string, .url, .decimal: return "text"
        case .data, .uuid: return "bytes ({\"base64\": …})"
        case .codable: return "bytes or text"
        }
    }

    /// This value's kind, in words.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .integer: return "a whole number"
        case .real: return "a real"
        case .text: return "text"
        case .blob: return "bytes"
        }
    }
}
