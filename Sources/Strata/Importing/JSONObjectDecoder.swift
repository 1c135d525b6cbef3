import Foundation

/// A `Decoder` over JSON-like values (`[String: Any]`, `[Any]`, numbers, text, `NSNull`, as
/// `JSONSerialization` returns them, or Swift values such as `Date`), so one `Decodable`
/// implementation imports both decoded JSON and dictionaries. Values convert as
/// `ImportConvertible` converts them.
public struct JSONObjectDecoder: Decoder {
    /// The value being decoded.
    let value: Any
    /// Where the value is in the document.
    public let codingPath: [any CodingKey]
    /// Nothing: this decoder has no options.
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder of `value`, found at `codingPath`.
    public init(_ value: Any, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    /// Decodes `T` from `value`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: Any, codingPath: [any CodingKey] = []) throws -> T {
        try T(from: JSONObjectDecoder(value, codingPath: codingPath))
    }

    /// The source as a keyed container; throws when it is not a JSON object.
    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let object = value as? [String: Any] else { throw mismatch([String: Any].self, codingPath) }
        return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
    }

    /// The source as an unkeyed container; throws when it is not a JSON array.
    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let array = value as? [Any] else { throw mismatch([Any].self, codingPath) }
        return Unkeyed(array: array, codingPath: codingPath)
    }

    /// The source as a single value.
    public func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Value(raw: value, codingPath: codingPath)
    }

    /// The error for a value that is not a `type`.
    fileprivate func mismatch(_ type: Any.Type, _ path: [any CodingKey]) -> DecodingError {
        JSONObjectDecoder.mismatch(type, value, path)
    }

    fileprivate static func mismatch(_ type: Any.Type, _ value: Any, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(ImportValue.describe(value))"))
    }

    /// One value: a scalar, or anything a nested `Decodable` reads.
    public struct Value: SingleValueDecodingContainer {
        let raw: Any
        /// Where the value is.
        public let codingPath: [any CodingKey]

        private func scalar<T: ImportConvertible>(_ wanted: T.Type) throws -> T {
            guard let value = T(importValue: raw) else {
                if decodeNil() {
                    throw DecodingError.valueNotFound(wanted, .init(codingPath: codingPath, debugDescription: "found null"))
                }
                throw JSONObjectDecoder.mismatch(wanted, raw, codingPath)
            }
            return value
        }

        private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            guard let value = T(exactly: try scalar(Int64.self)) else { throw JSONObjectDecoder.mismatch(type, raw, codingPath) }
            return value
        }

        /// Whether the value is JSON null.
        public func decodeNil() -> Bool { type(of: raw) == NSNull.self }
        /// The value as a `Bool`; throws when it is another kind or does not fit.
        public func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self) }
        /// The value as a `String`; throws when it is another kind or does not fit.
        public func decode(_ type: String.Type) throws -> String { try scalar(String.self) }
        /// The value as a `Double`; throws when it is another kind or does not fit.
        public func decode(_ type: Double.Type) throws -> Double { try scalar(Double.self) }
        /// The value as a `Float`; throws when it is another kind or does not fit.
        public func decode(_ type: Float.Type) throws -> Float { try scalar(Float.self) }
        /// The value as an `Int`; throws when it is another kind or does not fit.
        public func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self) }
        /// The value as an `Int8`; throws when it is another kind or does not fit.
        public func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
        /// The value as an `Int16`; throws when it is another kind or does not fit.
        public func decode(_ type: Int16.Type) throws -> Int16 { try scalar(Int16.self) }
        /// The value as an `Int32`; throws when it is another kind or does not fit.
        public func decode(_ type: Int32.Type) throws -> Int32 { try scalar(Int32.self) }
        /// The value as an `Int64`; throws when it is another kind or does not fit.
        public func decode(_ type: Int64.Type) throws -> Int64 { try scalar(Int64.self) }
        /// The value as an `UInt`; throws when it is another kind or does not fit.
        public func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
        /// The value as an `UInt8`; throws when it is another kind or does not fit.
        public func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
        /// The value as an `UInt16`; throws when it is another kind or does not fit.
        public func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
        /// The value as an `UInt32`; throws when it is another kind or does not fit.
        public func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
        /// The value as an `UInt64`; throws when it is another kind or does not fit.
        public func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
        /// The value decoded as `T`.
        public func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try T(from: JSONObjectDecoder(raw, codingPath: codingPath))
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: Any]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        private func value(_ key: Key) throws -> Value {
            guard let raw = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the key '\(key.stringValue)' is missing"))
            }
            return Value(raw: raw, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(key).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try JSONObjectDecoder(try value(key).raw, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONObjectDecoder(try value(key).raw, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONObjectDecoder(object, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONObjectDecoder(try value(key).raw, codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let array: [Any]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(array: [Any], codingPath: [any CodingKey]) {
            self.array = array
            self.codingPath = codingPath
        }

        var count: Int? { array.count }
        var isAtEnd: Bool { currentIndex >= array.count }

        private mutating func next() throws -> Value {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has no element \(currentIndex)"))
            }
            defer { currentIndex += 1 }
            return Value(raw: array[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, type(of: array[currentIndex]) == NSNull.self else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let value = try next()
            return try JSONObjectDecoder(value.raw, codingPath: value.codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let value = try next()
            return try JSONObjectDecoder(value.raw, codingPath: value.codingPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let value = try next()
            return JSONObjectDecoder(value.raw, codingPath: value.codingPath)
        }
    }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}
