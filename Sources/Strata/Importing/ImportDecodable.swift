import Foundation

/// A type a generated `ImportPayload` decodes from one JSON value, with the same conversions as
/// `ImportConvertible` (whole and floating-point numbers from numbers or numeric text, dates from
/// ISO 8601 text or seconds since 1970, `Decimal` from numbers or text, `Data` from base64, `UUID`
/// and `URL` from text), whatever strategies the `JSONDecoder` was given.
public protocol ImportDecodable: ImportConvertible, Sendable, Hashable {
    /// The value the source holds, or nil when what is there does not fit.
    static func importDecode<Source: ImportScalarSource>(from source: Source) -> Self?
}

/// One JSON value being decoded: a single-value container, or a key of a keyed one. The scalar
/// types have their own requirements so that each reaches the decoder's fast path for it.
public protocol ImportScalarSource {
    /// The value as a `Bool`.
    func decode(_ type: Bool.Type) throws -> Bool
    /// The value as a `String`.
    func decode(_ type: String.Type) throws -> String
    /// The value as a `Double`.
    func decode(_ type: Double.Type) throws -> Double
    /// The value as a `Float`.
    func decode(_ type: Float.Type) throws -> Float
    /// The value as an `Int`.
    func decode(_ type: Int.Type) throws -> Int
    /// The value as an `Int16`.
    func decode(_ type: Int16.Type) throws -> Int16
    /// The value as an `Int32`.
    func decode(_ type: Int32.Type) throws -> Int32
    /// The value as an `Int64`.
    func decode(_ type: Int64.Type) throws -> Int64
    /// The value as any `Decodable`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T
}

/// The value of a single-value container.
struct SingleValueScalar: ImportScalarSource {
    let container: any SingleValueDecodingContainer
    func decode(_ type: Bool.Type) throws -> Bool { try container.decode(type) }
    func decode(_ type: String.Type) throws -> String { try container.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try container.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try container.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try container.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try container.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try container.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try container.decode(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try container.decode(type) }
}

/// The value at one key of a payload reader's keyed container. Not generic over the key: a
/// generic one was destroyed through its value witness, which looked up the container type's
/// metadata for every value read (a tenth of an import's instructions).
@usableFromInline
struct KeyedScalar: ImportScalarSource {
    @usableFromInline let container: KeyedDecodingContainer<ImportPayloadReader.NameKey>
    @usableFromInline let key: ImportPayloadReader.NameKey
    @inlinable init(container: KeyedDecodingContainer<ImportPayloadReader.NameKey>, key: ImportPayloadReader.NameKey) {
        self.container = container
        self.key = key
    }
    @inlinable func decode(_ type: Bool.Type) throws -> Bool { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: String.Type) throws -> String { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: Double.Type) throws -> Double { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: Float.Type) throws -> Float { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: Int.Type) throws -> Int { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: Int16.Type) throws -> Int16 { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: Int32.Type) throws -> Int32 { try container.decode(type, forKey: key) }
    @inlinable func decode(_ type: Int64.Type) throws -> Int64 { try container.decode(type, forKey: key) }
    @inlinable func decode<T: Decodable>(_ type: T.Type) throws -> T { try container.decode(type, forKey: key) }
}

extension String: ImportDecodable {
    /// The source's value as a `String`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> String? { try? source.decode(String.self) }
}

extension Bool: ImportDecodable {
    /// The source's value as a `Bool`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Bool? { try? source.decode(Bool.self) }
}

extension Int: ImportDecodable {
    /// The source's value as an `Int`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Int? {
        if let value = try? source.decode(Int.self) { return value }
        return (try? source.decode(String.self)).flatMap { ImportNumberText.integer($0, as: Int.self) }
    }
}

extension Int16: ImportDecodable {
    /// The source's value as an `Int16`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Int16? {
        if let value = try? source.decode(Int16.self) { return value }
        return (try? source.decode(String.self)).flatMap { ImportNumberText.integer($0, as: Int16.self) }
    }
}

extension Int32: ImportDecodable {
    /// The source's value as an `Int32`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Int32? {
        if let value = try? source.decode(Int32.self) { return value }
        return (try? source.decode(String.self)).flatMap { ImportNumberText.integer($0, as: Int32.self) }
    }
}

extension Int64: ImportDecodable {
    /// The source's value as an `Int64`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Int64? {
        if let value = try? source.decode(Int64.self) { return value }
        return (try? source.decode(String.self)).flatMap { ImportNumberText.integer($0, as: Int64.self) }
    }
}

extension Double: ImportDecodable {
    /// The source's value as a `Double`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Double? {
        if let value = try? source.decode(Double.self) { return value }
        return (try? source.decode(String.self)).flatMap(ImportNumberText.double)
    }
}

extension Float: ImportDecodable {
    /// The source's value as a `Float`, or nil when it does not convert.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Float? {
        if let value = try? source.decode(Float.self) { return value }
        return (try? source.decode(String.self)).flatMap(ImportNumberText.float)
    }
}

extension Decimal: ImportDecodable {
    /// Decimal text, or a JSON number.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Decimal? {
        if let text = try? source.decode(String.self) { return Decimal(importValue: text) }
        return try? source.decode(Decimal.self)
    }
}

extension Date: ImportDecodable {
    /// Seconds since 1970, or ISO 8601 text.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Date? {
        if let seconds = try? source.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
        guard let text = try? source.decode(String.self) else { return nil }
        return Date(importValue: text)
    }
}

extension UUID: ImportDecodable {
    /// UUID text.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> UUID? {
        guard let text = try? source.decode(String.self) else { return nil }
        return UUID(uuidString: text)
    }
}

extension URL: ImportDecodable {
    /// URL text.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> URL? {
        guard let text = try? source.decode(String.self) else { return nil }
        return URL(string: text)
    }
}

extension Data: ImportDecodable {
    /// Base64 text.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Data? {
        guard let text = try? source.decode(String.self) else { return nil }
        return Data(base64Encoded: text)
    }
}

extension Never: ImportDecodable {
    /// Nothing converts to `Never`: the ID type of an entity without a unique ID.
    public init?(importValue raw: Any) { return nil }

    /// Never fits.
    public static var importDescription: String { "nothing" }

    /// Nothing decodes as `Never`.
    @inlinable public static func importDecode<Source: ImportScalarSource>(from source: Source) -> Never? { nil }
}
