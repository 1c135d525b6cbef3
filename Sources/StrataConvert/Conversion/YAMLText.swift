/// Scalars written into the YAML the converter emits: plain where YAML reads them back as the same
/// string, double-quoted and escaped otherwise, so no name or value from a model file can change
/// the structure of the YAML around it.
enum YAMLText {
    /// Plain scalars YAML would read as something other than a string.
    private static let reserved: Set<String> = ["null", "true", "false", "y", "n", "yes", "no", "on", "off", "~"]

    /// A key or value: plain when it is an ASCII identifier YAML reads as a string, quoted otherwise.
    static func scalar(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar))
        } && !("0"..."9").contains(text.unicodeScalars.first!) && !reserved.contains(text.lowercased())
        return plain ? text : quoted(text)
    }

    /// A double-quoted scalar with every character YAML treats specially escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                // C0 and C1 controls, DEL, NEL, BOM, line and paragraph separators and the two
                // non-characters: a YAML file may not hold them as they are (or they break lines).
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFEFF
                    || (0x2028...0x2029).contains(scalar.value) || (0xFFFE...0xFFFF).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A flow mapping: `{type: String, optional: true}`.
    static func flow(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A flow sequence of scalars: `[a, b]`.
    static func list(_ items: [String]) -> String {
        "[" + items.map(scalar).joined(separator: ", ") + "]"
    }
}
