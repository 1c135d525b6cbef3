/// An element of an XML document: its name, its attributes in document order, its child
/// elements and its text, and where it starts (for messages).
public struct XMLTree: Sendable, Hashable {
    /// The element's name, such as `entity`.
    public var name: String
    /// Attribute name → value, entities resolved.
    public var attributes: [String: String]
    /// The child elements, in order.
    public var children: [XMLTree]
    /// The text directly inside the element, entities resolved (empty for most model elements).
    public var text: String
    /// The 1-based line of the element's `<`.
    public var line: Int
    /// The 1-based column (in bytes) of the element's `<`.
    public var column: Int

    /// An element.
    public init(name: String, attributes: [String: String] = [:], children: [XMLTree] = [], text: String = "",
                line: Int = 1, column: Int = 1) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.column = column
    }

    /// The child elements with a name.
    public func children(named name: String) -> [XMLTree] {
        children.filter { $0.name == name }
    }

    /// The first child element with a name.
    public func child(named name: String) -> XMLTree? {
        children.first { $0.name == name }
    }
}

/// Why a file could not be read as XML, and where.
public struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line.
    public let line: Int
    /// The 1-based column, counted in bytes.
    public let column: Int
    /// What is wrong.
    public let message: String

    /// `3:14: expected '>'`.
    public var description: String { "\(line):\(column): \(message)" }
}
