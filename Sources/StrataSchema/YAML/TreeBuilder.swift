import CYAML

/// Turns libyaml events into a ``YAMLNode`` tree with an explicit stack (no recursion, so deep
/// nesting cannot overflow the call stack), expanding aliases under a node budget.
struct TreeBuilder {
    private struct Frame {
        var isMapping: Bool
        var isFlow: Bool
        var location: SourceLocation
        var start: Int
        var anchor: String?
        var items: [YAMLNode] = []
        var entries: [YAMLNode.Entry] = []
        var merged: [YAMLNode.Entry] = []
        var pendingKey: YAMLNode?
        var skipValue = false
        var keyLocations: [String: SourceLocation] = [:]
        var weight = 1
    }

    private let file: String
    private let limits: YAMLLimits
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    private var root: YAMLNode?
    private var documents = 0
    private var expandedNodes = 0
    private var diagnostics: [Diagnostic] = []
    private var stopped = false
    private var streamEnded = false

    init(file: String, limits: YAMLLimits) {
        self.file = file
        self.limits = limits
    }

    /// Whether the reader should stop asking libyaml for events.
    var isFinished: Bool { stopped || streamEnded }

    /// Records a fatal problem and stops reading.
    mutating func fail(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.error, at: location, message))
        stopped = true
    }

    /// The tree and problems; an empty file is a problem of its own.
    func result() -> YAMLReader.Result {
        if stopped { return YAMLReader.Result(root: nil, diagnostics: diagnostics) }
        guard let root else {
            let message = "file is empty; expected a mapping of keys"
            return YAMLReader.Result(root: nil, diagnostics: diagnostics + [Diagnostic(.error, at: .start(of: file), message)])
        }
        return YAMLReader.Result(root: root, diagnostics: diagnostics)
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    mutating func handle(_ event: yaml_event_t) {
        switch event.type {
        case YAML_STREAM_END_EVENT:
            streamEnded = true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                fail("a model file holds one YAML document; a second one starts here", at: location(event.start_mark))
            }
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else {
                fail("alias '*\(name)' refers to no anchor defined before it", at: location(event.start_mark))
                return
            }
            var copy = anchored.node
            copy.location = location(event.start_mark)
            add(copy, weight: anchored.weight, anchor: nil, isAlias: true)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let node = YAMLNode(
                location: location(event.start_mark),
                kind: .scalar(.init(text: text, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, tag: Self.string(scalar.tag))),
                span: event.start_mark.index..<event.end_mark.index
            )
            add(node, weight: 1, anchor: Self.string(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            push(isMapping: false, isFlow: start.style == YAML_FLOW_SEQUENCE_STYLE, event: event, anchor: Self.string(start.anchor))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            push(isMapping: true, isFlow: start.style == YAML_FLOW_MAPPING_STYLE, event: event, anchor: Self.string(start.anchor))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            pop(endIndex: event.end_mark.index)
        default:
            break
        }
    }

    private mutating func push(isMapping: Bool, isFlow: Bool, event: yaml_event_t, anchor: String?) {
        guard stack.count < limits.maximumDepth else {
            fail("nesting is deeper than \(limits.maximumDepth) levels", at: location(event.start_mark))
            return
        }
        stack.append(Frame(isMapping: isMapping, isFlow: isFlow, location: location(event.start_mark),
                           start: event.start_mark.index, anchor: anchor))
    }

    private mutating func pop(endIndex: Int) {
        guard let frame = stack.popLast() else { return }
        let kind: YAMLNode.Kind
        if frame.isMapping, frame.merged.isEmpty {
            kind = .mapping(frame.entries)
        } else if frame.isMapping {
            let explicitKeys = Set(frame.entries.compactMap(\.key.scalarText))
            var seen = explicitKeys
            var entries = frame.entries
            for entry in frame.merged {
                guard let key = entry.key.scalarText, !seen.contains(key) else { continue }
                seen.insert(key)
                entries.append(entry)
            }
            kind = .mapping(entries)
        } else {
            kind = .sequence(frame.items)
        }
        let node = YAMLNode(location: frame.location, kind: kind, isFlow: frame.isFlow, span: frame.start..<endIndex)
        add(node, weight: frame.weight, anchor: frame.anchor)
    }

    /// Adds a finished node to its parent. Nodes built from events count once each as they are
    /// built (their children were counted before them); an alias copy counts its whole weight.
    private mutating func add(_ node: YAMLNode, weight: Int, anchor: String?, isAlias: Bool = false) {
        guard !stopped else { return }
        expandedNodes += isAlias ? weight : 1
        if expandedNodes > limits.maximumExpandedNodes {
            fail("aliases expand this document past \(limits.maximumExpandedNodes) nodes; a model file never needs that many", at: node.location)
            return
        }
        if let anchor { anchors[anchor] = (node, weight) }
        guard var frame = stack.popLast() else {
            root = node
            return
        }
        frame.weight += weight
        if !frame.isMapping {
            frame.items.append(node)
        } else if let key = frame.pendingKey {
            frame.pendingKey = nil
            if frame.skipValue {
                frame.skipValue = false
            } else if key.scalarText == "<<", case .scalar(let scalar) = key.kind, scalar.isPlain {
                merge(node, into: &frame)
            } else {
                frame.entries.append(.init(key: key, value: node))
            }
        } else {
            acceptKey(node, into: &frame)
        }
        stack.append(frame)
    }

    private mutating func acceptKey(_ key: YAMLNode, into frame: inout Frame) {
        frame.pendingKey = key
        guard let text = key.scalarText else {
            diagnostics.append(Diagnostic(.error, at: key.location, "mapping keys must be plain names, not \(key.kindDescription)"))
            frame.skipValue = true
            return
        }
        if let first = frame.keyLocations[text] {
            diagnostics.append(Diagnostic(.error, at: key.location,
                                          "duplicate key '\(text)' (first defined at line \(first.line), column \(first.column))"))
            frame.skipValue = true
            return
        }
        frame.keyLocations[text] = key.location
    }

    private mutating func merge(_ value: YAMLNode, into frame: inout Frame) {
        let sources = value.items ?? [value]
        for source in sources {
            guard let entries = source.entries else {
                diagnostics.append(Diagnostic(.error, at: source.location, "a merge key '<<' takes a mapping or a sequence of mappings, not \(source.kindDescription)"))
                continue
            }
            frame.merged.append(contentsOf: entries)
        }
    }
}
