/// How `queryValue` turns a stored or computed value into the type asked for, as CoreStore's
/// queries convert through `NSNumber`: numbers convert between every numeric type and `Bool`
/// (non-zero is true) when no information is lost, and to text; text holding a number converts
/// to numbers. A conversion that would lose information (300 as `Int8`, 2.5 as `Int`) gives nil.
enum QueryConversion {
    static func value<R: QueryableAttributeType>(_ value: SQLValue, as type: R.Type) -> R? {
        if value.isNull { return nil }
        if let direct = R(sqlValue: value) { return direct }
        switch value {
        case .integer(let integer):
            if R.self == String.self { return String(integer) as? R }
            return R(sqlValue: .real(Double(integer)))
        case .real(let real):
            if R.self == String.self { return String(real) as? R }
            if R.self == Bool.self, real == 0 || real == 1 { return (real == 1) as? R }
            guard let integer = Int64(exactly: real) else { return nil }
            return R(sqlValue: .integer(integer))
        case .text(let text):
            if let integer = Int64(text) { return R(sqlValue: .integer(integer)) }
            if let real = Double(text) { return R(sqlValue: .real(real)) }
            return nil
        case .null, .blob:
            return nil
        }
    }
}
