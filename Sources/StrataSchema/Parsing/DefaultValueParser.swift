import Foundation

/// Checks a `default:` against its attribute's type and returns its canonical text, the form the
/// version lock hashes and the generator turns into a Swift literal.
///
/// | type | accepted | canonical |
/// |---|---|---|
/// | Bool | `true`, `false` | `true`, `false` |
/// | Int16, Int32, Int64, Int | a whole number in the type's range | decimal digits |
/// | Double, Float | a finite number | Swift's shortest round-trip text |
/// | Decimal | digits with an optional sign and fraction | no redundant zeros |
/// | String | any text | the text |
/// | Date | `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS[.fff](Z\|±HH:MM)` | UTC, `YYYY-MM-DDTHH:MM:SS[.fff]Z` |
/// | Data | base64 | base64 with padding |
/// | UUID | a UUID | upper case |
/// | URL | an absolute URL | the text |
enum DefaultValueParser {
    /// The canonical text of `node` as a default of `type`, or the reason it does not fit.
    static func canonical(_ node: YAMLNode, type: AttributeType) -> Result<String, DefaultValueError> {
        guard case .scalar(let scalar) = node.kind else {
            return .failure(DefaultValueError(reason: "must be a single value, not \(node.kindDescription)"))
        }
        if node.isNull {
            return .failure(DefaultValueError(reason: "cannot be null; leave it out and mark the attribute optional instead"))
        }
        let text = scalar.text
        let fail = { (expected: String) in Result<String, DefaultValueError>.failure(DefaultValueError(reason: "'\(text)' is not \(expected)")) }
        switch type {
        case .bool:
            guard text == "true" || text == "false" else { return fail("true or false") }
            return .success(text)
        case .int16: return integer(text, in: Int64(Int16.min)...Int64(Int16.max), fail: fail("a whole number from -32768 to 32767"))
        case .int32: return integer(text, in: Int64(Int32.min)...Int64(Int32.max), fail: fail("a whole number from -2147483648 to 2147483647"))
        case .int64, .int: return integer(text, in: Int64.min...Int64.max, fail: fail("a whole number that fits in 64 bits"))
        case .double:
            guard let value = Double(text), value.isFinite else { return fail("a finite number") }
            return .success(value.description)
        case .float:
            guard let value = Float(text), value.isFinite else { return fail("a finite number that fits in a Float") }
            return .success(value.description)
        case .decimal:
            guard let value = decimal(text) else { return fail("a decimal number such as 12.50") }
            return .success(value)
        case .string:
            return .success(text)
        case .date:
            guard let value = ISODate.canonical(text) else { return fail("a date such as 2024-05-01 or 2024-05-01T12:30:00Z") }
            return .success(value)
        case .data:
            guard let data = Data(base64Encoded: text) else { return fail("base64 data") }
            return .success(data.base64EncodedString())
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { return fail("a UUID such as 3F2504E0-4F89-11D3-9A0C-0305E82C3301") }
            return .success(uuid.uuidString)
        case .url:
            guard let url = URL(string: text), url.scheme != nil else { return fail("an absolute URL") }
            return .success(text)
        case .codable:
            return .failure(DefaultValueError(reason: "is not supported for Codable attributes; give the Swift type a default instead"))
        }
    }

    /// A canonical default as reports show it: in double quotes, with quotes and backslashes escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func integer(_ text: String, in range: ClosedRange<Int64>, fail: Result<String, DefaultValueError>) -> Result<String, DefaultValueError> {
        guard let value = Int64(text), range.contains(value) else { return fail }
        return .success(String(value))
    }

    /// `-012.340` → `-12.34`; nil unless the text is an optional sign, digits, and an optional fraction.
    static func decimal(_ text: String) -> String? {
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.count == 1 || !parts[1].isEmpty else { return nil }
        var whole = String(parts[0].drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        while fraction.last == "0" { fraction.removeLast() }
        let magnitude = fraction.isEmpty ? whole : whole + "." + fraction
        return negative && magnitude != "0" ? "-" + magnitude : magnitude
    }
}

/// Why a default does not fit its attribute.
struct DefaultValueError: Error, Hashable {
    /// Completes "default of attribute 'Person.age' …".
    var reason: String
}
