/// The ID a synced object carries everywhere: a UUID of version 7, made on the device (or server)
/// that creates the object, from the time in milliseconds and 74 random bits. Objects created
/// offline on two devices never collide, and IDs sort by when they were made. Relationships travel
/// by it. Written as lowercase UUID text (`0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60`).
public struct GlobalID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The lowercase UUID text.
    public let text: String

    /// An ID read from UUID text (any version, either case); nil for other text.
    public init?(_ text: String) {
        let characters = Array(text.lowercased().utf8)
        guard characters.count == 36 else { return nil }
        for (index, character) in characters.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == UInt8(ascii: "-") else { return nil }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(character) else {
                    return nil
                }
            }
        }
        self.text = String(decoding: characters, as: UTF8.self)
    }

    /// A new ID for an object created at `milliseconds` since 1970, its random bits from `random`.
    public static func make(milliseconds: Int64, using random: inout some RandomNumberGenerator) -> GlobalID {
        var bytes = [UInt8](repeating: 0, count: 16)
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index))) }
        let high = random.next() as UInt64
        let low = random.next() as UInt64
        for index in 6..<16 { bytes[index] = UInt8(truncatingIfNeeded: (index < 11 ? high : low) >> (8 * (index % 8))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)   // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)   // the RFC 9562 variant
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return GlobalID(String(decoding: text, as: UTF8.self))!
    }

    /// A new ID from the system's random numbers.
    public static func make(milliseconds: Int64) -> GlobalID {
        var random = SystemRandomNumberGenerator()
        return make(milliseconds: milliseconds, using: &random)
    }

    /// The milliseconds a version 7 ID was made at.
    public var milliseconds: Int64 {
        let hex = text.utf8.filter { $0 != UInt8(ascii: "-") }.prefix(12)
        return Int64(String(decoding: hex, as: UTF8.self), radix: 16) ?? 0
    }

    /// Orders by text, which for version 7 IDs is the order they were made in.
    public static func < (lhs: GlobalID, rhs: GlobalID) -> Bool { lhs.text < rhs.text }

    /// The UUID text.
    public var description: String { text }
}

extension GlobalID: Codable {
    /// Reads UUID text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = GlobalID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a global ID (UUID text)")
        }
        self = id
    }

    /// Writes the UUID text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
