import CYAML

/// Reads one YAML document into a positioned ``YAMLNode`` tree, over libyaml's event parser.
///
/// Everything a hostile file could do is turned into a positioned error: invalid UTF-8, control
/// characters, tabs used as indentation, duplicate keys, several documents, nesting past
/// ``YAMLLimits/maximumDepth``, and aliases that expand past ``YAMLLimits/maximumExpandedNodes``.
/// Time and memory stay linear in the file's size.
public enum YAMLReader {
    /// The document's root node (nil when the file could not be read) and every problem found.
    public struct Result: Sendable {
        /// The root, or nil when the file is empty or a syntax error stopped the reader.
        public var root: YAMLNode?
        /// Problems, in the order found.
        public var diagnostics: [Diagnostic]
    }

    /// Reads `bytes`, naming `file` in every position.
    public static func read(_ bytes: [UInt8], file: String, limits: YAMLLimits = .standard) -> Result {
        if bytes.count > limits.maximumFileSize {
            let message = "file is \(bytes.count) bytes; a model file may be at most \(limits.maximumFileSize) bytes"
            return Result(root: nil, diagnostics: [Diagnostic(.error, at: .start(of: file), message)])
        }
        if let problem = TextCheck.firstProblem(in: bytes, file: file) {
            return Result(root: nil, diagnostics: [problem])
        }
        var builder = TreeBuilder(file: file, limits: limits)
        bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                builder.fail("libyaml could not allocate a parser", at: .start(of: file))
                return
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while !builder.isFinished {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    builder.fail(syntaxErrorMessage(parser, bytes: bytes), at: syntaxErrorLocation(parser, bytes: bytes, file: file))
                    return
                }
                builder.handle(event)
                yaml_event_delete(&event)
            }
        }
        return builder.result()
    }

    private static func syntaxErrorLocation(_ parser: yaml_parser_t, bytes: [UInt8], file: String) -> SourceLocation {
        if parser.error == YAML_READER_ERROR {
            return TextCheck.location(ofByte: parser.problem_offset, in: bytes, file: file)
        }
        let mark = parser.problem_mark
        return SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
    }

    private static func syntaxErrorMessage(_ parser: yaml_parser_t, bytes: [UInt8]) -> String {
        let mark = parser.problem_mark
        if parser.error != YAML_READER_ERROR,
           TextCheck.character(atLine: mark.line, column: mark.column, in: bytes) == UInt8(ascii: "\t") {
            return "a tab character cannot indent YAML; use spaces"
        }
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        if let context = parser.context.map({ String(cString: $0) }) {
            return "invalid YAML: \(problem) (\(context))"
        }
        return "invalid YAML: \(problem)"
    }
}
