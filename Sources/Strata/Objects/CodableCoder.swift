import Foundation

/// How a `Codable` attribute becomes bytes.
public enum CodableCoder: String, Sendable, Hashable {
    /// JSON.
    case json
    /// An XML property list.
    case propertyList
    /// A binary property list.
    case binary

    /// The encoded bytes of a value.
    func encode<T: Encodable>(_ value: T) -> [UInt8] {
        do {
            switch self {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
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
            preconditionFailure("Strata: a \(T.self) value could not be encoded as \(rawValue): \(error)")
        }
    }

    /// The value decoded from bytes, or nil when they do not decode.
    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        switch self {
        case .json: return try? JSONDecoder().decode(T.self, from: Data(bytes))
        case .propertyList, .binary: return (try? PropertyListDecoder().decode([T].self, from: Data(bytes)))?.first
        }
    }
}
