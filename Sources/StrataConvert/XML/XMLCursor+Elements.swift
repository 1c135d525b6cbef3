/// Elements, attributes, text and character references.
extension XMLCursor {
    /// An element and everything inside it, read with an explicit stack of open elements.
    mutating func element() throws(XMLError) -> XMLTree {
        let (root, rootIsEmpty) = try startTag()
        if rootIsEmpty { return root }
        var open = [root]
        while true {
            guard let parent = open.last else { throw error("no open element") }
            if atEnd { throw error("'<\(parent.name)>' of line \(parent.line) is not closed") }
            if looking(at: "</") {
                let tagMark = mark
                skip("</")
                let name = try name()
                skipSpace()
                try expect(">")
                let closed = open.removeLast()
                guard closed.name == name else {
                    throw error("'</\(name)>' does not close '<\(closed.name)>' of line \(closed.line)", at: tagMark)
                }
                if open.isEmpty { return closed }
                open[open.count - 1].children.append(closed)
            } else if looking(at: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if looking(at: "<![CDATA[") {
                skip("<![CDATA[")
                let start = index
                let startMark = mark
                try skip(past: "]]>", what: "a CDATA section")
                open[open.count - 1].text += try text(bytes[start..<(index - 3)], from: startMark)
            } else if looking(at: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if looking(at: "<") {
                let tagMark = mark
                let (child, isEmpty) = try startTag()
                if isEmpty {
                    open[open.count - 1].children.append(child)
                } else {
                    guard open.count < XMLReader.maximumDepth else {
                        throw error("elements are nested deeper than \(XMLReader.maximumDepth) levels", at: tagMark)
                    }
                    open.append(child)
                }
            } else {
                open[open.count - 1].text += try characterData()
            }
        }
    }

    /// A start tag, and whether it is an empty-element tag (`<a/>`).
    mutating func startTag() throws(XMLError) -> (XMLTree, Bool) {
        let line = self.line
        let column = index - lineStart + 1
        try expect("<")
        var tree = XMLTree(name: try name(), line: line, column: column)
        while true {
            let before = index
            skipSpace()
            if looking(at: "/>") {
                skip("/>")
                return (tree, true)
            }
            if looking(at: ">") {
                skip(">")
                return (tree, false)
            }
            guard index > before else { throw error("expected a space, '>' or '/>'") }
            let name = try name()
            skipSpace()
            try expect("=")
            skipSpace()
            guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("expected the quoted value of '\(name)'")
            }
            advance()
            let value = try attributeValue(closedBy: quote)
            guard tree.attributes[name] == nil else { throw error("attribute '\(name)' is repeated") }
            tree.attributes[name] = value
        }
    }

    /// An attribute's value up to its closing quote, references resolved.
    mutating func attributeValue(closedBy quote: UInt8) throws(XMLError) -> String {
        var value: [UInt8] = []
        let startMark = mark
        while true {
            guard let byte = current else { throw error("an attribute value is not closed") }
            if byte == quote {
                advance()
                return try text(value[...], from: startMark)
            }
            if byte == UInt8(ascii: "<") { throw error("'<' inside an attribute value") }
            if byte == UInt8(ascii: "&") {
                value += try reference()
            } else {
                value.append(byte)
                advance()
            }
        }
    }

    /// Text up to the next `<`, references resolved.
    mutating func characterData() throws(XMLError) -> String {
        var value: [UInt8] = []
        let startMark = mark
        while let byte = current, byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                value += try reference()
            } else {
                value.append(byte)
                advance()
            }
        }
        return try text(value[...], from: startMark)
    }

    /// The UTF-8 of a character reference at `&`: `&amp;`, `&#233;`, `&#xE9;`.
    mutating func reference() throws(XMLError) -> [UInt8] {
        let start = index
        let startMark = mark
        advance()
        while let byte = current, byte != UInt8(ascii: ";"), index - start <= 12 { advance() }
        guard current == UInt8(ascii: ";") else {
            throw error("'&' does not start a reference such as '&amp;'", at: startMark)
        }
        let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        advance()
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        let number: UInt32?
        if name.hasPrefix("#x") {
            number = UInt32(name.dropFirst(2), radix: 16)
        } else if name.hasPrefix("#") {
            number = UInt32(name.dropFirst(), radix: 10)
        } else {
            throw error("unknown entity '&\(name);'")
        }
        guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
            throw error("'&\(name);' is not a character")
        }
        return Array(String(Character(scalar)).utf8)
    }
}
