import Foundation

/// A type a generated `ImportPayload` decodes from one JSON value, with the same conversions as
/// `ImportConvertible` (dates from ISO 8601 text or seconds since 1970, `Decimal` from numbers or
/// text, `Data` from base64, `UUID` and `URL` from text), whatever strategies the `JSONDecoder`
/// was given.
public protocol ImportDecodable: Sendable, Hashable {
    /// The value at the container, or nil when what is there does not fit.
    static func importDecode(from container: any SingleValueDecodingContainer) -> Self?

    /// What fits, for error messages: "a whole number".
    static var importDescription: String { get }
}

extension ImportDecodable where Self: ImportConvertible & Decodable {
    /// The value decoded as itself; a `[String: Any]` source's value converted as
    /// `ImportConvertible` converts it.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> Self? {
        if let raw = container as? JSONObjectDecoder.Value { return raw.convert(to: Self.self) }
        return try? container.decode(Self.self)
    }
}

extension String: ImportDecodable {}
extension Bool: ImportDecodable {}
extension Int: ImportDecodable {}
extension Int16: ImportDecodable {}
extension Int32: ImportDecodable {}
extension Int64: ImportDecodable {}
extension Double: ImportDecodable {}
extension Float: ImportDecodable {}

extension Decimal: ImportDecodable {
    /// A JSON number, or decimal text.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> Decimal? {
        if let raw = container as? JSONObjectDecoder.Value { return raw.convert(to: Decimal.self) }
        if let text = try? container.decode(String.self) { return Decimal(importValue: text) }
        return try? container.decode(Decimal.self)
    }
}

extension Date: ImportDecodable {
    /// Seconds since 1970, or ISO 8601 text.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> Date? {
        if let raw = container as? JSONObjectDecoder.Value { return raw.convert(to: Date.self) }
        if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
        guard let text = try? container.decode(String.self) else { return nil }
        return Date(importValue: text)
    }
}

extension UUID: ImportDecodable {
    /// UUID text.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> UUID? {
        if let raw = container as? JSONObjectDecoder.Value { return raw.convert(to: UUID.self) }
        guard let text = try? container.decode(String.self) else { return nil }
        return UUID(uuidString: text)
    }
}

extension URL: ImportDecodable {
    /// URL text.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> URL? {
        if let raw = container as? JSONObjectDecoder.Value { return raw.convert(to: URL.self) }
        guard let text = try? container.decode(String.self) else { return nil }
        return URL(string: text)
    }
}

extension Data: ImportDecodable {
    /// Base64 text.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> Data? {
        if let raw = container as? JSONObjectDecoder.Value { return raw.convert(to: Data.self) }
        guard let text = try? container.decode(String.self) else { return nil }
        return Data(base64Encoded: text)
    }
}

extension Never: ImportDecodable {
    /// Nothing decodes as `Never`: the ID type of an entity without a unique ID.
    public static func importDecode(from container: any SingleValueDecodingContainer) -> Never? { nil }

    /// Never fits.
    public static var importDescription: String { "nothing" }
}
