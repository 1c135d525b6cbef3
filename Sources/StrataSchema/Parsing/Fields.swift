/// Typed, checked access to the keys of one mapping in a model file.
///
/// Creating it reports a node that is not a mapping and every key not in `allowed` (with a
/// "did you mean" hint); each accessor reports a value of the wrong kind. All problems go to the
/// shared ``Diagnostics`` so one run lists them all.
struct Fields {
    let node: YAMLNode
    /// Names what the mapping describes in messages: "entity 'Person'", "attribute 'Person.name'".
    let context: String

    /// Reads `node` as a mapping with the given keys, or reports why it cannot.
    init?(_ node: YAMLNode, context: String, allowed: [String], diagnostics: inout Diagnostics) {
        guard let entries = node.entries else {
            diagnostics.error("\(context) must be a mapping, not \(node.kindDescription)", at: node.location)
            return nil
        }
        self.node = node
        self.context = context
        for entry in entries {
            guard let key = entry.key.scalarText, !allowed.contains(key) else { continue }
            diagnostics.error("unknown key '\(key)' in \(context)" + Suggestion.hint(for: key, in: allowed), at: entry.key.location)
        }
    }

    /// The value of a key, if present.
    subscript(key: String) -> YAMLNode? { node[key] }

    /// Where a key is written, for errors about its value as a whole.
    func keyLocation(_ key: String) -> SourceLocation {
        node.entry(forKey: key)?.key.location ?? node.location
    }

    /// A non-null scalar, reported when it is a mapping, a sequence or null.
    func string(_ key: String, diagnostics: inout Diagnostics) -> Located<String>? {
        guard let value = self[key] else { return nil }
        guard let text = value.scalarText, !value.isNull else {
            diagnostics.error("'\(key)' of \(context) must be a string, not \(value.kindDescription)", at: value.location)
            return nil
        }
        return Located(text, at: value.location)
    }

    /// `hashModifier:`, non-empty text that enters the version lock and nothing else.
    func hashModifier(diagnostics: inout Diagnostics) -> String? {
        guard let text = string("hashModifier", diagnostics: &diagnostics) else { return nil }
        guard !text.value.isEmpty else {
            diagnostics.error("'hashModifier' of \(context) is empty; give text that marks the change, or leave it out", at: text.location)
            return nil
        }
        return text.value
    }

    /// A required non-null scalar, reported when missing.
    func requiredString(_ key: String, diagnostics: inout Diagnostics) -> Located<String>? {
        guard self[key] != nil else {
            diagnostics.error("\(context) is missing '\(key)'", at: node.location)
            return nil
        }
        return string(key, diagnostics: &diagnostics)
    }

    /// A name that must be a valid identifier.
    func name(_ key: String, required: Bool, what: String, diagnostics: inout Diagnostics) -> Located<String>? {
        let value = required ? requiredString(key, diagnostics: &diagnostics) : string(key, diagnostics: &diagnostics)
        guard let value else { return nil }
        guard Identifier.isValid(value.value) else {
            diagnostics.error("'\(value.value)' is not a valid \(what) name; \(Identifier.rule)", at: value.location)
            return nil
        }
        return value
    }

    /// A plain `true` or `false`; anything else is reported and read as `defaultValue`.
    func bool(_ key: String, default defaultValue: Bool = false, diagnostics: inout Diagnostics) -> Bool {
        guard let value = self[key] else { return defaultValue }
        if case .scalar(let scalar) = value.kind, scalar.isPlain, scalar.tag == nil {
            if scalar.text == "true" { return true }
            if scalar.text == "false" { return false }
        }
        diagnostics.error("'\(key)' of \(context) must be true or false, not \(Fields.describe(value))", at: value.location)
        return defaultValue
    }

    /// A plain `true` or `false` with where it is written; nil when absent or not a Boolean
    /// (reported).
    func locatedBool(_ key: String, diagnostics: inout Diagnostics) -> Located<Bool>? {
        guard let value = self[key] else { return nil }
        let before = diagnostics.all.count
        let flag = bool(key, diagnostics: &diagnostics)
        return diagnostics.all.count == before ? Located(flag, at: value.location) : nil
    }

    /// A plain whole number of at least zero.
    func count(_ key: String, diagnostics: inout Diagnostics) -> Int? {
        guard let value = self[key] else { return nil }
        if case .scalar(let scalar) = value.kind, scalar.isPlain, let number = Int(scalar.text), number >= 0 {
            return number
        }
        diagnostics.error("'\(key)' of \(context) must be a whole number of at least 0, not \(Fields.describe(value))", at: value.location)
        return nil
    }

    /// One of an enumeration's raw values, with a hint when misspelt.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type, diagnostics: inout Diagnostics) -> T?
    where T.RawValue == String {
        guard let text = string(key, diagnostics: &diagnostics) else { return nil }
        if let value = T(rawValue: text.value) { return value }
        let names = T.allCases.map(\.rawValue)
        diagnostics.error("'\(key)' of \(context) must be \(Fields.list(names)), not '\(text.value)'" + Suggestion.hint(for: text.value, in: names),
                          at: text.location)
        return nil
    }

    /// A mapping's entries under `key`, each with its key as a located name (null counts as empty).
    func entries(_ key: String, diagnostics: inout Diagnostics) -> [(name: Located<String>, value: YAMLNode)] {
        guard let value = self[key], !value.isNull else { return [] }
        guard let entries = value.entries else {
            diagnostics.error("'\(key)' of \(context) must be a mapping, not \(value.kindDescription)", at: value.location)
            return []
        }
        return entries.compactMap { entry in
            guard let name = entry.key.scalarText else { return nil }
            return (Located(name, at: entry.key.location), entry.value)
        }
    }

    /// A sequence's items under `key` (null counts as empty).
    func items(_ key: String, diagnostics: inout Diagnostics) -> [YAMLNode]? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let items = value.items else {
            diagnostics.error("'\(key)' of \(context) must be a sequence, not \(value.kindDescription)", at: value.location)
            return nil
        }
        return items
    }

    /// A node shown in an error: a scalar's text in quotes, otherwise its kind.
    static func describe(_ node: YAMLNode) -> String {
        if let text = node.scalarText, !node.isNull { return "'\(text)'" }
        return node.kindDescription
    }

    /// `a, b or c`.
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
