import Foundation

/// The type of an attribute that identifies imported objects: an ID type that can be stored,
/// compared in a `Where` and hashed, or an optional of one (a nil ID identifies nothing).
public protocol ImportUniqueIDStorage {
    /// The ID type, without an optional.
    associatedtype ID: QueryableAttributeType & ImportConvertible & ImportDecodable

    /// The ID the attribute holds; nil when it holds none.
    var importID: ID? { get }

    /// The attribute value holding an ID.
    init(importID: ID)
}

/// An ID type stored as itself.
public protocol ImportUniqueIDValue: ImportUniqueIDStorage, QueryableAttributeType, ImportConvertible, ImportDecodable where ID == Self {}

extension ImportUniqueIDValue {
    /// The value itself.
    public var importID: Self? { self }

    /// The value itself.
    public init(importID: Self) { self = importID }
}

extension Optional: ImportUniqueIDStorage where Wrapped: ImportUniqueIDValue {
    /// The wrapped ID, or nil.
    public var importID: Wrapped? { self }

    /// The ID, wrapped.
    public init(importID: Wrapped) { self = .some(importID) }
}

extension String: ImportUniqueIDValue {}
extension Bool: ImportUniqueIDValue {}
extension Int: ImportUniqueIDValue {}
extension Int16: ImportUniqueIDValue {}
extension Int32: ImportUniqueIDValue {}
extension Int64: ImportUniqueIDValue {}
extension Double: ImportUniqueIDValue {}
extension Float: ImportUniqueIDValue {}
extension Decimal: ImportUniqueIDValue {}
extension Date: ImportUniqueIDValue {}
extension UUID: ImportUniqueIDValue {}
extension URL: ImportUniqueIDValue {}
extension Data: ImportUniqueIDValue {}
