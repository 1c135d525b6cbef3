import Testing
@testable import StrataConvert

@Suite("Reading XML")
struct XMLReaderTests {
    private func parse(_ text: String) throws(XMLError) -> XMLTree {
        try XMLReader.parse(Array(text.utf8))
    }

    @Test func elementsAttributesTextAndPositions() throws {
        let tree = try parse("""
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [ <!ENTITY x "y"> ]>
            <!-- a comment -->
            <model a="1" b='two &amp; &lt;3&gt; &quot;q&quot; &apos;s&apos; &#233;&#xE9;'>
              <entity name="Person"/>
              <note>a &amp; b<![CDATA[ <raw> & ]]><?pi ignored?><!-- gone --></note>
            </model>
            <!-- trailing -->
            """)
        #expect(tree.name == "model")
        #expect(tree.attributes == ["a": "1", "b": "two & <3> \"q\" 's' éé"])
        #expect(tree.line == 4 && tree.column == 1)
        #expect(tree.children.map(\.name) == ["entity", "note"])
        #expect(tree.child(named: "entity")?.attributes["name"] == "Person")
        #expect(tree.child(named: "entity")?.line == 5 && tree.child(named: "entity")?.column == 3)
        #expect(tree.child(named: "note")?.text == "a & b <raw> & ")
        #expect(tree.children(named: "nothing").isEmpty)
    }

    @Test func deepNestingIsReadWithoutRecursion() throws {
        let depth = XMLReader.maximumDepth
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        var tree = try parse(text)
        var levels = 1
        while let child = tree.children.first {
            tree = child
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test(arguments: [
        ("", "1:1: the file holds no element"),
        ("text", "1:1: expected '<'"),
        ("<a>", "1:4: '<a>' of line 1 is not closed"),
        ("<a></b>", "1:4: '</b>' does not close '<a>' of line 1"),
        ("<a x=\"1\" x=\"2\"/>", "1:15: attribute 'x' is repeated"),
        ("<a x=1/>", "1:6: expected the quoted value of 'x'"),
        ("<a x=\"1\"y=\"2\"/>", "1:9: expected a space, '>' or '/>'"),
        ("<a x=\"<\"/>", "1:7: '<' inside an attribute value"),
        ("<a x=\"1/>", "1:10: an attribute value is not closed"),
        ("<a>&nbsp;</a>", "1:10: unknown entity '&nbsp;'"),
        ("<a>&#0;</a>", "1:8: '&#0;' is not a character"),
        ("<a>&#xD800;</a>", "1:12: '&#xD800;' is not a character"),
        ("<a>& b</a>", "1:4: '&' does not start a reference such as '&amp;'"),
        ("<a>\n x &\n\n\n y</a>", "2:4: '&' does not start a reference such as '&amp;'"),
        ("<a/><b/>", "1:5: content after the root element"),
        ("<a><!-- open</a>", "1:17: a comment is not closed with '-->'"),
        ("<a><![CDATA[x</a>", "1:18: a CDATA section is not closed with ']]>'"),
        ("<!DOCTYPE a", "1:12: a document type declaration is not closed with '>'"),
        ("<1/>", "1:2: expected a name"),
        ("<a>\n  <b>\n</a>", "3:1: '</a>' does not close '<b>' of line 2"),
        ("<a x=\"1\u{0}2\"/>", "1:7: control character U+0000 is not allowed in XML"),
        ("<a>ok\u{1B}</a>", "1:4: control character U+001B is not allowed in XML"),
    ])
    func malformedXMLIsAnErrorAtItsPlace(text: String, message: String) {
        #expect(throws: (any Error).self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func invalidUTF8AndDepthAreErrors() {
        #expect(throws: XMLError(line: 1, column: 7, message: "invalid UTF-8")) { try XMLReader.parse(Array("<a x=\"".utf8) + [0xFF] + Array("\"/>".utf8)) }
        let depth = XMLReader.maximumDepth + 1
        #expect(throws: XMLError(line: 1, column: 3 * depth - 2, message: "elements are nested deeper than 256 levels")) {
            try parse(String(repeating: "<a>", count: depth))
        }
    }
}
