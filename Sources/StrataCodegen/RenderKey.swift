/// The exact inputs of one rendered file, as text: the templates it can read and the values of
/// the context variables they name. Two renders with the same key write the same file.
///
/// A template reads a top-level variable only by naming it inside a tag, so variables that no tag
/// names are left out. That keeps the key of an entity's file free of the rest of the model.
enum RenderKey {
    /// The text of each group of values already written for one file's keys: the classes and the
    /// snapshots of a file are rendered from the same entities. Used by one thread at a time.
    final class Memo {
        fileprivate var written: [ObjectIdentifier: String] = [:]
    }

    /// The key, or nil when the template includes another or the context holds a value this
    /// cannot write exactly (that file is then rendered every time).
    static func make(template: String, templates: [String: String], context: [String: Any], memo: Memo = Memo()) -> String? {
        // A template that includes another can read whatever any template names: its key would
        // hold the whole model, so such a file (the schema history, quick to render) has none.
        guard let text = templates[template], !text.contains("{% include"), !text.contains("{% extends") else { return nil }
        var key = "template " + template + "\n"
        write(text, to: &key, memo: memo)
        let words = Set(identifiers(text))
        for name in context.keys.sorted() where words.contains(name) {
            key += "\n" + name + " = "
            guard let value = context[name], write(value, to: &key, memo: memo) else { return nil }
        }
        return key
    }

    /// Appends a value's exact text; false for a type it does not know.
    @discardableResult
    private static func write(_ value: Any, to key: inout String, memo: Memo) -> Bool {
        switch value {
        case let text as String:
            key += "s\(text.utf8.count):" + text
        case let flag as Bool:
            key += flag ? "T" : "F"
        case let number as Int:
            key += "i\(number);"
        case let node as TemplateNode:
            return write(node, to: &key, memo: memo)
        case let texts as [String]:
            // Before `[Any]`: converting a long list of lines to it would box every line.
            key += "[\(texts.count)"
            for text in texts { key += "s\(text.utf8.count):" + text }
            key += "]"
        case let nodes as [TemplateNode]:
            key += "[\(nodes.count)"
            for node in nodes {
                guard write(node, to: &key, memo: memo) else { return false }
            }
            key += "]"
        case let values as [String: Any]:
            key += "{\(values.count)"
            for name in values.keys.sorted() {
                key += "s\(name.utf8.count):" + name
                guard let member = values[name], write(member, to: &key, memo: memo) else { return false }
            }
            key += "}"
        case let values as [Any]:
            key += "[\(values.count)"
            for member in values {
                guard write(member, to: &key, memo: memo) else { return false }
            }
            key += "]"
        default:
            return false
        }
        return true
    }

    /// Appends a group's text, written once per memo.
    private static func write(_ node: TemplateNode, to key: inout String, memo: Memo) -> Bool {
        if let text = memo.written[ObjectIdentifier(node)] {
            key += text
            return true
        }
        var text = ""
        guard write(node.values, to: &text, memo: memo) else { return false }
        memo.written[ObjectIdentifier(node)] = text
        key += text
        return true
    }

    /// The words inside a template's tags (`{{ ... }}`, `{% ... %}`), where alone a variable can
    /// be named; the text around them is written out as it is.
    static func identifiers(_ text: String) -> [String] {
        var words: [String] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{"), open.upperBound < rest.endIndex {
            let kind = rest[open.upperBound]
            guard kind == "{" || kind == "%" else {
                rest = rest[open.upperBound...]
                continue
            }
            let body = rest[rest.index(after: open.upperBound)...]
            let end = body.firstRange(of: kind == "{" ? "}}" : "%}")
            let tag = body[..<(end?.lowerBound ?? body.endIndex)]
            words += tag.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
            rest = end.map { body[$0.upperBound...] } ?? ""
        }
        return words
    }
}
