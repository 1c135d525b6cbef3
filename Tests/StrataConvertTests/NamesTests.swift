import StrataSchema
import Testing
@testable import StrataConvert

@Suite("Names and YAML scalars")
struct NamesTests {
    @Test(arguments: [
        ("MyApp.V2", "_", "MyApp_V2"), ("MyApp 2", "V", "MyApp2"), ("2.0", "V", "V2_0"), ("My-Model", "_", "MyModel"),
        ("Café", "_", "Café"), ("a+b", "_", "a_b"), ("", "_", "_"), ("Valid_1", "_", "Valid_1"),
    ])
    func namesBecomeIdentifiers(name: String, prefix: String, expected: String) {
        #expect(Names.identifier(name, prefix: prefix) == expected)
        #expect(ModelNames.isValid(Names.identifier(name, prefix: prefix)))
    }

    @Test func versionsSortNaturally() {
        let names = ["Model 10", "Model", "Model 2", "Model 1.5", "Model 02", "Other"]
        #expect(names.sorted(by: Names.naturallyPrecedes) == ["Model", "Model 1.5", "Model 02", "Model 2", "Model 10", "Other"])
    }

    /// Any text written as a scalar reads back from YAML as the same text, so no name or value from
    /// a Core Data model can change the structure of a converted file.
    @Test func scalarsReadBackAsTheSameText() throws {
        var generator = SplitMix(seed: 0x5EED)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "_", "0", " ", ":", "#", "\"", "'", "\\", "\n", "\t", "\r", "{", "}", "[", "]", ",",
                                          "&", "*", "!", "|", ">", "%", "@", "`", "-", "?", "é", "😀", "\u{85}", "\u{2028}", "\u{1}", "\u{7F}", "\u{FEFF}",
                                          "\u{80}", "\u{8B}", "\u{9F}", "\u{A0}", "\u{FFFE}", "\u{FFFF}"]
        var samples = ["", "null", "true", "False", "~", "yes", "1", "0x1F", "1e3", ".inf", "- a", "a: b", "#c"]
        for _ in 0..<500 {
            let length = Int(generator.next() % 12)
            samples.append(String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })))
        }
        for text in samples {
            let yaml = "key: " + YAMLText.scalar(text) + "\n"
            let read = try #require(try YAMLProbe.value(ofKey: "key", in: yaml), "\(yaml)")
            #expect(read == text, "\(YAMLText.scalar(text))")
        }
    }
}

/// A small deterministic generator, so a failure repeats.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

/// Reads one key's value the way model files are read: the scalar's text, nil when it is null or
/// not a scalar.
enum YAMLProbe {
    static func value(ofKey key: String, in yaml: String) throws -> String? {
        let result = YAMLReader.read(Array(yaml.utf8), file: "probe.yml")
        guard result.diagnostics.isEmpty, case .mapping(let entries)? = result.root?.kind,
              let entry = entries.first(where: { $0.key.scalarText == key }), !entry.value.isNull else { return nil }
        return entry.value.scalarText
    }
}
