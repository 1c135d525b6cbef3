import Foundation

/// How a `Codable` attribute becomes bytes.
public enum CodableCoder: String, Sendable, Hashable {
    /// JSON.
    case json
    /// An XML property list.
    case propertyList
    /// A binary property list.
    case binary

    /// The text JSON writes for the floating-point values it has no number for.
    private static let nonConformingFloats = (positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    /// The encoded bytes of a value, or the error naming its type when its encoding throws.
    func encode<T: Encodable>(_ value: T) throws(StrataError) -> [UInt8] {
        do {
            switch self {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let names = Self.nonConformingFloats
                encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: names.positiveInfinity,
                                                                              negativeInfinity: names.negativeInfinity, nan: names.nan)
                return Array(try encoder.encode(value))
            case .propertyList:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .xml
                return Array(try encoder.encode([value]))
            case .binary:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return Array(try encoder.encode([value]))
            }
        } catch {
            throw .encodingFailed(type: String(describing: T.self), coder: rawValue, reason: "\(error)")
        }
    }

    /// The value decoded from bytes, or nil when they do not decode.
    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        switch self {
        case .json:
            let decoder = JSONDecoder()
            let names = Self.nonConformingFloats
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: names.positiveInfinity,
                                                                            negativeInfinity: names.negativeInfinity, nan: names.nan)
            return try? decoder.decode(T.self, from: Data(bytes))
        case .propertyList, .binary: return (try? PropertyListDecoder().decode([T].self, from: Data(bytes)))?.first
        }
    }
}
