// Compiled with the PostgreSQL trait only (see Package.swift and PostgreSQLTrait.swift).
#if PostgreSQL
import NIOCore
import PostgresNIO
import Strata

/// One column of a batch of rows, sent as one array parameter in PostgreSQL's binary form, each
/// value as its column's own type (so the server parses nothing but the array's frame).
///
/// A batch sends a column this way only when every value has the form its column's type takes
/// from Strata (an integer in the type's range, a double, text, bytes); ``init(_:values:)``
/// answers nil otherwise, and the batch sends its rows one by one, as statements of their own.
struct PostgreSQLArray: PostgresDynamicTypeEncodable {
    /// How one element is written.
    enum Element {
        case bool, int2, int4, int8, float4, float8, text, bytea, uuid
        /// `numeric` travels as its exact decimal text, cast by the statement.
        case numeric

        init(_ type: AttributeType?) {
            switch type {
            case nil, .int64?, .int?: self = .int8
            case .bool?: self = .bool
            case .int16?: self = .int2
            case .int32?: self = .int4
            case .double?, .date?: self = .float8
            case .float?: self = .float4
            case .decimal?: self = .numeric
            case .string?, .url?: self = .text
            case .data?, .codable?: self = .bytea
            case .uuid?: self = .uuid
            }
        }

        /// The array's PostgreSQL type, as a statement names it.
        var arrayTypeName: String {
            switch self {
            case .bool: return "boolean[]"
            case .int2: return "smallint[]"
            case .int4: return "integer[]"
            case .int8: return "bigint[]"
            case .float4: return "real[]"
            case .float8: return "double precision[]"
            case .text: return "text[]"
            case .bytea: return "bytea[]"
            case .uuid: return "uuid[]"
            case .numeric: return "numeric[]"
            }
        }

        /// The element type's OID, and the array type's.
        var oids: (element: UInt32, array: UInt32) {
            switch self {
            case .bool: return (16, 1000)
            case .int2: return (21, 1005)
            case .int4: return (23, 1007)
            case .int8: return (20, 1016)
            case .float4: return (700, 1021)
            case .float8: return (701, 1022)
            case .text, .numeric: return (25, 1009)
            case .bytea: return (17, 1001)
            case .uuid: return (2950, 2951)
            }
        }

        /// Writes a value in this element type's binary form (a decimal's text as `text`), and
        /// returns how many bytes it wrote (none for null).
        func write(_ value: SQLValue, into buffer: inout ByteBuffer) -> Int {
            switch value {
            case .null:
                return 0
            case .integer(let number):
                switch self {
                case .bool: return buffer.writeInteger(UInt8(number))
                case .int2: return buffer.writeInteger(Int16(number))
                case .int4: return buffer.writeInteger(Int32(number))
                default: return buffer.writeInteger(number)
                }
            case .real(let number):
                return self == .float4 ? buffer.writeInteger(Float(number).bitPattern) : buffer.writeInteger(number.bitPattern)
            case .text(let text):
                return buffer.writeString(text)
            case .blob(let bytes):
                return buffer.writeBytes(bytes)
            }
        }

        /// Whether `value` can be written as this element exactly as the server would read it
        /// from the value's text.
        func accepts(_ value: SQLValue) -> Bool {
            switch (self, value) {
            case (_, .null): return true
            case (.bool, .integer(let number)): return number == 0 || number == 1
            case (.int2, .integer(let number)): return Int16(exactly: number) != nil
            case (.int4, .integer(let number)): return Int32(exactly: number) != nil
            case (.int8, .integer): return true
            case (.float8, .real): return true
            case (.float4, .real(let number)): return number.isNaN || Double(Float(number)) == number
            case (.text, .text), (.numeric, .text), (.bytea, .blob): return true
            case (.uuid, .blob(let bytes)): return bytes.count == 16
            default: return false
            }
        }
    }

    let element: Element
    let values: [SQLValue]

    /// The column `values` of `type`, or nil when one of them is not in its type's form.
    init?(_ type: AttributeType?, values: [SQLValue]) {
        let element = Element(type)
        guard values.allSatisfy(element.accepts) else { return nil }
        self.element = element
        self.values = values
    }

    var psqlType: PostgresDataType { PostgresDataType(element.oids.array) }

    var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(Int32(1))                                   // dimensions
        buffer.writeInteger(Int32(values.contains(where: \.isNull) ? 1 : 0))
        buffer.writeInteger(element.oids.element)
        buffer.writeInteger(Int32(values.count))                        // length of the dimension
        buffer.writeInteger(Int32(1))                                   // its lower bound
        for value in values {
            guard !value.isNull else {
                buffer.writeInteger(Int32(-1))
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(Int32(0))
            let written = element.write(value, into: &buffer)
            buffer.setInteger(Int32(written), at: lengthIndex)
        }
    }
}
#endif
