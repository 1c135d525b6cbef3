import Foundation

/// A ``ModelGraph`` as Graphviz DOT: entities as tables, relationship pairs as lines with crow's
/// feet at to-many ends, dashed lines with hollow arrows from subentities to parents. In a diff,
/// added elements are green, removed ones red and struck through, renamed and changed ones amber.
public enum DotDiagram {
    /// The graph's DOT text.
    public static func render(_ graph: ModelGraph) -> String {
        var lines = ["digraph \(quoted("\(graph.model) \(graph.title)")) {",
                     "    graph [rankdir=LR, fontname=\"Helvetica\", label=\(quoted("\(graph.model) \(graph.title)")), labelloc=t];",
                     "    node [shape=plain, fontname=\"Helvetica\"];",
                     "    edge [fontname=\"Helvetica\", fontsize=10, dir=both];"]
        for box in graph.boxes {
            var rows = ["<tr><td bgcolor=\"\(fill(box.mark) ?? "#e5e7eb")\"><b>" + html(box.name) + "</b>"
                        + (box.isAbstract ? " <i>(abstract)</i>" : "") + (box.mark.text.map { "<br/><i>" + html($0) + "</i>" } ?? "") + "</td></tr>"]
            for row in box.attributes {
                let details = (row.isUnique ? ["unique"] : []) + row.details + (row.mark.text.map { [$0] } ?? [])
                var text = html(row.name) + ": " + html(row.type) + (details.isEmpty ? "" : " <i>(" + html(details.joined(separator: ", ")) + ")</i>")
                if row.mark == .removed { text = "<s>" + text + "</s>" }
                rows.append("<tr><td align=\"left\"" + (fill(row.mark).map { " bgcolor=\"\($0)\"" } ?? "") + ">" + text + "</td></tr>")
            }
            lines.append("    \(quoted(box.name)) [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">"
                         + rows.joined() + "</table>>];")
        }
        for box in graph.boxes {
            if let parent = box.parent { lines.append("    \(quoted(box.name)) -> \(quoted(parent)) [style=dashed, dir=forward, arrowhead=empty];") }
        }
        for line in graph.lines {
            let label = "\(line.from.relationship) / \(line.to.relationship)" + (line.mark.text.map { " (\($0))" } ?? "")
            var attributes = ["label=\(quoted(label))", "arrowhead=\(arrow(line.from))", "arrowtail=\(arrow(line.to))"]
            if let color = stroke(line.mark) { attributes.append("color=\"\(color)\"") }
            if line.mark == .removed { attributes.append("style=dashed") }
            lines.append("    \(quoted(line.from.entity)) -> \(quoted(line.to.entity)) [" + attributes.joined(separator: ", ") + "];")
        }
        return (lines + ["}"]).joined(separator: "\n") + "\n"
    }

    /// A crow's foot where the end's relationship reaches many, a bar where it reaches one.
    private static func arrow(_ end: ModelGraph.End) -> String {
        end.kind.isToMany ? ((end.minCount ?? 0) > 0 ? "crowtee" : "crowodot") : "teeodot"
    }

    private static func fill(_ mark: ModelGraph.Mark) -> String? {
        switch mark {
        case .none: return nil
        case .added: return "#dcfce7"
        case .removed: return "#fee2e2"
        case .renamed, .changed: return "#fef9c3"
        }
    }

    private static func stroke(_ mark: ModelGraph.Mark) -> String? {
        switch mark {
        case .none: return nil
        case .added: return "#15803d"
        case .removed: return "#b91c1c"
        case .renamed, .changed: return "#a16207"
        }
    }

    /// A DOT double-quoted string.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// Text inside an HTML-like label.
    static func html(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
