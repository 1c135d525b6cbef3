/// When a change was made, by a hybrid logical clock: wall-clock milliseconds, a counter for
/// changes within one millisecond (or made after a later one was seen), and the node (a client's
/// ID, or the server's) that made it. Timestamps order every change of a content the same way on
/// every device and the server: by time, then counter, then node, so two nodes never tie.
public struct SyncTimestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970, as the node's clock read them (or later, after a later one seen).
    public let milliseconds: Int64
    /// Orders changes that share `milliseconds`.
    public let counter: UInt32
    /// The node that made the change; breaks ties.
    public let node: String

    /// A timestamp of its parts.
    public init(milliseconds: Int64, counter: UInt32, node: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.node = node
    }

    /// Orders by time, then counter, then node.
    public static func < (lhs: SyncTimestamp, rhs: SyncTimestamp) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.node) < (rhs.milliseconds, rhs.counter, rhs.node)
    }

    /// `1733380000000.3@client-a`: the wire form too.
    public var description: String { "\(milliseconds).\(counter)@\(node)" }

    /// Reads the wire form `milliseconds.counter@node`; nil for other text.
    public init?(_ text: String) {
        guard let at = text.firstIndex(of: "@"), let dot = text[..<at].firstIndex(of: "."),
              let milliseconds = Int64(text[..<dot]), let counter = UInt32(text[text.index(after: dot)..<at]) else { return nil }
        let node = String(text[text.index(after: at)...])
        guard !node.isEmpty else { return nil }
        self.init(milliseconds: milliseconds, counter: counter, node: node)
    }
}

extension SyncTimestamp: Codable {
    /// Decodes the wire form (see ``init(_:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let timestamp = SyncTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a timestamp (milliseconds.counter@node)")
        }
        self = timestamp
    }

    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
