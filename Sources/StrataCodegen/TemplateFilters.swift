import Stencil

/// The filters Strata's templates may use besides Stencil's own.
enum TemplateFilters {
    /// `{{ lines|lines:8 }}`: an array of generated lines, one per line, every line after the first
    /// indented by the given number of spaces (the first takes the template's own indentation).
    /// `{{ items|lines:12,"," }}` also ends every line with the text given (here a comma, for the
    /// elements of an array literal).
    ///
    /// The same text a `{% for line in lines %}` loop writes, without a loop iteration per line:
    /// Stencil sets up a context and reflects the value for each one, and a large model has tens of
    /// thousands of such lines. An empty array gives an empty line, so wrap the use in
    /// `{% if lines %}` where there may be none.
    static func lines(_ value: Any?, _ arguments: [Any?]) throws -> Any? {
        guard let lines = value as? [Any] else {
            throw TemplateSyntaxError("'lines' expects an array of lines, not \(String(describing: value))")
        }
        guard (1...2).contains(arguments.count), let width = arguments[0] as? Int, width >= 0 else {
            throw TemplateSyntaxError("'lines' expects the indentation in spaces and an optional line ending, such as lines:8 or lines:8,\",\"")
        }
        let ending = arguments.count == 2 ? "\(arguments[1] ?? "")" : ""
        let separator = ending + "\n" + String(repeating: " ", count: width)
        return lines.map { "\($0)" }.joined(separator: separator) + ending
    }

    /// An extension with every filter; one per rendering thread, since Stencil's are classes.
    static func makeExtension() -> Extension {
        let filters = Extension()
        filters.registerFilter("lines", filter: lines)
        return filters
    }
}
