/// A JSON value whose objects keep their keys in the order given, written as indented text: the
/// OpenAPI document reads top-down (`openapi`, `info`, `components`), and the same model always
/// gives the same bytes.
indirect enum JSONText: Equatable {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    /// A number, as its JSON text (`-32768`, `9.99`, `5e-324`).
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: JSONText, rhs: JSONText) -> Bool { lhs.text == rhs.text }

    /// The value as indented JSON, ending in a newline.
    var text: String {
        var output = ""
        write(into: &output, indent: "")
        return output + "\n"
    }

    private func write(into output: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .object(let members) where members.isEmpty: output += "{}"
        case .object(let members):
            output += "{\n"
            for (index, (key, value)) in members.enumerated() {
                output += inner + Self.quoted(key) + ": "
                value.write(into: &output, indent: inner)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        case .array(let items) where items.isEmpty: output += "[]"
        case .array(let items):
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                item.write(into: &output, indent: inner)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .string(let text): output += Self.quoted(text)
        case .number(let text): output += text
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        }
    }

    /// Text as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
