/// The stored type of an attribute, spelled in model files exactly as the case's raw value.
public enum AttributeType: String, CaseIterable, Hashable, Sendable, Codable {
    /// `Bool`, stored as an integer 0 or 1.
    case bool = "Bool"
    /// `Int16`.
    case int16 = "Int16"
    /// `Int32`.
    case int32 = "Int32"
    /// `Int64`.
    case int64 = "Int64"
    /// `Int`, 64 bits on every platform Strata supports.
    case int = "Int"
    /// `Double`.
    case double = "Double"
    /// `Float`.
    case float = "Float"
    /// `Decimal`, stored as its exact text.
    case decimal = "Decimal"
    /// `String`.
    case string = "String"
    /// `Date`.
    case date = "Date"
    /// `Data`.
    case data = "Data"
    /// `UUID`.
    case uuid = "UUID"
    /// `URL`.
    case url = "URL"
    /// Any `Codable` Swift type named by `swiftType`, encoded by `coder`.
    case codable = "Codable"

    /// Whether values are whole numbers.
    public var isInteger: Bool { [.int16, .int32, .int64, .int].contains(self) }
}

/// How a `Codable` attribute is turned into bytes.
public enum CodableCoder: String, CaseIterable, Hashable, Sendable, Codable {
    /// `JSONEncoder` / `JSONDecoder`.
    case json
    /// `PropertyListEncoder` / `PropertyListDecoder`.
    case propertyList
    /// A compact binary property list.
    case binary
    /// The app's own functions: the generated code requires `encode<Name>` and `decode<Name>`
    /// between the Swift type and `Data`, so the stored form is whatever the app decides.
    case custom
}

/// A value computed for every inserted object, instead of a constant default.
public enum InitialValue: String, CaseIterable, Hashable, Sendable, Codable {
    /// The current date and time (Date attributes).
    case now
    /// A new random UUID (UUID attributes).
    case uuid
}
