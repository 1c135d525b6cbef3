import Foundation
import Synchronization

/// The fields a ``Patch`` of an entity class can carry: each stored attribute and to-one
/// relationship of its lineage by name, with its key path and Swift type, found from what the
/// generated class already declares (its observed columns and their names). Made once per class.
struct PatchAttributes: Sendable {
    /// One attribute or to-one relationship.
    // Sound: every member is a `let`; a key path is an immutable value that nothing mutates after
    // it is made (`AnyKeyPath` is not marked `Sendable` in the standard library), and metatypes
    // are `Sendable`.
    struct Attribute: @unchecked Sendable {
        let name: String
        let keyPath: AnyKeyPath
        /// The property's type (`String?` for an optional attribute).
        let valueType: Any.Type
        /// Whether the property is optional, so that a body may set it to null.
        let isOptional: Bool
        /// Whether the app's own functions code it (`coder: custom`): JSON gives its bytes.
        let isCustomCoded: Bool
        /// For a to-one relationship, the related class; nil for an attribute.
        let destination: StrataObject.Type?
    }

    /// Attributes and to-one relationships, in the class's column order.
    let attributes: [Attribute]
    /// Their names, in that order.
    var names: [String] { attributes.map(\.name) }

    /// The attribute of a key path of `type` (an inherited attribute's path may start at the
    /// subclass or at the ancestor); nil when the key path is no attribute's.
    func attribute(for keyPath: AnyKeyPath, of type: StrataObject.Type) -> Attribute? {
        if let found = attributes.first(where: { $0.keyPath == keyPath }) { return found }
        return type.propertyName(for: keyPath).flatMap(attribute(named:))
    }

    /// The attribute named `name`.
    func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    private static let cache = Mutex<[ObjectIdentifier: PatchAttributes]>([:])

    /// The attributes of `type`.
    static func of(_ type: StrataObject.Type) -> PatchAttributes {
        if let known = cache.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        let made = PatchAttributes(type)
        cache.withLock { $0[ObjectIdentifier(type)] = made }
        return made
    }

    private init(_ type: StrataObject.Type) {
        attributes = type.observedProperties.columns.compactMap { keyPath in
            let valueType = Swift.type(of: keyPath).valueType
            let wrapped = (valueType as? any OptionalPayload.Type)?.wrappedType ?? valueType
            guard let name = type.propertyName(for: keyPath) else { return nil }
            return Attribute(name: name, keyPath: keyPath, valueType: valueType, isOptional: valueType is any OptionalPayload.Type,
                             isCustomCoded: !(valueType is any Decodable.Type) && !(wrapped is StrataObject.Type),
                             destination: wrapped as? StrataObject.Type)
        }
    }
}
