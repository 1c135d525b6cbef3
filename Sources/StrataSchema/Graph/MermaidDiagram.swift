/// A ``ModelGraph`` as a Mermaid `erDiagram`, which GitHub and most Markdown viewers render.
///
/// Each entity is a box of `type name UK "details"` rows; each relationship pair is one line with
/// crow's-foot ends (`|o` at most one, `}o` any number, `}|` at least one); a subentity has a
/// dotted line to its parent. In a diff, changes are written into the comments and the boxes of
/// added, removed and changed entities are coloured.
public enum MermaidDiagram {
    /// The diagram's text.
    public static func render(_ graph: ModelGraph) -> String {
        var lines = ["---", "title: \(comment("\(graph.model) \(graph.title)"))", "---", "erDiagram"]
        for box in graph.boxes {
            var rows: [String] = []
            if box.isAbstract { rows.append("        abstract entity \"" + comment("abstract") + "\"") }
            if let text = box.mark.text { rows.append("        change \(entityWord(box.mark)) \"" + comment(text) + "\"") }
            for row in box.attributes {
                let details = (row.mark.text.map { [$0] } ?? []) + row.details
                rows.append("        \(token(row.type)) \(token(row.name))" + (row.isUnique ? " UK" : "")
                            + (details.isEmpty ? "" : " \"" + comment(details.joined(separator: ", ")) + "\""))
            }
            lines += rows.isEmpty ? ["    \(name(box.name))"] : ["    \(name(box.name)) {"] + rows + ["    }"]
        }
        for box in graph.boxes {
            if let parent = box.parent { lines.append("    \(name(box.name)) |o..|| \(name(parent)) : \"is a\"") }
        }
        for line in graph.lines {
            let label = "\(line.from.relationship) / \(line.to.relationship)" + (line.mark.text.map { " (\($0))" } ?? "")
            lines.append("    \(name(line.from.entity)) \(left(line.to))--\(right(line.from)) \(name(line.to.entity)) : \"\(comment(label))\"")
        }
        for box in graph.boxes {
            switch box.mark {
            case .none: continue
            case .added: lines.append("    style \(name(box.name)) fill:#dcfce7,stroke:#15803d")
            case .removed: lines.append("    style \(name(box.name)) fill:#fee2e2,stroke:#b91c1c")
            case .renamed, .changed: lines.append("    style \(name(box.name)) fill:#fef9c3,stroke:#a16207")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func entityWord(_ mark: ModelGraph.Mark) -> String {
        switch mark {
        case .added: return "added"
        case .removed: return "removed"
        default: return "changed"
        }
    }

    /// The marker next to the entity an end's relationship starts from: how many of that entity
    /// one object at the other end relates to.
    private static func left(_ end: ModelGraph.End) -> String {
        end.kind.isToMany ? ((end.minCount ?? 0) > 0 ? "}|" : "}o") : "|o"
    }

    /// The marker next to the entity an end's relationship points at.
    private static func right(_ end: ModelGraph.End) -> String {
        end.kind.isToMany ? ((end.minCount ?? 0) > 0 ? "|{" : "o{") : "o|"
    }

    /// An entity name: as it is when Mermaid reads it as a name, quoted otherwise.
    static func name(_ text: String) -> String {
        token(text) == text ? text : "\"" + comment(text) + "\""
    }

    /// ASCII letters, digits, `_` and `-`, starting with a letter; anything else becomes `_`.
    static func token(_ text: String) -> String {
        var result = String(text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-") ? Character(scalar) : "_"
        })
        if let first = result.unicodeScalars.first, !(first.isASCII && first.properties.isAlphabetic) { result = "x" + result }
        return result.isEmpty ? "x" : result
    }

    /// Text inside Mermaid's double quotes, which cannot hold a quote or a line break.
    static func comment(_ text: String) -> String {
        String(text.map { $0 == "\"" ? "'" : ($0.isNewline ? " " : $0) })
    }
}
