/// Spelling names and values so that nothing in a model can change the meaning of generated code.
enum SwiftSyntax {
    /// Words Swift reserves in declarations and expressions; names equal to one are written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "Type", "Protocol",
        "borrowing", "consuming", "async", "some", "any", "package", "each", "macro",
    ]

    /// A model file's `doc:` text as the lines of a `///` comment, each with its leading space
    /// (an empty string for a blank line): split at every line break, so no text can end the
    /// comment and become code.
    static func docLines(_ text: String?) -> [String] {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line -> String in
            let trimmed = String(line).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
            return trimmed.isEmpty ? "" : " " + trimmed
        }
        while lines.last == "" { lines.removeLast() }
        while lines.first == "" { lines.removeFirst() }
        return lines
    }

    /// A name usable as a Swift identifier: backticked when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`" + name + "`" : name
    }

    /// A name usable as an argument label: any keyword may be one as it is, except `inout`,
    /// `var` and `let`, which are backticked (and `_`, which would mean no label).
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let", "_"].contains(name) ? "`" + name + "`" : name
    }

    /// A Swift string literal of any text: quotes, backslashes, `\(`, line breaks and every
    /// non-printing character are escaped, so the literal is exactly the text and nothing more.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value >= 0x20, scalar.value < 0x7F {
                    result.unicodeScalars.append(scalar)
                } else if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .format
                    || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
