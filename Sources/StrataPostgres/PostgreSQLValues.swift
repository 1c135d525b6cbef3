// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import NIOCore
import PostgresNIO
import Strata

/// How Strata's values cross the wire to PostgreSQL and back.
///
/// Parameters are sent without a type (OID 0), so the server gives each the type its place in
/// the statement needs: integers, doubles and text as text (`1` fits `bigint`, `integer`,
/// `smallint`, `boolean` and `numeric` alike; a double is written in its shortest form that reads
/// back to the same bits), bytes in binary (the raw bytes are both `bytea`'s and `uuid`'s binary
/// form). Results arrive in binary and become the value SQLite would have returned for the same
/// column: integers and booleans as integers, `real` and `double precision` as doubles, `numeric`
/// as its exact decimal text, `uuid` and `bytea` as bytes.
enum PostgreSQLValues {
    /// One parameter, typed by the server.
    struct Parameter: PostgresDynamicTypeEncodable {
        let value: SQLValue

        var psqlType: PostgresDataType { .null }

        var psqlFormat: PostgresFormat {
            if case .blob = value { return .binary }
            return .text
        }

        func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
            switch value {
            case .null: break
            case .integer(let number): buffer.writeString(String(number))
            case .real(let number): buffer.writeString(PostgreSQLValues.text(of: number))
            case .text(let text): buffer.writeString(text)
            case .blob(let bytes): buffer.writeBytes(bytes)
            }
        }
    }

    /// The bindings of a statement's `$1`, `$2`, ... parameters.
    static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if value.isNull { bindings.appendNull() } else { bindings.append(Parameter(value: value), context: .default) }
        }
        return bindings
    }

    /// A double as PostgreSQL's `float8`/`float4` input reads it back exactly.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return String(number)
    }

    /// A result cell as the value SQLite would hold for it.
    static func value(of cell: PostgresCell) -> SQLValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .text { return .text(bytes.readString(length: bytes.readableBytes) ?? "") }
        switch cell.dataType {
        case .int8: return bytes.readInteger(as: Int64.self).map(SQLValue.integer) ?? .null
        case .int4: return bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) } ?? .null
        case .int2: return bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) } ?? .null
        case .oid: return bytes.readInteger(as: UInt32.self).map { .integer(Int64($0)) } ?? .null
        case .bool: return bytes.readInteger(as: UInt8.self).map { .integer($0 == 0 ? 0 : 1) } ?? .null
        case .float8: return bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) } ?? .null
        case .float4: return bytes.readInteger(as: UInt32.self).map { .real(Double(Float(bitPattern: $0))) } ?? .null
        case .numeric: return numericText(&bytes).map(SQLValue.text) ?? .null
        case .bytea, .uuid: return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
        case .text, .varchar, .bpchar, .name, .unknown: return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        default: return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
        }
    }

    /// A binary `numeric` as its exact decimal text (`-12.50`, `NaN`), as PostgreSQL prints it.
    static func numericText(_ buffer: inout ByteBuffer) -> String? {
        guard let count = buffer.readInteger(as: Int16.self), let weight = buffer.readInteger(as: Int16.self),
              let sign = buffer.readInteger(as: UInt16.self), let scale = buffer.readInteger(as: Int16.self) else { return nil }
        switch sign {
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        default: break
        }
        var groups: [Int16] = []
        for _ in 0..<max(0, Int(count)) {
            guard let group = buffer.readInteger(as: Int16.self) else { return nil }
            groups.append(group)
        }
        // Base-10000 digits: groups[0] is worth 10000^weight.
        func group(_ position: Int) -> Int16 {
            let index = Int(weight) - position
            return index >= 0 && index < groups.count ? groups[index] : 0
        }
        var integer = ""
        if weight >= 0 {
            for position in stride(from: Int(weight), through: 0, by: -1) {
                let digits = String(group(position))
                integer += integer.isEmpty ? digits : String(repeating: "0", count: 4 - digits.count) + digits
            }
        }
        if integer.isEmpty { integer = "0" }
        var fraction = ""
        var position = -1
        while fraction.count < Int(scale) {
            let digits = String(group(position))
            fraction += String(repeating: "0", count: 4 - digits.count) + digits
            position -= 1
        }
        fraction = String(fraction.prefix(Int(scale)))
        let text = fraction.isEmpty ? integer : integer + "." + fraction
        return sign == 0x4000 ? "-" + text : text
    }
}
#endif
