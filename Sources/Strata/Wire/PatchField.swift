/// One field of a request body as a client sent it: left out, `null`, or a value. A patch type
/// holds one per attribute, so that "leave it as it is" (absent) and "clear it" (null) stay apart.
///
/// ```swift
/// switch patch.nickname {
/// case .absent: break                       // unchanged
/// case .null: dog.nickname = nil            // cleared
/// case .set(let name): dog.nickname = name  // changed
/// }
/// ```
public enum PatchField<Value> {
    /// The body did not name the field.
    case absent
    /// The body gave the field as `null`.
    case null
    /// The body gave the field a value.
    case set(Value)

    /// Whether the body named the field (as `null` or with a value).
    public var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }

    /// Whether the body gave the field a value (not absent, not null).
    public var isSet: Bool {
        if case .set = self { return true }
        return false
    }

    /// The value given; nil when the field is absent or null.
    public var givenValue: Value? {
        if case .set(let value) = self { return value }
        return nil
    }

    /// The change to an optional attribute: nil when absent (no change), `.some(nil)` for null
    /// (cleared), the value otherwise.
    public var change: Value?? {
        switch self {
        case .absent: return nil
        case .null: return .some(nil)
        case .set(let value): return .some(value)
        }
    }

    /// The field with its value turned by `transform` (a `coder: custom` attribute's bytes into
    /// its value).
    public func map<Other>(_ transform: (Value) throws -> Other) rethrows -> PatchField<Other> {
        switch self {
        case .absent: return .absent
        case .null: return .null
        case .set(let value): return .set(try transform(value))
        }
    }
}

extension PatchField: Sendable where Value: Sendable {}
extension PatchField: Equatable where Value: Equatable {}
extension PatchField: Hashable where Value: Hashable {}
