import Foundation

/// The coding key of generated snapshots: a property name, written as a string literal.
///
/// Generated `Snapshot` types implement `Codable` with this key and the container methods below,
/// each with one generic candidate, instead of letting the compiler synthesise a `CodingKeys` enum
/// and a call per property into `decode`'s many overloads: the same JSON, at a fraction of the
/// type-checking cost in a model with hundreds of entities.
public struct SnapshotKey: CodingKey, ExpressibleByStringLiteral, Sendable {
    /// The property name.
    public let stringValue: String
    /// Snapshot keys are never integers.
    public var intValue: Int? { nil }

    /// A key for a property name.
    public init(stringValue: String) { self.stringValue = stringValue }
    /// Snapshot keys are never integers.
    public init?(intValue: Int) { nil }
    /// A key for a property name, written as a literal.
    public init(stringLiteral value: String) { stringValue = value }
}

extension KeyedDecodingContainer where K == SnapshotKey {
    /// The value stored under `key`; throws when it is missing or of another type.
    public func decodeValue<T: Decodable>(_ key: SnapshotKey) throws -> T {
        try decode(T.self, forKey: key)
    }

    /// The value stored under `key`, or nil when the key is missing or null.
    public func decodeOptionalValue<T: Decodable>(_ key: SnapshotKey) throws -> T? {
        try decodeIfPresent(T.self, forKey: key)
    }

    /// A `coder: custom` attribute's value: the bytes stored under `key`, through the app's
    /// `decode`, so the attribute's type need not be `Decodable`.
    public func decodeCustom<T>(_ key: SnapshotKey, decode: (Data) throws -> T) throws -> T {
        try decode(self.decode(Data.self, forKey: key))
    }

    /// A `coder: custom` attribute's value, or nil when the key is missing or null.
    public func decodeOptionalCustom<T>(_ key: SnapshotKey, decode: (Data) throws -> T) throws -> T? {
        try decodeIfPresent(Data.self, forKey: key).map(decode)
    }
}

extension KeyedEncodingContainer where K == SnapshotKey {
    /// Stores `value` under `key`.
    public mutating func encodeValue<T: Encodable>(_ value: T, _ key: SnapshotKey) throws {
        try refuseDecimalNaN(value, key)
        try encode(value, forKey: key)
    }

    /// Stores `value` under `key`, or nothing when it is nil.
    public mutating func encodeOptionalValue<T: Encodable>(_ value: T?, _ key: SnapshotKey) throws {
        if let value { try refuseDecimalNaN(value, key) }
        try encodeIfPresent(value, forKey: key)
    }

    /// A `Decimal` NaN has no JSON form, and Foundation's `JSONEncoder` writes a bare `NaN`, which
    /// no JSON reader takes: it is refused by name instead.
    private func refuseDecimalNaN<T: Encodable>(_ value: T, _ key: SnapshotKey) throws {
        guard T.self == Decimal.self, let decimal = value as? Decimal, decimal.isNaN else { return }
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath + [key], debugDescription: "'\(key.stringValue)' is a Decimal NaN, which has no JSON form"))
    }

    /// Stores a `coder: custom` attribute's value under `key` as the bytes the app's `encode`
    /// makes of it, as the store keeps it.
    public mutating func encodeCustom<T>(_ value: T, _ key: SnapshotKey, encode: (T) throws -> Data) throws {
        try self.encode(encode(value), forKey: key)
    }

    /// Stores a `coder: custom` attribute's value as its bytes, or nothing when it is nil.
    public mutating func encodeOptionalCustom<T>(_ value: T?, _ key: SnapshotKey, encode: (T) throws -> Data) throws {
        try encodeIfPresent(value.map(encode), forKey: key)
    }
}
