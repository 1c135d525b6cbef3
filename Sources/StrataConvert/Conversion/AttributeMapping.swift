import Foundation

/// A Core Data attribute as a Strata attribute: its type, and its default in Strata's form.
enum AttributeMapping {
    /// The Strata type of a Core Data attribute type, or nil when it has none.
    static func type(of coreDataType: String) -> String? {
        switch coreDataType {
        case "Integer 16": return "Int16"
        case "Integer 32": return "Int32"
        case "Integer 64": return "Int64"
        case "Decimal": return "Decimal"
        case "Double": return "Double"
        case "Float": return "Float"
        case "String": return "String"
        case "Boolean": return "Bool"
        case "Date": return "Date"
        case "Binary", "Transformable": return "Data"
        case "UUID": return "UUID"
        case "URI": return "URL"
        default: return nil
        }
    }

    /// A Core Data `defaultValueString` as a YAML scalar of the Strata type, or nil with the
    /// reason when it does not fit.
    static func defaultValue(_ raw: String, type: String) -> Result<String, DefaultProblem> {
        let text = raw.trimmingCharacters(in: .whitespaces)
        switch type {
        case "Int16": return integer(text, Int16.self)
        case "Int32": return integer(text, Int32.self)
        case "Int64": return integer(text, Int64.self)
        case "Double", "Float":
            // The text is written as it is, so it must be a number and nothing else (Double(_:) stops at a NUL).
            guard text.range(of: #"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil,
                  let value = Double(text), value.isFinite else { return .failure(DefaultProblem(raw: raw, type: type)) }
            return .success(text)
        case "Decimal":
            guard Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil,
                  text.range(of: #"^[+-]?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil else {
                return .failure(DefaultProblem(raw: raw, type: type))
            }
            return .success(text)
        case "Bool":
            switch text.lowercased() {
            case "yes", "true", "1": return .success("true")
            case "no", "false", "0": return .success("false")
            default: return .failure(DefaultProblem(raw: raw, type: type))
            }
        case "Date":
            // Core Data writes a date default as seconds since 2001-01-01 UTC.
            guard let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e11 else { return .failure(DefaultProblem(raw: raw, type: type)) }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return .success(formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds.rounded(.down))))
        case "UUID":
            guard UUID(uuidString: text) != nil else { return .failure(DefaultProblem(raw: raw, type: type)) }
            return .success(YAMLText.quoted(text))
        case "URL":
            guard let url = URL(string: text), url.scheme != nil else { return .failure(DefaultProblem(raw: raw, type: type)) }
            return .success(YAMLText.quoted(text))
        case "String":
            return .success(YAMLText.quoted(raw))
        default:
            return .failure(DefaultProblem(raw: raw, type: type))
        }
    }

    private static func integer<I: FixedWidthInteger>(_ text: String, _: I.Type) -> Result<String, DefaultProblem> {
        guard let value = I(text) else { return .failure(DefaultProblem(raw: text, type: "\(I.self)")) }
        return .success(String(value))
    }
}

/// A default value that does not fit its attribute's type.
struct DefaultProblem: Error {
    let raw: String
    let type: String
}
