import Foundation
import Testing
@testable import Strata

/// `PayloadReader` as generated types use it: every problem of a body in one `PayloadError`, each
/// naming its field, what the field must be and what came.
@Suite("Payload reading")
struct PayloadReaderTests {
    /// A dog as a create body gives it: a required nickname, the rest optional.
    struct DogBody: Decodable, Equatable {
        var nickname: String
        var weight: PatchField<Double>
        var years: PatchField<Int16>
        var chip: PatchField<UUID>
        var vaccinated: PatchField<Bool>
        var home: PatchField<URL>
        var born: PatchField<Date>
        var tags: PatchField<[String]>

        static let fields = ["nickname", "weight", "years", "chip", "vaccinated", "home", "born", "tags"]

        init(from decoder: any Decoder) throws {
            var reader = try PayloadReader(decoder, entity: "Dog", fields: Self.fields)
            nickname = reader.required("nickname") ?? ""
            weight = reader.field("weight")
            years = reader.notNull("years")
            chip = reader.field("chip")
            vaccinated = reader.field("vaccinated")
            home = reader.field("home")
            born = reader.field("born")
            tags = reader.field("tags")
            try reader.finish()
        }
    }

    /// A person with dogs, for problems of nested objects.
    struct PersonBody: Decodable {
        var name: String?
        var dogs: [DogBody]?

        init(from decoder: any Decoder) throws {
            var reader = try PayloadReader(decoder, entity: "Person", fields: ["name", "dogs"])
            name = reader.optional("name")
            dogs = reader.optional("dogs")
            try reader.finish()
        }
    }

    private func problems<T: Decodable>(_ json: String, as type: T.Type = DogBody.self) -> String? {
        do {
            _ = try JSONDecoder().decode(T.self, from: Data(json.utf8))
            return nil
        } catch let error as PayloadError {
            return error.description
        } catch {
            return "not a PayloadError: \(error)"
        }
    }

    @Test func aGoodBodyReadsEveryFieldAbsentNullOrSet() throws {
        let dog = try JSONDecoder().decode(DogBody.self, from: Data(#"{"nickname": "Rex", "weight": 12.5, "chip": null, "tags": ["a"]}"#.utf8))
        #expect(dog.nickname == "Rex")
        #expect(dog.weight == .set(12.5))
        #expect(dog.years == .absent && !dog.years.isPresent)
        #expect(dog.chip == .null && dog.chip.isPresent && dog.chip.givenValue == nil)
        #expect(dog.tags.givenValue == ["a"])
    }

    @Test func aWrongKindOfValueNamesTheFieldWhatItMustBeAndWhatCame() {
        #expect(problems(#"{"nickname": "Rex", "weight": "heavy"}"#) == "the field 'weight' must be a number, found text")
        #expect(problems(#"{"nickname": 7}"#) == "the field 'nickname' must be text, found a whole number")
        #expect(problems(#"{"nickname": "Rex", "vaccinated": 1}"#) == "the field 'vaccinated' must be true or false, found a whole number")
        #expect(problems(#"{"nickname": "Rex", "tags": {"a": 1}}"#) == "the field 'tags' must be an array, found an object")
        #expect(problems(#"{"nickname": "Rex", "weight": [1]}"#) == "the field 'weight' must be a number, found an array")
        #expect(problems(#"{"nickname": "Rex", "years": true}"#)
                == "the field 'years' must be a whole number from -32768 to 32767, found true")
    }

    @Test func aValueOfTheRightKindThatDoesNotFitIsShown() {
        #expect(problems(#"{"nickname": "Rex", "years": 70000}"#) == "the field 'years' must be a whole number from -32768 to 32767, found 70000")
        #expect(problems(#"{"nickname": "Rex", "years": 2.5}"#) == "the field 'years' must be a whole number from -32768 to 32767, found 2.5")
        #expect(problems(#"{"nickname": "Rex", "chip": "not-a-uuid"}"#)
                == #"the field 'chip' must be a UUID (text such as "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), found "not-a-uuid""#)
    }

    @Test func missingNullAndUnknownFieldsAreProblemsToo() {
        #expect(problems(#"{}"#) == "the field 'nickname' is missing")
        #expect(problems(#"{"nickname": null}"#) == "the field 'nickname' cannot be null")
        #expect(problems(#"{"nickname": "Rex", "years": null}"#) == "the field 'years' cannot be null")
        #expect(problems(#"{"nickname": "Rex", "colour": "red", "age": 3}"#)
                == "the field 'age' is not a field of Dog (its fields are nickname, weight, years, chip, vaccinated, home, born, tags); "
                + "the field 'colour' is not a field of Dog (its fields are nickname, weight, years, chip, vaccinated, home, born, tags)")
    }

