import StrataSchema

/// The Swift spelled for one attribute: its types, its stored default, and how generated code
/// reads and binds it.
struct AttributeCode {
    let attribute: Attribute
    /// The type of the public property.
    let publicType: String
    /// The type of the private backing property.
    let storageType: String
    /// The backing property's initial value.
    let initialValue: String
    /// The statement reading the column into the backing property.
    let read: String
    /// The statement binding the backing property.
    let bind: String
    /// The runtime's attribute type case.
    let typeCase: String

    /// The code of an attribute whose value lives in `storage` (by default the entity class's
    /// stored value, ``EntityContext/storage(_:)``).
    init(_ attribute: Attribute, storage: String? = nil) {
        self.attribute = attribute
        let storage = storage ?? EntityContext.storage(attribute.name)
        let optional = attribute.isOptional
        let base: String
        var read: String
        // The binder's method for a non-optional value: a typed one where it exists, else the generic one.
        var bindLabel = "value"
        var bind: String?
        var zero: String
        switch attribute.type {
        case .bool:
            base = "Bool"; zero = "false"; read = optional ? "reader.optionalValue(Bool.self)" : "reader.bool()"
            bindLabel = "bool"
        case .int16, .int32:
            base = attribute.type.rawValue; zero = "0"
            let method = attribute.type == .int16 ? "int16" : "int32"
            read = optional ? "reader.optionalValue(\(base).self)" : "reader.\(method)()"
            bindLabel = method
        case .int64:
            base = "Int64"; zero = "0"; read = optional ? "reader.optionalInt64()" : "reader.int64()"
            bindLabel = "int64"
        case .int:
            base = "Int"; zero = "0"; read = optional ? "reader.optionalValue(Int.self)" : "reader.int()"
            bindLabel = "int"
        case .double:
            base = "Double"; zero = "0"; read = optional ? "reader.optionalDouble()" : "reader.double()"
            bindLabel = "double"
        case .float:
            base = "Float"; zero = "0"; read = optional ? "reader.optionalValue(Float.self)" : "reader.float()"
            bindLabel = "float"
        case .decimal:
            base = "Decimal"; zero = "0"; read = optional ? "reader.optionalValue(Decimal.self)" : "reader.value(Decimal.self, fallback: 0)"
        case .string:
            base = "String"; zero = "\"\""; read = optional ? "reader.optionalString()" : "reader.string()"
            bindLabel = "string"
        case .date:
            base = "Date"; zero = "Date(timeIntervalSince1970: 0)"; read = optional ? "reader.optionalDate()" : "reader.date()"
            bindLabel = "date"
        case .data:
            base = "Data"; zero = "Data()"; read = optional ? "reader.optionalValue(Data.self)" : "reader.value(Data.self, fallback: Data())"
        case .uuid:
            base = "UUID"; zero = "UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))"
            read = optional ? "reader.optionalValue(UUID.self)" : "reader.value(UUID.self, fallback: \(storage))"
        case .url:
            base = "URL"; zero = "URL(fileURLWithPath: \"/\")"
            read = optional ? "reader.optionalValue(URL.self)" : "reader.value(URL.self, fallback: \(storage))"
        case .codable where attribute.coder == .custom:
            base = attribute.swiftType ?? "Never"; zero = "nil"
            let label = SwiftSyntax.argumentLabel(attribute.name)
            read = "reader.custom(\(base).self, attribute: \(SwiftSyntax.stringLiteral(attribute.name)), of: self, decode: Self.decode(\(label):))"
            bind = "binder.bind(custom: \(storage), encode: Self.encode(\(label):))"
        case .codable:
            base = attribute.swiftType ?? "Never"; zero = "nil"
            let coder = attribute.coder?.rawValue ?? "json"
            read = "reader.codable(\(base).self, coder: .\(coder))"
            bind = "binder.bind(codable: \(storage), coder: .\(coder))"
        }
        self.read = storage + " = " + read
        self.bind = bind ?? "binder.bind(\(optional ? "value" : bindLabel): \(storage))"
        self.typeCase = "." + (attribute.type == .uuid ? "uuid" : attribute.type == .url ? "url" : attribute.type.rawValue.prefix(1).lowercased() + attribute.type.rawValue.dropFirst())
        let isCodable = attribute.type == .codable
        self.publicType = optional ? base + "?" : base
        self.storageType = (optional || isCodable) ? base + "?" : base
        if optional || isCodable {
            self.initialValue = attribute.defaultValue.map { Self.literal($0, type: attribute.type) } ?? "nil"
        } else {
            self.initialValue = attribute.defaultValue.map { Self.literal($0, type: attribute.type) } ?? zero
        }
    }

    /// Whether the app's own functions code the attribute (`coder: custom`).
    var isCustomCoded: Bool { attribute.type == .codable && attribute.coder == .custom }

    /// Whether a value must be assigned before saving.
    var isRequired: Bool { !attribute.isOptional && attribute.defaultValue == nil && attribute.initial == nil }

    /// A floating-point default as Swift code: its text, or for a subnormal value, which the
    /// compiler warns loses precision as a decimal literal, its exact bit pattern.
    static func floatingLiteral(_ canonical: String, type: AttributeType) -> String {
        let bits: String
        switch type {
        case .double:
            guard let value = Double(canonical), value.isSubnormal else { return canonical }
            bits = String(value.bitPattern, radix: 16, uppercase: true)
        default:
            guard let value = Float(canonical), value.isSubnormal else { return canonical }
            bits = String(value.bitPattern, radix: 16, uppercase: true)
        }
        return "\(type == .double ? "Double" : "Float")(bitPattern: 0x\(bits)) /* \(canonical) */"
    }

    /// A Swift expression for a canonical default (see `DefaultValueParser`).
    static func literal(_ canonical: String, type: AttributeType) -> String {
        switch type {
        case .bool, .int16, .int32, .int64, .int: return canonical
        case .double, .float: return floatingLiteral(canonical, type: type)
        case .decimal: return "Decimal(string: \(SwiftSyntax.stringLiteral(canonical)), locale: Locale(identifier: \"en_US_POSIX\"))!"
        case .string: return SwiftSyntax.stringLiteral(canonical)
        case .date: return "Date(timeIntervalSinceReferenceDate: \(DefaultDate.referenceSeconds(canonical)))"
        case .data: return "Data(base64Encoded: \(SwiftSyntax.stringLiteral(canonical)))!"
        case .uuid: return "UUID(uuidString: \(SwiftSyntax.stringLiteral(canonical)))!"
        case .url: return "URL(string: \(SwiftSyntax.stringLiteral(canonical)))!"
        case .codable: return "nil"
        }
    }
}
