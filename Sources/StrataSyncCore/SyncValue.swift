import Foundation

/// An attribute's value as it syncs: its stored form (the runtime's `SQLValue`), or the global ID
/// of a to-one relationship's object as text. Values compare bit for bit, so a NaN equals itself
/// and every node agrees on what it holds.
///
/// In JSON: `null`, a whole number, text, `{"real": 1.5}` (`"nan"`, `"inf"` or `"-inf"` for the
/// values JSON has no number for) and `{"base64": "AAE="}`, so integers and reals never mix.
public enum SyncValue: Sendable {
    /// Nil.
    case null
    /// A whole number.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes.
    case blob([UInt8])
}

extension SyncValue: Hashable {
    /// Equal when of one kind and equal bit for bit.
    public static func == (lhs: SyncValue, rhs: SyncValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): return a == b
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    /// Hashes the kind and the bits.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .integer(let value): hasher.combine(1); hasher.combine(value)
        case .real(let value): hasher.combine(2); hasher.combine(value.bitPattern)
        case .text(let value): hasher.combine(3); hasher.combine(value)
        case .blob(let value): hasher.combine(4); hasher.combine(value)
        }
    }
}

/// A value and the timestamp of the write that set it; of two, the later write wins.
public struct StampedValue: Hashable, Sendable, Codable {
    /// The value.
    public var value: SyncValue
    /// When it was written.
    public var stamp: SyncTimestamp

    /// A value written at `stamp`.
    public init(_ value: SyncValue, at stamp: SyncTimestamp) {
        self.value = value
        self.stamp = stamp
    }

    /// The later of two writes.
    static func later(_ a: StampedValue?, _ b: StampedValue?) -> StampedValue? {
        guard let a else { return b }
        guard let b else { return a }
        return b.stamp > a.stamp ? b : a
    }
}

extension SyncValue: Codable {
    private enum Key: String, CodingKey {
        case real, base64
    }

    /// Reads the JSON form (see the type's documentation).
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let whole = try? single.decode(Int64.self) { self = .integer(whole); return }
            if let text = try? single.decode(String.self) { self = .text(text); return }
        }
        let container = try decoder.container(keyedBy: Key.self)
        if let bytes = try container.decodeIfPresent(String.self, forKey: .base64) {
            guard let data = Data(base64Encoded: bytes).map(Array.init) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: container, debugDescription: "not base64")
            }
            self = .blob(data)
            return
        }
        if let word = try? container.decode(String.self, forKey: .real) {
            switch word {
            case "nan": self = .real(.nan)
            case "inf": self = .real(.infinity)
            case "-inf": self = .real(-.infinity)
            default: throw DecodingError.dataCorruptedError(forKey: .real, in: container, debugDescription: "'\(word)' is not nan, inf or -inf")
            }
            return
        }
        self = .real(try container.decode(Double.self, forKey: .real))
    }

    /// Writes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .text(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .real(let value):
            var container = encoder.container(keyedBy: Key.self)
            if value.isNaN { try container.encode("nan", forKey: .real) }
            else if value.isInfinite { try container.encode(value > 0 ? "inf" : "-inf", forKey: .real) }
            else { try container.encode(value, forKey: .real) }
        case .blob(let bytes):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(Data(bytes).base64EncodedString(), forKey: .base64)
        }
    }
}