    @Test func everyProblemOfABodyIsInOneError() throws {
        let error = try #require(problems(#"{"weight": "heavy", "years": 1e9, "vaccinated": "yes", "size": 2}"#))
        #expect(error == "the field 'size' is not a field of Dog (its fields are nickname, weight, years, chip, vaccinated, home, born, tags); "
                + "the field 'nickname' is missing; the field 'weight' must be a number, found text; "
                + "the field 'years' must be a whole number from -32768 to 32767, found 1000000000; "
                + "the field 'vaccinated' must be true or false, found text")
    }

    @Test func aBodyThatIsNotAnObjectIsRefusedAtOnce() {
        #expect(problems(#"[1, 2]"#) == "the body must be a JSON object, found an array")
        #expect(problems(#""Rex""#) == "the body must be a JSON object, found text")
        #expect(problems(#"null"#) == "the body must be a JSON object, found null")
    }

    @Test func problemsOfNestedObjectsNameTheirPath() {
        #expect(problems(#"{"name": "Ann", "dogs": [{"nickname": "Rex"}, {"nickname": "Ace", "weight": "heavy"}, 3]}"#, as: PersonBody.self)
                == "the field 'dogs[1].weight' must be a number, found text")
        #expect(problems(#"{"dogs": [{"nickname": "Rex"}, 3]}"#, as: PersonBody.self) == "the field 'dogs[1]' must be a JSON object, found a whole number")
        #expect(problems(#"{"name": 1, "dogs": [{"weight": true}]}"#, as: PersonBody.self)
                == "the field 'name' must be text, found a whole number; the field 'dogs[0].nickname' is missing; "
                + "the field 'dogs[0].weight' must be a number, found true")
    }

    /// A value the app codes itself (`coder: custom`): its bytes as base64 text, through a decode
    /// function whose error is a problem of the field.
    struct ChipBody: Decodable {
        var chip: PatchField<String>
        var backup: PatchField<String>

        static func decode(_ data: Data) throws -> String {
            guard let text = String(data: data, encoding: .utf8), text.hasPrefix("chip-") else {
                throw PayloadError(problems: [PayloadError.Problem(field: "", reason: "holds no chip number")])
            }
            return text
        }

        init(from decoder: any Decoder) throws {
            var reader = try PayloadReader(decoder, entity: "Tag", fields: ["chip", "backup"])
            chip = reader.customNotNull("chip", decode: Self.decode)
            backup = reader.customField("backup", decode: Self.decode)
            try reader.finish()
        }
    }

    @Test func customCodedFieldsGoThroughTheirDecodeFunction() throws {
        let good = try JSONDecoder().decode(ChipBody.self, from: Data(#"{"chip": "Y2hpcC0x", "backup": null}"#.utf8))
        #expect(good.chip == .set("chip-1") && good.backup == .null)
        #expect(problems(#"{"chip": "eA==", "backup": 3}"#, as: ChipBody.self)
                == "the field 'chip' could not be decoded: the body holds no chip number; "
                + "the field 'backup' must be base64-encoded data (text), found a whole number")
        #expect(problems(#"{"chip": null}"#, as: ChipBody.self) == "the field 'chip' cannot be null")
    }

    @Test func aFieldSaysWhatItHolds() {
        let fields: [PatchField<Int>] = [.absent, .null, .set(3)]
        #expect(fields.map(\.isPresent) == [false, true, true])
        #expect(fields.map(\.isSet) == [false, false, true])
        #expect(fields.map(\.givenValue) == [nil, nil, 3])
        #expect(fields.map(\.change) == [nil, .some(nil), .some(3)])
        #expect(fields.map { $0.map { $0 * 2 } } == [.absent, .null, .set(6)])
    }

    @Test func theErrorListsItsProblemsByField() throws {
        do {
            _ = try JSONDecoder().decode(DogBody.self, from: Data(#"{"weight": "x"}"#.utf8))
            Issue.record("decoded a body without its nickname")
        } catch let error as PayloadError {
            #expect(error.problems.map(\.field) == ["nickname", "weight"])
            #expect(error.problems.map(\.reason) == ["is missing", "must be a number, found text"])
        }
    }
}
