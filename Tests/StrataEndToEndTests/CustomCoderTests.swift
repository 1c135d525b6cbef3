import Foundation
import Strata
import StrataTestSupport
import Testing

/// The Clinic model's `coder: custom` attributes (CoreStore's `@Field.Coded` with closures): the
/// generated code requires the encode and decode functions `ClinicCoding.swift` writes, values
/// round-trip exactly through them, and what they throw is reported with what it is about.
@Suite("Attributes the app codes")
@MainActor
struct CustomCoderTests {
    private func stackWithPatients() async throws -> (DataStack, [ObjectID<Patient>]) {
        let stack = DataStack(Clinic.schemaHistory)
        try stack.addStorageAndWait(freshStore())
        let ids = try await stack.perform { transaction in
            let ann = transaction.create(Into<Patient>())
            ann.name = "Ann"
            ann.bloodType = BloodType(group: "AB", positive: false)
            ann.allergies = Allergies(names: ["peanuts", "latex"])
            ann.class = .urgent
            let bob = transaction.create(Into<Patient>())
            bob.name = "Bob"
            bob.bloodType = BloodType(group: "O", positive: true)
            return [ann.objectID(as: Patient.self), bob.objectID(as: Patient.self)]
        }
        return (stack, ids)
    }

    @Test func valuesRoundTripThroughTheAppsFunctions() async throws {
        let (stack, ids) = try await stackWithPatients()
        let patients = try stack.fetchAll(From<Patient>().orderBy(.ascending(\.name)))
        #expect(patients.map(\.bloodType) == [BloodType(group: "AB", positive: false), BloodType(group: "O", positive: true)])
        #expect(patients.map(\.allergies) == [Allergies(names: ["peanuts", "latex"]), nil])
        #expect(patients.map(\.class) == [.urgent, nil])
        // A read context reads the same values from the store.
        let read = try await stack.read { reader in
            try reader.fetchAll(From<Patient>().orderBy(.ascending(\.name))).map(Patient.Snapshot.init)
        }
        #expect(read == patients.map(Patient.Snapshot.init))

        // A change reaches the main context's live object.
        try await stack.perform { transaction in
            let bob = try #require(transaction.edit(ids[1]))
            bob.bloodType.positive = false
            bob.allergies = Allergies(names: [])
            bob.class = .immediate
        }
        #expect(patients[1].bloodType == BloodType(group: "O", positive: false))
        #expect(patients[1].allergies == Allergies(names: []))
        #expect(patients[1].class == .immediate)
    }

    /// A snapshot's JSON holds the stored bytes the app's encode made, so the type need not be
    /// `Codable`; decoding the JSON goes through the app's decode.
    @Test func snapshotsCarryTheStoredBytes() async throws {
        let (stack, _) = try await stackWithPatients()
        let ann = Patient.Snapshot(try #require(try stack.fetchOne(From<Patient>().where(\.name == "Ann"))))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(ann), encoding: .utf8))
        #expect(json.contains(#""bloodType":"QUIt""#), "base64 of AB-: \(json)")
        #expect(json.contains(#""class":"Ag==""#), "one byte, 2: \(json)")
        #expect(try JSONDecoder().decode(Patient.Snapshot.self, from: Data(json.utf8)) == ann)
        let bob = Patient.Snapshot(try #require(try stack.fetchOne(From<Patient>().where(\.name == "Bob"))))
        let bobJSON = try #require(String(data: try encoder.encode(bob), encoding: .utf8))
        #expect(!bobJSON.contains("allergies") && !bobJSON.contains("class"), "nil values are left out: \(bobJSON)")
        let refused = #expect(throws: PayloadError.self) {
            try JSONDecoder().decode(Patient.Snapshot.self, from: Data(json.replacingOccurrences(of: "QUIt", with: "WFg=").utf8))
        }
        #expect(refused?.description == "the field 'bloodType' could not be decoded: 'XX' is not a blood type")
    }

    /// Stored bytes the app's decode refuses fail the read that meets them, naming the entity,
    /// the attribute and the object; nothing is changed, the other rows still read, and the object
    /// is not kept half-read: the next fetch reports it again.
    @Test func aDecodeThatThrowsNamesTheEntityTheAttributeAndTheObject() async throws {
        let (stack, _) = try await stackWithPatients()
        // "X+" encodes, but the clinic's decode knows no group X.
        let bad = try await stack.perform { transaction in
            let cy = transaction.create(Into<Patient>())
            cy.name = "Cy"
            cy.bloodType = BloodType(group: "X", positive: true)
            return cy.objectID(as: Patient.self)
        }
        let expected = StrataError.decodingFailed(entity: "Patient", attribute: "bloodType", object: "Patient #\(bad.rowID)",
                                                  reason: "'X+' is not a blood type")
        #expect(expected.description == "cannot read Patient #\(bad.rowID): the app's decode function of 'Patient.bloodType' threw: 'X+' is not a blood type")
        for _ in 0..<2 {
            #expect(throws: expected) { try stack.fetchAll(From<Patient>()) }
        }
        #expect(stack.fetchExisting(bad) == nil, "fetchExisting cannot throw: an object it cannot read is nil, as a deleted one")
        await #expect(throws: expected) {
            try await stack.read { reader in try reader.fetchAll(From<Patient>()).count }
        }
        await #expect(throws: expected) {
            try await stack.perform { transaction in _ = try transaction.fetchOne(From<Patient>().where(\.name == "Cy")) }
        }
        #expect(try stack.fetchAll(From<Patient>().where(\.name != "Cy").orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Bob"])
        #expect(try stack.fetchCount(From<Patient>()) == 3)
    }

    /// What the app's encode throws fails the commit, and nothing of the transaction is saved.
    @Test func anEncodeThatThrowsFailsTheCommitAndNothingIsSaved() async throws {
        let (stack, _) = try await stackWithPatients()
        await #expect(throws: StrataError.encodingFailed(type: "BloodType", coder: "custom", reason: "a blood type needs a group")) {
            try await stack.perform { transaction in
                let dee = transaction.create(Into<Patient>())
                dee.name = "Dee"
                dee.bloodType = BloodType(group: "", positive: true)
                try transaction.fetchOne(From<Patient>().where(\.name == "Ann"))?.name = "Ann Lee"
            }
        }
        #expect(try stack.fetchAll(From<Patient>().orderBy(.ascending(\.name))).map(\.name) == ["Ann", "Bob"])
    }
}
