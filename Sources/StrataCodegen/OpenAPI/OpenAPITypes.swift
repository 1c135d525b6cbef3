import Foundation
import StrataSchema

/// The JSON Schema of each attribute type, as Foundation's `JSONDecoder` and the runtime's
/// payload reader accept its values: a whole number within the type's range, a `Float` within
/// its range, a UUID's text, base64 text for bytes, and dates as the app's strategy writes them.
enum OpenAPITypes {
    /// Base64 as `Data(base64Encoded:)` reads it: groups of four, padded.
    static let base64Pattern = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
    /// A UUID as `UUID(uuidString:)` reads it.
    static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
    /// ISO 8601 as the `.iso8601` strategy reads it: whole seconds, `Z` or an offset.
    static let dateTimePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})$"

    /// An integer schema with its range.
    static func integer(min: String, max: String, format: String, description: String?) -> JSONText {
        var members: [(String, JSONText)] = [("type", .string("integer")), ("format", .string(format)),
                                             ("minimum", .number(min)), ("maximum", .number(max))]
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    /// An attribute's schema: its type's, null too when `nullable`, with its `doc:` as the
    /// description unless `documented` is false, and its default with `withDefault`.
    static func attribute(_ attribute: Attribute, dates: OpenAPIDateFormat, nullable: Bool, withDefault: Bool = false,
                          documented: Bool = true) -> JSONText {
        var members = typeMembers(attribute, dates: dates)
        if withDefault, let value = defaultValue(attribute) { members.append(("default", value)) }
        let schema = JSONText.object(members)
        let description = documented ? attribute.doc : nil
        if nullable { return Self.nullable(schema, description: description) }
        guard let description, case .object(var all) = schema else { return schema }
        all.append(("description", .string(description)))
        return .object(all)
    }

    /// `schema` that also takes null (its `type` with `"null"` added; a schema of any value
    /// takes null already), with a description.
    static func nullable(_ schema: JSONText, description: String?) -> JSONText {
        guard case .object(var members) = schema else { return schema }
        if let index = members.firstIndex(where: { $0.0 == "type" }), case .string(let type) = members[index].1 {
            members[index].1 = .array([.string(type), .string("null")])
        }
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    private static func typeMembers(_ attribute: Attribute, dates: OpenAPIDateFormat) -> [(String, JSONText)] {
        switch attribute.type {
        case .bool: return [("type", .string("boolean"))]
        case .int16: return range("-32768", "32767", format: "int32")
        case .int32: return range("-2147483648", "2147483647", format: "int32")
        case .int64, .int: return range("-9223372036854775808", "9223372036854775807", format: "int64")
        case .double: return [("type", .string("number")), ("format", .string("double"))]
        case .float:
            return [("type", .string("number")), ("format", .string("float")),
                    ("minimum", .number("-3.4028234663852886e+38")), ("maximum", .number("3.4028234663852886e+38"))]
        case .decimal: return [("type", .string("number"))]
        case .string: return [("type", .string("string"))]
        case .date:
            switch dates {
            case .iso8601: return [("type", .string("string")), ("format", .string("date-time")), ("pattern", .string(dateTimePattern))]
            case .secondsSince1970: return [("type", .string("number")), ("description", .string("Seconds since 1970-01-01T00:00:00Z."))]
            case .millisecondsSince1970:
                return [("type", .string("number")), ("description", .string("Milliseconds since 1970-01-01T00:00:00Z."))]
            case .deferred: return [("type", .string("number")), ("description", .string("Seconds since 2001-01-01T00:00:00Z."))]
            }
        case .data: return bytes
        case .uuid: return [("type", .string("string")), ("format", .string("uuid")), ("pattern", .string(uuidPattern))]
        case .url: return [("type", .string("string")), ("format", .string("uri-reference")), ("minLength", .number("1"))]
        case .codable where attribute.coder == .custom: return bytes
        case .codable:
            // The generator does not see the app's type: any JSON, as that type's Codable form.
            return []
        }
    }

    private static var bytes: [(String, JSONText)] {
        [("type", .string("string")), ("contentEncoding", .string("base64")), ("pattern", .string(base64Pattern))]
    }

    private static func range(_ min: String, _ max: String, format: String) -> [(String, JSONText)] {
        [("type", .string("integer")), ("format", .string(format)), ("minimum", .number(min)), ("maximum", .number(max))]
    }

    /// The model's default as JSON, for the types whose default reads the same in every date
    /// format: numbers, Booleans and text.
    private static func defaultValue(_ attribute: Attribute) -> JSONText? {
        guard let text = attribute.defaultValue else { return nil }
        switch attribute.type {
        case .bool: return .bool(text == "true")
        case .int16, .int32, .int64, .int, .double, .float, .decimal:
            return Double(text).map { $0.isFinite } == true ? .number(normalizedNumber(text)) : nil
        case .string, .uuid, .url: return .string(text)
        case .date, .data, .codable: return nil
        }
    }

    /// A number as JSON writes it: no leading `+`, a digit before and after any point.
    private static func normalizedNumber(_ text: String) -> String {
        var text = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if text.hasPrefix(".") { text = "0" + text } else if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        if text.hasSuffix(".") { text += "0" }
        text = text.replacingOccurrences(of: ".e", with: ".0e").replacingOccurrences(of: ".E", with: ".0E")
        return text
    }
}
