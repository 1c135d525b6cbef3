import StrataTestSupport
import Foundation
import Strata
import StrataTesting

/// One row of the Exact model's `Sample` as plain values: drawn at random with the edges of each
/// type mixed in, written through every path, and compared bit for bit.
struct ExactValues: Sendable {
    var key: Int64
    var flag = true
    var small: Int16 = 0
    var medium: Int32 = 0
    var large: Int64 = 0
    var word = 0
    var real = 0.0
    var single: Float = 0
    var amount: Decimal = 0
    var moment = Date(timeIntervalSinceReferenceDate: 0)
    var text = ""
    var bytes = Data()
    var token = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var link = URL(string: "https://example.com")!
    var optionalFlag: Bool?
    var optionalLarge: Int64?
    var optionalReal: Double?
    var optionalSingle: Float?
    var optionalAmount: Decimal?
    var optionalMoment: Date?
    var optionalText: String?
    var optionalBytes: Data?
    var optionalToken: UUID?
    var optionalLink: URL?
    var jsonPayload: ExactPayload?
    var binaryPayload: ExactPayload?

    /// Random values; about one in four of each is an edge of its type.
    init(key: Int64, using generator: inout SeededGenerator) {
        self.key = key
        flag = Bool.random(using: &generator)
        small = Self.integer(using: &generator)
        medium = Self.integer(using: &generator)
        large = Self.integer(using: &generator)
        word = Self.integer(using: &generator)
        real = Self.double(using: &generator)
        single = Self.float(using: &generator)
        amount = Self.decimal(using: &generator)
        moment = Self.date(using: &generator)
        text = Self.string(using: &generator)
        bytes = Data((0..<Int.random(in: 0...48, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        token = UUID(uuid: Self.uuidBytes(using: &generator))
        link = Self.url(using: &generator)
        func maybe<T>(_ make: (inout SeededGenerator) -> T) -> T? {
            Bool.random(using: &generator) ? make(&generator) : nil
        }
        optionalFlag = maybe { Bool.random(using: &$0) }
        optionalLarge = maybe { Self.integer(using: &$0) }
        optionalReal = maybe { Self.double(using: &$0) }
        optionalSingle = maybe { Self.float(using: &$0) }
        optionalAmount = maybe { Self.decimal(using: &$0) }
        optionalMoment = maybe { Self.date(using: &$0) }
        optionalText = maybe { Self.string(using: &$0) }
        optionalBytes = maybe { generator in Data((0..<Int.random(in: 0...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        optionalToken = maybe { UUID(uuid: Self.uuidBytes(using: &$0)) }
        optionalLink = maybe { Self.url(using: &$0) }
        jsonPayload = maybe { ExactPayload(number: Self.double(using: &$0), when: Self.date(using: &$0), note: Self.string(using: &$0)) }
        binaryPayload = maybe { ExactPayload(number: Self.double(using: &$0), when: Self.date(using: &$0), note: Self.string(using: &$0)) }
    }

    /// The values a `Sample` holds.
    @MainActor
    init(_ sample: Sample) {
        key = sample.key
        flag = sample.flag
        small = sample.small
        medium = sample.medium
        large = sample.large
        word = sample.word
        real = sample.real
        single = sample.single
        amount = sample.amount
        moment = sample.moment
        text = sample.text
        bytes = sample.bytes
        token = sample.token
        link = sample.link
        optionalFlag = sample.optionalFlag
        optionalLarge = sample.optionalLarge
        optionalReal = sample.optionalReal
        optionalSingle = sample.optionalSingle
        optionalAmount = sample.optionalAmount
        optionalMoment = sample.optionalMoment
        optionalText = sample.optionalText
        optionalBytes = sample.optionalBytes
        optionalToken = sample.optionalToken
        optionalLink = sample.optionalLink
        jsonPayload = sample.jsonPayload
        binaryPayload = sample.binaryPayload
    }

    /// Writes every value into `sample`.
    func apply(to sample: Sample) {
        sample.key = key
        sample.flag = flag
        sample.small = small
        sample.medium = medium
        sample.large = large
        sample.word = word
        sample.real = real
        sample.single = single
        sample.amount = amount
        sample.moment = moment
        sample.text = text
        sample.bytes = bytes
        sample.token = token
        sample.link = link
        sample.optionalFlag = optionalFlag ?? false
        sample.optionalLarge = optionalLarge
        sample.optionalReal = optionalReal
        sample.optionalSingle = optionalSingle
        sample.optionalAmount = optionalAmount
        sample.optionalMoment = optionalMoment
        sample.optionalText = optionalText
        sample.optionalBytes = optionalBytes
        sample.optionalToken = optionalToken
        sample.optionalLink = optionalLink
        sample.jsonPayload = jsonPayload
        sample.binaryPayload = binaryPayload
    }

    /// The values an importer reads, as an app's decoded JSON would hold them.
    var importSource: [String: Any] {
        var source: [String: Any] = ["key": key, "flag": flag, "small": small, "medium": medium, "large": large, "word": word,
                                     "real": real, "single": single, "amount": amount, "moment": moment, "text": text,
                                     "bytes": bytes.base64EncodedString(), "token": token.uuidString, "link": link.absoluteString]
        source["optionalReal"] = optionalReal ?? NSNull()
        source["optionalMoment"] = optionalMoment ?? NSNull()
        source["optionalText"] = optionalText ?? NSNull()
        return source
    }

    /// The attributes an older release's store holds, for seeding (Codable values are not seeded).
    var seedAttributes: [String: any QueryableAttributeType] {
        var values: [String: any QueryableAttributeType] = [
            "key": key, "flag": flag, "small": small, "medium": medium, "large": large, "word": word, "real": real,
            "single": single, "amount": amount, "moment": moment, "text": text, "bytes": bytes, "token": token, "link": link,
        ]
        let optionals: [(String, (any QueryableAttributeType)?)] = [
            ("optionalFlag", optionalFlag), ("optionalLarge", optionalLarge), ("optionalReal", optionalReal),
            ("optionalSingle", optionalSingle), ("optionalAmount", optionalAmount), ("optionalMoment", optionalMoment),
            ("optionalText", optionalText), ("optionalBytes", optionalBytes), ("optionalToken", optionalToken), ("optionalLink", optionalLink),
        ]
        for (name, value) in optionals { if let value { values[name] = value } }
        return values
    }

    /// The names of the values that differ from `other` in any bit; without `nanPayloads`, any
    /// NaN is the same as any other (PostgreSQL has one NaN).
    func differences(from other: ExactValues, nanPayloads: Bool = true) -> [String] {
        var names: [String] = []
        func check(_ name: String, _ same: Bool) { if !same { names.append(name) } }
        func bits(_ value: Double) -> UInt64 { !nanPayloads && value.isNaN ? Double.nan.bitPattern : value.bitPattern }
        func bits(_ value: Float) -> UInt32 { !nanPayloads && value.isNaN ? Float.nan.bitPattern : value.bitPattern }
        check("key", key == other.key)
        check("flag", flag == other.flag)
        check("small", small == other.small)
        check("medium", medium == other.medium)
        check("large", large == other.large)
        check("word", word == other.word)
        check("real", bits(real) == bits(other.real))
        check("single", bits(single) == bits(other.single))
        check("amount", Self.same(amount, other.amount))
        check("moment", bits(moment.timeIntervalSinceReferenceDate) == bits(other.moment.timeIntervalSinceReferenceDate))
        check("text", Array(text.unicodeScalars) == Array(other.text.unicodeScalars))
        check("bytes", bytes == other.bytes)
        check("token", token == other.token)
        check("link", link.absoluteString == other.link.absoluteString)
        check("optionalFlag", optionalFlag == other.optionalFlag)
        check("optionalLarge", optionalLarge == other.optionalLarge)
        check("optionalReal", optionalReal.map(bits) == other.optionalReal.map(bits))
        check("optionalSingle", optionalSingle.map(bits) == other.optionalSingle.map(bits))
        check("optionalAmount", optionalAmount.map { a in other.optionalAmount.map { Self.same(a, $0) } ?? false } ?? (other.optionalAmount == nil))
        check("optionalMoment", optionalMoment.map { bits($0.timeIntervalSinceReferenceDate) }
              == other.optionalMoment.map { bits($0.timeIntervalSinceReferenceDate) })
        check("optionalText", optionalText.map { Array($0.unicodeScalars) } == other.optionalText.map { Array($0.unicodeScalars) })
        check("optionalBytes", optionalBytes == other.optionalBytes)
        check("optionalToken", optionalToken == other.optionalToken)
        check("optionalLink", optionalLink?.absoluteString == other.optionalLink?.absoluteString)
        check("jsonPayload", Self.same(jsonPayload, other.jsonPayload))
        check("binaryPayload", Self.same(binaryPayload, other.binaryPayload))
        return names
    }

    private static func same(_ a: Decimal, _ b: Decimal) -> Bool {
        a.isNaN ? b.isNaN : (a == b && a.description == b.description)
    }

    /// Codable values are exact as far as their coder is: Foundation's JSON and property-list
    /// coders keep every finite double and date bit for bit, but read every NaN back as `.nan`
    /// (JSON has no NaN at all; Strata writes it as the text "NaN").
    private static func same(_ a: ExactPayload?, _ b: ExactPayload?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        func same(_ x: Double, _ y: Double) -> Bool { x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern }
        return same(a.number, b.number) && same(a.when.timeIntervalSinceReferenceDate, b.when.timeIntervalSinceReferenceDate)
            && Array(a.note.unicodeScalars) == Array(b.note.unicodeScalars)
    }

    // MARK: Drawing values

    static func integer<T: FixedWidthInteger>(using generator: inout SeededGenerator) -> T {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return .min
        case 1: return .max
        case 2: return 0
        case 3: return -1
        default: return T(truncatingIfNeeded: generator.next())
        }
    }

    /// Signed zeros, NaNs with payloads (signalling ones too), infinities, subnormals and the
    /// largest values, then any bit pattern at all.
    static let edgeDoubles: [Double] = [
        0, -0.0, .nan, -.nan, .signalingNaN, Double(bitPattern: 0x7FF8_0000_DEAD_BEEF), Double(bitPattern: 0xFFF0_0000_0000_0001),
        .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
        Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.1, 1.0 / 3.0,
        Double(Int64.max), Double(bitPattern: 0x4340_0000_0000_0001),
    ]

    static func double(using generator: inout SeededGenerator) -> Double {
        Int.random(in: 0..<4, using: &generator) == 0 ? edgeDoubles.randomElement(using: &generator)! : Double(bitPattern: generator.next())
    }

    /// Any Float but a signalling NaN: converting a Float to the Double SQLite stores quiets it.
    static func float(using generator: inout SeededGenerator) -> Float {
        let edges: [Float] = [0, -0.0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1]
        if Int.random(in: 0..<4, using: &generator) == 0 { return edges.randomElement(using: &generator)! }
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
        return value.isSignalingNaN ? .nan : value
    }

    static func date(using generator: inout SeededGenerator) -> Date {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return [Date(), .distantPast, .distantFuture, Date(timeIntervalSince1970: 0)].randomElement(using: &generator)!
        case 1: return Date(timeIntervalSinceReferenceDate: double(using: &generator))
        default: return Date(timeIntervalSinceReferenceDate: Double.random(in: -4e9...4e9, using: &generator))
        }
    }

    /// Up to 38 significant digits, exponents far beyond them on both sides, both signs, and NaN.
    static func decimal(using generator: inout SeededGenerator) -> Decimal {
        if Int.random(in: 0..<16, using: &generator) == 0 { return [.nan, 0, .greatestFiniteMagnitude, .leastNonzeroMagnitude].randomElement(using: &generator)! }
        let digits = String((0..<Int.random(in: 1...38, using: &generator)).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
        let significand = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX"))!
        return Decimal(sign: Bool.random(using: &generator) ? .minus : .plus, exponent: Int.random(in: -90...90, using: &generator), significand: significand)
    }

    /// Scalars from every plane: NUL and control characters, combining marks, the scalars next to
    /// the surrogate range, the replacement character, noncharacters, emoji, the last scalar.
    static func string(using generator: inout SeededGenerator) -> String {
        let ranges: [ClosedRange<UInt32>] = [0...0x1F, 0x20...0x7E, 0x300...0x36F, 0xD7F0...0xD7FF, 0xE000...0xE00F, 0xFFF0...0xFFFF,
                                             0x1F600...0x1F64F, 0x10FFF0...0x10FFFF, 0...0x10FFFF]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...24, using: &generator) {
            let range = ranges.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static func uuidBytes(using generator: inout SeededGenerator) -> uuid_t {
        let high = generator.next(), low = generator.next()
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * index)) }
        return (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7))
    }

    static let urls = [
        "https://example.com", "https://user:pa%3Ass@example.com:8443/a/b/../c?x=1&y=%20#top", "file:///tmp/a%20folder/file.txt",
        "http://[::1]:8080/path", "https://xn--bcher-kva.example/", "mailto:someone@example.com", "urn:isbn:0451450523",
        "data:text/plain;base64,SGVsbG8=", "https://example.com/%F0%9F%A7%AA?q=%E2%9C%93", "custom-scheme://host/path;params?query#fragment",
    ]

    static func url(using generator: inout SeededGenerator) -> URL {
        URL(string: urls.randomElement(using: &generator)!)!
    }
}
