/// The ID a synced object carries everywhere: a UUID of version 7, made on the device (or server)
/// that creates the object, from the time in milliseconds and 74 random bits. Objects created
/// offline on two devices never collide, and IDs sort by when they were made. Relationships travel
/// by it. Written as lowercase UUID text (`0193a0b2-5c1e-7d3a-9f00-1b2c3d4e5f60`).
public struct GlobalID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The lowercase UUID text.
    public let text: String

    /// An ID read from UUID text (any version, either case); nil for other text.
    public init?(_ text: String) {
        var lowercase = true
        var count = 0
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: "-"):
                guard Self.dashes.contains(count) else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                guard !Self.dashes.contains(count) else { return nil }
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                guard !Self.dashes.contains(count) else { return nil }
                lowercase = false
            default:
                return nil
            }
            count += 1
        }
        guard count == 36 else { return nil }
        self.text = lowercase ? text : text.lowercased()
    }

    private init(checked text: String) {
        self.text = text
    }

    /// Where the text's dashes are.
    private static let dashes: Set<Int> = [8, 13, 18, 23]

    /// A new ID for an object created at `milliseconds` since 1970, its random bits from `random`.
    public static func make(milliseconds: Int64, using random: inout some RandomNumberGenerator) -> GlobalID {
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        var high = random.next() as UInt64
        var low = random.next() as UInt64
        high = (high & ~0xF000) | 0x7000                       // version 7 (in the seventh byte's high half)
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // the RFC 9562 variant
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            var at = 0
            func hex(_ value: UInt64, digits: Int) {
                for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                    buffer[at] = hexDigits[Int((value >> UInt64(shift)) & 0xF)]
                    at += 1
                }
            }
            func dash() {
                buffer[at] = UInt8(ascii: "-")
                at += 1
            }
            hex(time >> 16, digits: 8)
            dash()
            hex(time & 0xFFFF, digits: 4)
            dash()
            hex(high & 0xFFFF, digits: 4)
            dash()
            hex(low >> 48, digits: 4)
            dash()
            hex(low & 0xFFFF_FFFF_FFFF, digits: 12)
            return at
        }
        return GlobalID(checked: text)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

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
