/// Stencil's "smart" whitespace trimming, applied once to a template's source instead of on every
/// render of every text node.
///
/// With `TrimBehaviour.smart`, Stencil runs two regular expressions over each text node each time
/// the node is rendered, so a loop over thousands of properties runs them hundreds of thousands of
/// times. The same trimming done here, before parsing, gives the same output with
/// `TrimBehaviour.nothing`: next to a block tag (`{% ... %}`), the text after it loses its leading
/// spaces and tabs up to and including one line feed (only when a line feed follows them), and the
/// text before it loses its trailing spaces and tabs (those before a final line feed too).
enum TemplateTrimming {
    private enum Piece {
        case text(String)
        case block(String)
        case other(String)
    }

    /// The template source with the trimming applied.
    static func trimmed(_ source: String) -> String {
        let pieces = split(source)
        var output = ""
        output.reserveCapacity(source.utf8.count)
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .block(let text), .other(let text):
                output += text
            case .text(var text):
                if index > 0, case .block = pieces[index - 1] { text = trimLeading(text) }
                if index + 1 < pieces.count, case .block = pieces[index + 1] {
                    text = trimTrailing(text)
                    // A "{" now next to the tag would start another tag: write it as a literal.
                    if text.hasSuffix("{") { text = text.dropLast() + "{{ \"{\" }}" }
                }
                output += text
            }
        }
        return output
    }

    /// Text, block tags, and variable tags or comments, in order, as Stencil's lexer finds them.
    private static func split(_ source: String) -> [Piece] {
        let bytes = Array(source.utf8)
        var pieces: [Piece] = []
        var textStart = 0
        var position = 0
        let closers: [UInt8: UInt8] = [UInt8(ascii: "{"): UInt8(ascii: "}"), UInt8(ascii: "%"): UInt8(ascii: "%"), UInt8(ascii: "#"): UInt8(ascii: "#")]
        while position + 1 < bytes.count {
            guard bytes[position] == UInt8(ascii: "{"), let closer = closers[bytes[position + 1]],
                  let end = find(closer, in: bytes, from: position + 2) else {
                position += 1
                continue
            }
            if textStart < position { pieces.append(.text(string(bytes[textStart..<position]))) }
            let tag = string(bytes[position..<end])
            pieces.append(bytes[position + 1] == UInt8(ascii: "%") ? .block(tag) : .other(tag))
            position = end
            textStart = end
        }
        if textStart < bytes.count { pieces.append(.text(string(bytes[textStart...]))) }
        return pieces
    }

    /// The index just past `closer` followed by `}`, searching from `start`.
    private static func find(_ closer: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == closer, bytes[index + 1] == UInt8(ascii: "}") { return index + 2 }
            index += 1
        }
        return nil
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `^[ \t]*\n` removed.
    private static func trimLeading(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return text }
        return string(bytes[(index + 1)...])
    }

    /// `[ \t]*$` removed, where `$` is the end of the text or a final line feed.
    private static func trimTrailing(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let endsWithLineFeed = bytes.last == UInt8(ascii: "\n")
        var end = endsWithLineFeed ? bytes.count - 1 : bytes.count
        let lineEnd = end
        while end > 0, isBlank(bytes[end - 1]) { end -= 1 }
        bytes.removeSubrange(end..<lineEnd)
        return string(bytes[...])
    }
}
