import Foundation

/// A blood type, stored as doctors write it ("AB-", "O+"). Deliberately not `Codable`: the Clinic
/// model codes it with the app's own functions (`coder: custom`).
struct BloodType: Hashable, Sendable {
    var group: String
    var positive: Bool
}

/// Known allergies, stored as one line each.
struct Allergies: Hashable, Sendable {
    var names: [String]
}

/// How urgent a record is, stored as one byte.
enum Triage: UInt8, Hashable, Sendable {
    case routine = 1, urgent, immediate
}

/// What the clinic's decode functions throw for bytes they do not read.
struct ClinicCodingError: Error, CustomStringConvertible {
    let description: String
}

// snippet: custom-coder
extension Patient: PatientCustomCoding {
    static func encode(bloodType value: BloodType) throws -> Data {
        // A group the clinic never records is refused before it reaches the store.
        guard !value.group.isEmpty else { throw ClinicCodingError(description: "a blood type needs a group") }
        return Data((value.group + (value.positive ? "+" : "-")).utf8)
    }

    static func decode(bloodType data: Data) throws -> BloodType {
        let text = String(decoding: data, as: UTF8.self)
        guard let sign = text.last, sign == "+" || sign == "-", ["A", "B", "AB", "O"].contains(String(text.dropLast())) else {
            throw ClinicCodingError(description: "'\(text)' is not a blood type")
        }
        return BloodType(group: String(text.dropLast()), positive: sign == "+")
    }
}
// end snippet

/// The other attribute `PatientCustomCoding` asks for: any extension of the class may hold them.
extension Patient {
    static func encode(allergies value: Allergies) throws -> Data {
        Data(value.names.joined(separator: "\n").utf8)
    }

    static func decode(allergies data: Data) throws -> Allergies {
        Allergies(names: data.isEmpty ? [] : String(decoding: data, as: UTF8.self).components(separatedBy: "\n"))
    }
}

extension Record: RecordCustomCoding {
    static func encode(class value: Triage) throws -> Data {
        Data([value.rawValue])
    }

    static func decode(class data: Data) throws -> Triage {
        guard data.count == 1, let triage = Triage(rawValue: data[data.startIndex]) else {
            throw ClinicCodingError(description: "\(data.count) bytes are not a triage level")
        }
        return triage
    }
}
