import Foundation
@testable import StrataSchema

/// A YAML document as JSON Schema sees it: plain scalars resolved as YAML 1.2's core schema does
/// (as editors' YAML servers do), quoted ones as strings.
indirect enum JSONValue: Equatable {
    case null, bool(Bool), integer, number, string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { "\(lhs)" == "\(rhs)" }

    init(_ node: YAMLNode) {
        switch node.kind {
        case .sequence(let items): self = .array(items.map(JSONValue.init))
        case .mapping(let entries): self = .object(entries.map { ($0.key.scalarText ?? "", JSONValue($0.value)) })
        case .scalar(let scalar):
            guard scalar.isPlain else { self = .string(scalar.text); return }
            let text = scalar.text
            if ["", "~", "null", "Null", "NULL"].contains(text) { self = .null }
            else if ["true", "True", "TRUE"].contains(text) { self = .bool(true) }
            else if ["false", "False", "FALSE"].contains(text) { self = .bool(false) }
            else if text.range(of: #"^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"#, options: .regularExpression) != nil { self = .integer }
            else if text.range(of: #"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$"#,
                               options: .regularExpression) != nil { self = .number }
            else { self = .string(text) }
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// The draft-07 keywords Strata's schemas use, checked strictly: type, enum, required,
/// properties, additionalProperties, propertyNames, items, minItems, maxItems, oneOf, pattern,
/// minLength and local $ref (`minimum` is left to the loader, which reports a negative count).
struct JSONSchemaValidator {
    let root: [String: Any]

    init(_ text: String) throws {
        root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    /// Every violation, as `path: reason`.
    func errors(_ value: JSONValue) -> [String] { check(value, root, path: "$") }

    private func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let ref = schema["$ref"] as? String, ref.hasPrefix("#/definitions/") else { return schema }
        let definitions = root["definitions"] as? [String: Any] ?? [:]
        return definitions[String(ref.dropFirst("#/definitions/".count))] as? [String: Any] ?? [:]
    }

    private func check(_ value: JSONValue, _ raw: [String: Any], path: String) -> [String] {
        let schema = resolve(raw)
        var errors: [String] = []
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [type as? String ?? ""]
            let actual = value.typeName
            if !allowed.contains(actual) && !(actual == "integer" && allowed.contains("number")) {
                return ["\(path): is \(actual), expected \(allowed.joined(separator: " or "))"]
            }
        }
        if let options = schema["enum"] as? [Any] {
            let texts = options.compactMap { $0 as? String }
            guard case .string(let text) = value, texts.contains(text) else { return ["\(path): not one of \(texts)"] }
        }
        if let oneOf = schema["oneOf"] as? [[String: Any]] {
            let matching = oneOf.filter { check(value, $0, path: path).isEmpty }.count
            if matching != 1 { errors.append("\(path): matches \(matching) of the oneOf schemas, not exactly one") }
        }
        switch value {
        case .string(let text):
            if let minimum = schema["minLength"] as? Int, text.count < minimum { errors.append("\(path): shorter than \(minimum)") }
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): '\(text)' does not match \(pattern)")
            }
        case .array(let items):
            if let minimum = schema["minItems"] as? Int, items.count < minimum { errors.append("\(path): fewer than \(minimum) items") }
            if let maximum = schema["maxItems"] as? Int, items.count > maximum { errors.append("\(path): more than \(maximum) items") }
            if let itemSchema = schema["items"] as? [String: Any] {
                for (index, item) in items.enumerated() { errors += check(item, itemSchema, path: "\(path)[\(index)]") }
            }
        case .object(let entries):
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for required in schema["required"] as? [String] ?? [] where !entries.contains(where: { $0.0 == required }) {
                errors.append("\(path): missing '\(required)'")
            }
            for (key, item) in entries {
                if let names = schema["propertyNames"] as? [String: Any] { errors += check(.string(key), names, path: "\(path) key '\(key)'") }
                if let property = properties[key] as? [String: Any] {
                    errors += check(item, property, path: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    errors += check(item, additional, path: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    errors.append("\(path): unknown key '\(key)'")
                }
            }
        default:
            break
        }
        return errors
    }
}
